package rules

import (
	"encoding/json"
	"fmt"
	gopath "path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules/shell"
)

// MatchTimeout bounds one pattern match, so that no pattern can hang the hook.
// regexp2's timeout clock ticks about every 100 ms, so the real bound is coarser.
// Real patterns take microseconds; the margin keeps a loaded machine from
// turning a slow match into a different answer.
const MatchTimeout = 200 * time.Millisecond

// maxTargetLen caps the text one pattern runs over; longer text is checked in
// its first and last parts (file contents can be megabytes).
const maxTargetLen = 256 << 10

// The targets a rule can match, per kind.
const (
	TargetCommand  = "command"  // shell: each simple command, normalized ("rm -rf /")
	TargetPipeline = "pipeline" // shell: each pipeline ("curl x | sh")
	TargetLine     = "line"     // shell: the command line as written (comments included)
	TargetEnv      = "env"      // shell: each VAR=value assignment of a command
	TargetWrites   = "writes"   // shell: each file a command writes or removes; write: the path
	TargetPath     = "path"     // read/write: the file path; shell: path arguments; mcp: paths in the input
	TargetContent  = "content"  // read/write: the file content
	TargetTool     = "tool"     // mcp: the tool name
	TargetServer   = "server"   // mcp: the server name, url or command
	TargetInput    = "input"    // mcp: the tool input as canonical JSON
	TargetCall     = "call"     // mcp: "server tool input"
	TargetPrompt   = "prompt"   // prompt and subagent: the text
	TargetText     = "text"     // the free text of any event: prompt, file content, tool input, command line
)

var validTargets = map[hook.Kind][]string{
	hook.KindShell:    {TargetCommand, TargetPipeline, TargetLine, TargetEnv, TargetWrites, TargetPath, TargetText},
	hook.KindMCP:      {TargetCall, TargetTool, TargetServer, TargetInput, TargetPath, TargetText},
	hook.KindRead:     {TargetPath, TargetContent, TargetText},
	hook.KindWrite:    {TargetPath, TargetContent, TargetWrites, TargetText},
	hook.KindPrompt:   {TargetPrompt, TargetText, TargetPath},
	hook.KindSubagent: {TargetPrompt, TargetText},
}

var defaultTargets = map[hook.Kind]string{
	hook.KindShell: TargetCommand, hook.KindMCP: TargetCall, hook.KindRead: TargetPath,
	hook.KindWrite: TargetPath, hook.KindPrompt: TargetPrompt, hook.KindSubagent: TargetPrompt,
}

// The path classes a shell rule can require (Rule.Paths).
const (
	PathRoot      = "root"      // / itself or /*
	PathHome      = "home"      // the home directory itself or ~/*
	PathHomeSub   = "home_sub"  // inside home but outside every workspace
	PathSystem    = "system"    // /etc, /usr, /bin, /var, … and below
	PathWorkspace = "workspace" // a workspace root, an ancestor of one, or everything in one (*)
	PathInside    = "inside"    // strictly inside a workspace root
	PathOutside   = "outside"   // outside every workspace root (and not temp)
	PathTemp      = "temp"      // /tmp, /var/tmp and below
	PathDynamic   = "dynamic"   // built at run time, or relative to an unknown directory
	PathBuild     = "build"     // inside a workspace, in a build output (settings.build_outputs)
	PathSource    = "source"    // inside a workspace, not in a build output
)

var validPaths = map[string]bool{PathRoot: true, PathHome: true, PathHomeSub: true, PathSystem: true,
	PathWorkspace: true, PathInside: true, PathOutside: true, PathTemp: true, PathDynamic: true,
	PathBuild: true, PathSource: true}

type compiledRule struct {
	once     sync.Once
	patterns []*regexp2.Regexp
	unless   []*regexp2.Regexp
	// folded[i] reports that patterns[i] was written (?i) and is matched against
	// lowercased text instead (see foldPattern); likewise unlessFolded.
	folded       []bool
	unlessFolded []bool
	keywords     []string
	except       map[string]bool
	// anchors, when set, are words one of which the program name must start
	// with for any pattern to match (derived from patterns like ^(git|tig)\s).
	anchors []string
	// vars are the policy values patterns refer to as {name}.
	vars map[string]string
	// shellTarget caches r.target(hook.KindShell).
	shellTarget string
	// literals is the automatic prefilter derived from the patterns (see rulePrefilter).
	literals     [][][]string
	literalsOnce sync.Once
	files        []*regexp2.Regexp
	paths        map[string]bool
	err          error
}

// index groups rules so that an event only tries the rules that can apply.
type index struct {
	byKind map[hook.Kind][]*Rule
	// byProgram holds shell rules restricted to programs; anyProgram the others.
	byProgram  map[string][]*Rule
	anyProgram []*Rule
	// The anyProgram rules split by what they read: the line, each pipeline,
	// or each command. Command rules whose patterns all start with a literal
	// program word are indexed by that word (byAnchor); the rest are perCommand.
	lineRules     []*Rule
	pipelineRules []*Rule
	byAnchor      map[string][]*Rule
	perCommand    []*Rule
	secrets       []*Rule
}

func (r *Rule) validate(file string) error {
	fail := func(field, msg string) error { return &PolicyError{File: file, Rule: r.ID, Field: field, Msg: msg} }
	if strings.TrimSpace(r.ID) == "" {
		return &PolicyError{File: file, Field: "id", Msg: "every rule needs an id"}
	}
	if r.Disabled {
		return nil
	}
	if len(r.Kinds) == 0 {
		return fail("kinds", "at least one of shell, mcp, read, write, prompt")
	}
	for _, k := range r.Kinds {
		if !validKind(k) {
			return fail("kinds", fmt.Sprintf("unknown kind %q", k))
		}
		if r.Target != "" && validTargets[k] != nil && !slices.Contains(validTargets[k], r.Target) {
			return fail("target", fmt.Sprintf("%q does not apply to %s events (use one of %s)", r.Target, k, strings.Join(validTargets[k], ", ")))
		}
	}
	if _, err := hook.ParseDecision(string(r.Decision), true); err != nil {
		return fail("decision", err.Error()+" (use allow, ask, deny or judge)")
	}
	if len(r.Patterns) == 0 && len(r.Programs) == 0 && len(r.Paths) == 0 {
		return fail("patterns", "a rule needs patterns, programs or paths")
	}
	for _, p := range r.Paths {
		if !validPaths[p] {
			return fail("paths", fmt.Sprintf("unknown path class %q", p))
		}
	}
	if strings.TrimSpace(r.Reason) == "" {
		return fail("reason", "every rule needs a reason")
	}
	if file == "default" {
		// The embedded policy's patterns are compiled by its tests; compiling
		// them here would put every pattern on the hook's start-up path.
		return nil
	}
	for i, p := range r.Patterns {
		if _, _, err := compilePattern(p); err != nil {
			return fail(fmt.Sprintf("patterns[%d]", i), err.Error())
		}
	}
	for i, p := range r.Unless {
		if _, _, err := compilePattern(p); err != nil {
			return fail(fmt.Sprintf("unless[%d]", i), err.Error())
		}
	}
	for i, p := range r.Files {
		if _, _, err := compilePattern(p); err != nil {
			return fail(fmt.Sprintf("files[%d]", i), err.Error())
		}
	}
	return nil
}

// expanded returns patterns with {name} placeholders replaced by the policy's
// values (an alternation of the quoted list items).
func (c *compiledRule) expanded(patterns []string) []string {
	if len(c.vars) == 0 {
		return patterns
	}
	out := make([]string, len(patterns))
	for i, p := range patterns {
		for name, val := range c.vars {
			p = strings.ReplaceAll(p, "{"+name+"}", val)
		}
		out[i] = p
	}
	return out
}

// patternVars are the placeholders rule patterns may use, from the settings.
func patternVars(s Settings) map[string]string {
	alt := make([]string, 0, len(s.ProtectedBranches))
	for _, b := range s.ProtectedBranches {
		alt = append(alt, regexp.QuoteMeta(b))
	}
	if len(alt) == 0 {
		alt = append(alt, "(?!)") // no protected branch matches nothing
	}
	return map[string]string{"protected_branches": "(?:" + strings.Join(alt, "|") + ")"}
}

// usesVars reports whether a pattern refers to a {name} placeholder.
func usesVars(patterns []string) bool {
	for _, p := range patterns {
		if strings.Contains(p, "{protected_branches}") {
			return true
		}
	}
	return false
}

// compile prepares the rule's matchers on first use; policies load fast and
// only the rules an event reaches pay for their patterns.
func (r *Rule) compile() *compiledRule {
	c := r.compiled
	c.once.Do(func() {
		for _, p := range c.expanded(r.Patterns) {
			re, folded, err := compilePattern(p)
			if err != nil {
				c.err = err
				return
			}
			c.patterns = append(c.patterns, re)
			c.folded = append(c.folded, folded)
		}
		for _, p := range c.expanded(r.Unless) {
			re, folded, err := compilePattern(p)
			if err != nil {
				c.err = err
				return
			}
			c.unless = append(c.unless, re)
			c.unlessFolded = append(c.unlessFolded, folded)
		}
		for _, p := range r.Files {
			re, _, err := compilePattern(p)
			if err != nil {
				c.err = err
				return
			}
			c.files = append(c.files, re)
		}
	})
	return c
}

// finish builds the index after merging.
func (p *Policy) finish() {
	n := 0
	for _, r := range p.Rules {
		n += len(r.Programs)
	}
	// Rules that name programs are reached only through byProgram, so the
	// index itself is their program filter.
	ix := &index{byKind: map[hook.Kind][]*Rule{}, byProgram: make(map[string][]*Rule, n)}
	vars := patternVars(p.Settings)
	for _, r := range p.Rules {
		if r.Disabled {
			continue
		}
		c := &compiledRule{}
		if usesVars(r.Patterns) || usesVars(r.Unless) {
			c.vars = vars
		}
		for _, k := range r.Keywords {
			c.keywords = append(c.keywords, strings.ToLower(k))
		}
		c.shellTarget = r.target(hook.KindShell)
		if len(r.ExceptPrograms) > 0 {
			c.except = map[string]bool{}
			for _, prog := range r.ExceptPrograms {
				c.except[prog] = true
			}
		}
		if len(r.Paths) > 0 {
			c.paths = map[string]bool{}
			for _, pc := range r.Paths {
				c.paths[pc] = true
			}
		}
		if len(r.Programs) == 0 && r.target(hook.KindShell) == TargetCommand {
			c.anchors = anchorWords(r.Patterns)
		}
		r.compiled = c
		for _, k := range r.Kinds {
			if k == hook.KindShell {
				if len(r.Programs) > 0 {
					for _, prog := range r.Programs {
						ix.byProgram[prog] = append(ix.byProgram[prog], r)
					}
				} else {
					ix.anyProgram = append(ix.anyProgram, r)
					switch t := r.target(hook.KindShell); {
					case t == TargetLine:
						ix.lineRules = append(ix.lineRules, r)
					case t == TargetPipeline:
						ix.pipelineRules = append(ix.pipelineRules, r)
					case c.anchors != nil:
						if ix.byAnchor == nil {
							ix.byAnchor = map[string][]*Rule{}
						}
						for _, w := range dedupe(c.anchors) {
							ix.byAnchor[w] = append(ix.byAnchor[w], r)
						}
					default:
						ix.perCommand = append(ix.perCommand, r)
					}
				}
			}
			ix.byKind[k] = append(ix.byKind[k], r)
		}
		if r.Secret {
			ix.secrets = append(ix.secrets, r)
		}
	}
	p.index = ix
	p.build = newNameSet(p.Settings.BuildOutputs)
}

func (r *Rule) target(k hook.Kind) string {
	t := r.Target
	if t == "" {
		return defaultTargets[k]
	}
	if t == TargetText {
		return textTargets[k]
	}
	return t
}

var textTargets = map[hook.Kind]string{
	hook.KindShell: TargetLine, hook.KindMCP: TargetInput, hook.KindRead: TargetContent,
	hook.KindWrite: TargetContent, hook.KindPrompt: TargetPrompt, hook.KindSubagent: TargetPrompt,
}

// matchText reports whether the rule's keywords, patterns and unless accept text.
// A pattern that errors (times out) counts as a match for deny/ask rules and as
// no match for allow rules: a hostile input must not buy an allow.
func (r *Rule) matchText(text string, lower string) bool {
	c := r.compiled
	c.literalsOnce.Do(func() {
		if r.Prefilter == nil {
			r.Prefilter = rulePrefilter(c.expanded(r.Patterns))
			if r.Prefilter == nil {
				r.Prefilter = [][][]string{}
			}
		}
		if len(r.Prefilter) > 0 {
			c.literals = r.Prefilter
		}
	})
	// The derived literal prefilter first (a few strings), then the rule's
	// own keywords (sometimes dozens).
	if c.literals != nil {
		if lower == "" {
			lower = strings.ToLower(text)
		}
		if !passesPrefilter(c.literals, lower) {
			return false
		}
	}
	if len(c.keywords) > 0 {
		if lower == "" {
			lower = strings.ToLower(text)
		}
		found := false
		for _, k := range c.keywords {
			if strings.Contains(lower, k) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	r.compile()
	if c.err != nil {
		return r.Decision != hook.Allow
	}
	text = clip(text)
	folded := func(f bool) string {
		if !f {
			return text
		}
		if lower == "" || len(lower) != len(text) {
			lower = strings.ToLower(text)
		}
		return lower
	}
	if len(c.patterns) > 0 {
		hit := false
		for i, re := range c.patterns {
			ok, err := re.MatchString(folded(c.folded[i]))
			if err != nil {
				ok = r.Decision != hook.Allow
			}
			if ok {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	for i, re := range c.unless {
		ok, err := re.MatchString(folded(c.unlessFolded[i]))
		if err != nil {
			ok = r.Decision == hook.Allow
		}
		if ok {
			return false
		}
	}
	return true
}

// compilePattern compiles one rule pattern with the match timeout. A pattern
// that starts with (?i) is rewritten by foldPattern: regexp2 builds case-folded
// character classes very slowly (tens of milliseconds for a negated class such
// as \S), which would dominate the hook's start-up.
func compilePattern(p string) (*regexp2.Regexp, bool, error) {
	folded := false
	if rest, ok := strings.CutPrefix(p, "(?i)"); ok {
		p, folded = foldPattern(rest), true
	}
	re, err := regexp2.Compile(p, regexp2.RE2)
	if err != nil {
		return nil, false, err
	}
	re.MatchTimeout = MatchTimeout
	return re, folded, nil
}

// foldPattern lowercases the literal letters of a pattern, leaving escapes
// (\S, \W, \p{Lu}, \x41, …) alone, so that it can match lowercased text.
func foldPattern(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		ch := p[i]
		if ch == '\\' && i+1 < len(p) {
			b.WriteByte(ch)
			i++
			b.WriteByte(p[i])
			if (p[i] == 'p' || p[i] == 'P' || p[i] == 'x') && i+1 < len(p) && p[i+1] == '{' {
				for i+1 < len(p) && p[i] != '}' {
					i++
					b.WriteByte(p[i])
				}
			}
			continue
		}
		if ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// anchorWords returns the literal words a set of patterns must start with,
// or nil when any pattern may start otherwise. It understands "^word",
// "^(a|b|c)" and a leading (?i); anything else disables the prefilter.
func anchorWords(patterns []string) []string {
	if len(patterns) == 0 {
		return nil
	}
	var words []string
	for _, p := range patterns {
		folded := false
		if rest, ok := strings.CutPrefix(p, "(?i)"); ok {
			p, folded = rest, true
		}
		rest, ok := strings.CutPrefix(p, "^")
		if !ok {
			return nil
		}
		var alts []string
		if strings.HasPrefix(rest, "(") {
			end := matchingParen(rest)
			if end < 0 || (end+1 < len(rest) && strings.ContainsRune("?*{", rune(rest[end+1]))) {
				return nil
			}
			inner := strings.TrimPrefix(rest[1:end], "?:")
			if strings.ContainsAny(inner, "()[]\\") {
				// Only plain alternatives of literal words are understood; a
				// nested group or class may hide another start.
				for _, alt := range splitTopLevel(inner) {
					if w := leadingWord(alt); w == "" || !wordThenSafe(alt, w) {
						return nil
					}
				}
			}
			alts = splitTopLevel(inner)
		} else {
			alts = []string{rest}
		}
		for _, alt := range alts {
			w := leadingWord(alt)
			if w == "" || !wordThenSafe(alt, w) {
				return nil
			}
			if folded {
				w = strings.ToLower(w)
			}
			words = append(words, w)
		}
	}
	return words
}

// wordThenSafe reports that the literal word w is not made optional or
// repeated by what follows it in alt.
func wordThenSafe(alt, w string) bool {
	if len(alt) == len(w) {
		return true
	}
	return !strings.ContainsRune("?*{|", rune(alt[len(w)]))
}

func leadingWord(s string) string {
	i := 0
	for i < len(s) {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-' {
			i++
			continue
		}
		break
	}
	// A word followed by a quantifier loses its last letter's certainty.
	if i > 0 && i < len(s) && strings.ContainsRune("?*{", rune(s[i])) {
		i--
	}
	return s[:i]
}

func matchingParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// fileMatches reports whether path passes the rule's files filter.
func (r *Rule) fileMatches(path string) bool {
	if len(r.Files) == 0 {
		return true
	}
	c := r.compile()
	if c.err != nil {
		return r.Decision != hook.Allow
	}
	lower := strings.ToLower(path)
	for _, re := range c.files {
		if ok, err := re.MatchString(lower); ok || err != nil {
			return true
		}
	}
	return false
}

func clip(s string) string { return text.KeepEnds(s, maxTargetLen) }

// evaluation accumulates matches for one event.
type evaluation struct {
	out      *Outcome
	decisive *Match
	// placeholder classifies {} for the command being evaluated (find -exec).
	placeholder map[string]bool
	// exhaustive keeps trying rules after a deny, to explain every match.
	exhaustive bool
}

func (e *evaluation) add(r *Rule, part string) hook.Decision {
	m := Match{RuleID: r.ID, Decision: r.Decision, Reason: r.Reason, Advice: r.Advice, Secret: r.Secret, Flag: r.Flag}
	if !r.Secret {
		m.Part = part
	}
	if r.Flag {
		e.out.Flagged = true
	}
	e.out.Matches = append(e.out.Matches, m)
	if e.decisive == nil || r.Decision.Severity() > e.decisive.Decision.Severity() {
		mm := m
		e.decisive = &mm
	}
	return r.Decision
}

func (p *Policy) defaultFor(k hook.Kind) hook.Decision {
	if d, ok := p.Settings.Defaults[k]; ok {
		return d
	}
	switch k {
	case hook.KindShell, hook.KindMCP:
		return hook.Judge
	}
	return hook.Allow
}

// Evaluate runs the rule pass for ev. It stops trying rules once the answer
// is deny (nothing is stricter); Explain tries them all.
func (p *Policy) Evaluate(ev *hook.Event, ctx Context) *Outcome {
	return p.evaluate(ev, ctx, false)
}

// Explain is Evaluate that keeps going after a deny, so that the outcome lists
// every rule that matches every part. The decision is the same.
func (p *Policy) Explain(ev *hook.Event, ctx Context) *Outcome {
	return p.evaluate(ev, ctx, true)
}

func (p *Policy) evaluate(ev *hook.Event, ctx Context, exhaustive bool) *Outcome {
	if p.index == nil {
		p.finish()
	}
	e := &evaluation{out: &Outcome{}, exhaustive: exhaustive}
	ctx.build = p.build
	var d hook.Decision
	switch ev.Kind {
	case hook.KindShell:
		d = p.evalShell(e, ev.Command, ctx)
	case hook.KindMCP:
		d = p.evalMCP(e, ev, ctx)
	case hook.KindRead, hook.KindWrite:
		d = p.evalFile(e, ev, ctx)
	case hook.KindPrompt, hook.KindSubagent:
		var attached []string
		for _, a := range ev.Attachments {
			attached = append(attached, pathForms(a, ctx)...)
		}
		d = p.evalSimple(e, ev.Kind, map[string][]string{TargetPrompt: {ev.Prompt}, TargetPath: attached}, "prompt", ctx)
	case hook.KindObserve:
		d = hook.Allow
	default:
		d = p.defaultFor(ev.Kind)
	}
	e.out.Decision = d
	if e.decisive != nil && e.decisive.Decision == d {
		e.out.Decisive = e.decisive
	}
	if d == hook.Judge && len(e.out.Escalations) == 0 {
		e.out.Escalations = append(e.out.Escalations, "no rule decided this "+string(ev.Kind)+" event")
	}
	return e.out
}

// evalSimple matches the rules of one kind against named targets and returns
// the strictest decision, or the kind's default when nothing matched.
func (p *Policy) evalSimple(e *evaluation, k hook.Kind, targets map[string][]string, label string, ctx Context) hook.Decision {
	var d hook.Decision
	var ids []string
	for _, r := range p.index.byKind[k] {
		t := r.target(k)
		if len(r.Files) > 0 && !r.fileMatches(label) {
			continue
		}
		for _, text := range targets[t] {
			if text == "" {
				continue
			}
			if r.compiled.paths != nil && !classesMatch(classifyPath(text, ctx.Cwd, ctx), r.compiled.paths) {
				continue
			}
			if r.matchText(text, "") {
				d = hook.Stricter(d, e.add(r, text))
				ids = append(ids, r.ID)
				break
			}
		}
	}
	if d == "" {
		d = p.defaultFor(k)
	}
	e.out.Parts = append(e.out.Parts, Part{Text: label, Decision: d, RuleIDs: ids})
	return d
}

func (p *Policy) evalFile(e *evaluation, ev *hook.Event, ctx Context) hook.Decision {
	path := ev.FilePath
	if path == "" {
		e.out.Escalations = append(e.out.Escalations, "the event names no file")
	}
	targets := map[string][]string{
		TargetPath:    pathForms(path, ctx),
		TargetContent: {ev.Content},
		TargetWrites:  pathForms(path, ctx),
	}
	return p.evalSimple(e, ev.Kind, targets, path, ctx)
}

// pathForms gives a path as written and, when it is under home, with ~ — so
// rules can say ~/.ssh/ whoever the user is.
func pathForms(path string, ctx Context) []string {
	if path == "" {
		return nil
	}
	forms := []string{path}
	if strings.HasPrefix(path, "/") {
		if clean := gopath.Clean(path); clean != path {
			forms = append(forms, clean)
			path = clean
		}
	}
	if ctx.Home != "" && (path == ctx.Home || strings.HasPrefix(path, ctx.Home+"/")) {
		forms = append(forms, "~"+path[len(ctx.Home):])
	}
	return forms
}

func (p *Policy) evalMCP(e *evaluation, ev *hook.Event, ctx Context) hook.Decision {
	var d hook.Decision
	if len(p.MCP.AllowedServers) > 0 && !slices.Contains(p.MCP.AllowedServers, ev.Server) {
		r := &Rule{ID: "mcp-server-not-allowed", Decision: hook.Deny,
			Reason: fmt.Sprintf("MCP server %q is not on the allowed list", ev.Server),
			Advice: "use one of the allowed MCP servers, or ask the user to add this one to mcp.allowed_servers"}
		if ev.Server == "" {
			r.Reason = "the MCP call names no server, and an allowed list is configured"
		}
		d = e.add(r, ev.Server)
	}
	input := hook.CanonicalJSON(ev.ToolInput)
	var paths []string
	for _, s := range jsonPaths(ev.ToolInput) {
		paths = append(paths, pathForms(s, ctx)...)
		for _, c := range classifyPath(s, ctx.Cwd, ctx) {
			if c == PathOutside || c == PathSystem || c == PathHome || c == PathHomeSub || c == PathRoot {
				e.out.Escalations = append(e.out.Escalations, "the tool input names a path outside the workspace: "+s)
				d = hook.Stricter(d, hook.Judge)
				break
			}
		}
	}
	// A tool that runs a shell command is judged like the command itself.
	var shellD hook.Decision
	cmds := jsonCommands(ev.ToolInput)
	for _, cmd := range cmds {
		shellD = hook.Stricter(shellD, p.evalShell(e, cmd, ctx))
	}
	if shellD.Severity() > hook.Judge.Severity() {
		d = hook.Stricter(d, shellD)
	}
	targets := map[string][]string{
		TargetCall:   {strings.Join(strings.Fields(ev.Server), "_") + " " + ev.Tool + " " + input},
		TargetTool:   {ev.Tool},
		TargetServer: {ev.Server},
		TargetInput:  {input},
		TargetPath:   paths,
	}
	d = hook.Stricter(d, p.evalSimple(e, hook.KindMCP, targets, ev.Server+"/"+ev.Tool, ctx))
	if len(cmds) > 0 && shellD == hook.Allow && d == hook.Judge && !e.out.Flagged && !e.hasStrict(hook.Judge) {
		// Only the tool's generic "runs something" nature was in doubt, and the
		// commands it runs are ones the shell rules allow outright.
		d = e.add(&Rule{ID: "mcp-allowed-command", Decision: hook.Allow,
			Reason: "the tool runs shell commands that the rules allow"}, ev.Tool)
		e.out.Escalations = nil
	}
	return d
}

// hasStrict reports whether a rule stricter than d has matched.
func (e *evaluation) hasStrict(d hook.Decision) bool {
	for _, m := range e.out.Matches {
		if m.Decision.Severity() > d.Severity() {
			return true
		}
	}
	return false
}

// jsonPaths returns string values in a JSON document that look like file paths.
func jsonPaths(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	var out []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(k, t[k])
			}
		case []any:
			for _, x := range t {
				walk(key, x)
			}
		case string:
			s := strings.TrimSpace(t)
			if len(s) > 1 && len(s) < 4096 && !strings.ContainsAny(s, "\n") && !strings.Contains(s, "://") &&
				(isPathKey(key) || strings.HasPrefix(s, "~/") || s == "~" || hasSystemRoot(s)) {
				out = append(out, s)
			}
		}
	}
	walk("", v)
	return out
}

// jsonCommands returns shell command lines found in a tool input: string values
// (or arrays of strings) under keys such as command, cmd or cli_command.
func jsonCommands(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil
	}
	var out []string
	for k, v := range m {
		switch strings.ToLower(k) {
		case "command", "cmd", "cli_command", "shell_command", "script", "bash", "sh", "commandline", "command_line":
		default:
			continue
		}
		switch t := v.(type) {
		case string:
			if strings.TrimSpace(t) != "" && len(t) < 64<<10 {
				out = append(out, t)
			}
		case []any:
			var parts []string
			for _, x := range t {
				if s, ok := x.(string); ok {
					parts = append(parts, shell.Quote(s))
				}
			}
			if len(parts) > 0 {
				out = append(out, strings.Join(parts, " "))
			}
		}
	}
	sort.Strings(out)
	return out
}

// hasSystemRoot reports whether s is an absolute path under a top-level
// directory that real file paths use (so /vercel/next.js, a library id, is not).
func hasSystemRoot(s string) bool {
	if !strings.HasPrefix(s, "/") || strings.Contains(s, " ") {
		return false
	}
	top, _, _ := strings.Cut(s[1:], "/")
	switch top {
	case "home", "Users", "root", "etc", "var", "usr", "opt", "tmp", "private", "mnt", "Volumes",
		"srv", "workspace", "workspaces", "code", "src", "proc", "sys", "dev", "boot", "bin", "sbin", "lib", "Library", "System", "Applications":
		return true
	}
	return false
}

func isPathKey(k string) bool {
	k = strings.ToLower(k)
	return k == "path" || k == "file" || k == "filename" || k == "file_path" || k == "filepath" ||
		k == "directory" || k == "dir" || k == "source" || k == "destination" || k == "target_file"
}

// shellCommands is how the rule pass sees one command line.
func (p *Policy) evalShell(e *evaluation, line string, ctx Context) hook.Decision {
	if strings.TrimSpace(line) == "" {
		e.out.Escalations = append(e.out.Escalations, "the event has an empty command")
		return hook.Judge
	}
	cwd := ctx.Cwd
	if cwd == "" && len(ctx.WorkspaceRoots) > 0 {
		cwd = ctx.WorkspaceRoots[0]
	}
	if cwd == "" {
		cwd = virtualWorkspace
		ctx.WorkspaceRoots = []string{virtualWorkspace}
	}
	ctx.Cwd = cwd
	res := shell.Split(line, shell.Options{Cwd: cwd, Home: ctx.Home})
	var d hook.Decision
	if res.ParseError != nil {
		e.out.ParseError = res.ParseError.Error()
		e.out.Escalations = append(e.out.Escalations, "the command could not be parsed")
		d = hook.Judge
	}
	if res.DepthExceeded {
		e.out.Escalations = append(e.out.Escalations, "the command nests shells too deeply to follow")
		d = hook.Judge
	}
	// Line-level rules (comments and the raw text).
	lineLower := strings.ToLower(line)
	for _, r := range p.index.lineRules {
		if r.matchText(line, lineLower) {
			d = hook.Stricter(d, e.add(r, line))
		}
	}
	for _, r := range p.index.pipelineRules {
		for _, pl := range res.Pipelines {
			if r.matchText(pl, "") {
				d = hook.Stricter(d, e.add(r, pl))
				break
			}
		}
	}
	if len(res.Commands) == 0 && d == "" && res.ParseError == nil {
		// Only assignments or comments: nothing runs.
		d = hook.Allow
	}
	var findSet map[string]bool
	for i := range res.Commands {
		c := &res.Commands[i]
		e.placeholder = nil
		if c.Name == "find" {
			findSet = findPlaceholder(c, ctx)
		} else if c.Via == "find -exec" {
			e.placeholder = findSet
		}
		d = hook.Stricter(d, p.evalCommand(e, c, ctx))
		if d == hook.Deny && !e.exhaustive {
			break // the strictest answer is reached; later parts cannot change it
		}
	}
	e.placeholder = nil
	return d
}

// virtualWorkspace stands for the workspace when an event names none.
const virtualWorkspace = "/nonexistent-workspace"

func (p *Policy) evalCommand(e *evaluation, c *shell.Command, ctx Context) hook.Decision {
	part := Part{Text: c.Text, Via: c.Via, Wrappers: c.Wrappers, Cwd: c.Cwd}
	var d hook.Decision
	if c.DynamicName {
		e.out.Escalations = append(e.out.Escalations, "the program name is built at run time: "+c.Text)
		d = hook.Judge
	}
	if c.Name == "" && len(c.Args) == 0 && len(c.Assigns) == 0 && len(c.Redirects) == 0 {
		return hook.Allow
	}
	var lazy struct {
		done        bool
		classes     []map[string]bool
		paths       []string
		pathsLower  []string
		writes      []string
		writesLower []string
		env         []string
		envLower    []string
	}
	classesDone := false
	classes := func() []map[string]bool {
		if !classesDone {
			classesDone = true
			_, lazy.classes = pathArgs(c, ctx, e.placeholder, true)
		}
		return lazy.classes
	}
	lowerAll := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = strings.ToLower(x)
		}
		return out
	}
	prepare := func() {
		if lazy.done {
			return
		}
		lazy.done = true
		lazy.paths, _ = pathArgs(c, ctx, e.placeholder, false)
		lazy.pathsLower = lowerAll(lazy.paths)
		lazy.writes = writeTargets(c, ctx.Home)
		lazy.writesLower = lowerAll(lazy.writes)
		for k, v := range c.Assigns {
			lazy.env = append(lazy.env, k+"="+v)
		}
		sort.Strings(lazy.env)
		lazy.envLower = lowerAll(lazy.env)
	}
	text := homeText(c, ctx.Home)
	lower := strings.ToLower(text)
	fire := func(r *Rule) {
		d = hook.Stricter(d, e.add(r, c.Text))
		part.RuleIDs = append(part.RuleIDs, r.ID)
	}
	try := func(r *Rule) {
		if d == hook.Deny && !e.exhaustive {
			// Nothing is stricter: the remaining rules cannot change the
			// answer, and trying them would compile their patterns.
			return
		}
		c0 := r.compiled
		t := c0.shellTarget
		if t == TargetLine || t == TargetPipeline {
			return
		}
		if c0.except != nil && c0.except[c.Name] {
			return
		}
		if t == TargetCommand {
			if !r.matchText(text, lower) {
				return
			}
			if c0.paths != nil && !anyClass(classes(), c0.paths) {
				return
			}
			fire(r)
			return
		}
		prepare()
		var texts, lowers []string
		switch t {
		case TargetEnv:
			texts, lowers = lazy.env, lazy.envLower
		case TargetWrites:
			texts, lowers = lazy.writes, lazy.writesLower
		case TargetPath:
			texts, lowers = lazy.paths, lazy.pathsLower
		}
		for i, x := range texts {
			if !r.matchText(x, lowers[i]) {
				continue
			}
			if c0.paths != nil && (t == TargetPath || t == TargetWrites) &&
				!classesMatch(classifyPath(x, c.Cwd, ctx), c0.paths) {
				continue
			}
			fire(r)
			return
		}
	}
	for _, r := range p.index.byProgram[c.Name] {
		try(r)
	}
	if len(p.index.byAnchor) > 0 {
		// Rules anchored on a word the program name starts with. A rule can be
		// reached through several words; seen keeps it to one try.
		var seen map[*Rule]bool
		lowerName := strings.ToLower(c.Name)
		for _, name := range []string{c.Name, lowerName} {
			for k := 1; k <= len(name); k++ {
				for _, r := range p.index.byAnchor[name[:k]] {
					if seen == nil {
						seen = map[*Rule]bool{}
					}
					if !seen[r] {
						seen[r] = true
						try(r)
					}
				}
			}
			if lowerName == c.Name {
				break
			}
		}
	}
	for _, r := range p.index.perCommand {
		try(r)
	}
	if d == "" && c.CodeSplit {
		// bash -c '…', eval '…', docker exec …: the code it runs was split
		// into commands of its own, which carry the decision.
		d = hook.Allow
	}
	if d == "" {
		d = p.defaultFor(hook.KindShell)
		if d == hook.Judge {
			e.out.Escalations = append(e.out.Escalations, "no rule knows the command "+quoteShort(c.Text))
		}
	}
	if d == hook.Allow && c.DynamicCode {
		d = hook.Judge
		e.out.Escalations = append(e.out.Escalations, "runs shell code that is only known at run time: "+quoteShort(c.Text))
	}
	if d == hook.Allow && elevated(c.Wrappers) {
		d = hook.Judge
		e.out.Escalations = append(e.out.Escalations, "runs with elevated privileges: "+quoteShort(c.Text))
	}
	part.Decision = d
	e.out.Parts = append(e.out.Parts, part)
	return d
}

// homeText is the command's normalized text with the home directory written
// as ~, so that rules can say ~/.ssh whoever the user is and wherever their
// home directory lives.
func homeText(c *shell.Command, home string) string {
	if home == "" || home == "/" || !strings.Contains(c.Text, home) {
		return c.Text
	}
	args := make([]string, len(c.Args))
	changed := false
	for i, a := range c.Args {
		args[i] = a
		if a == home || strings.HasPrefix(a, home+"/") {
			args[i] = "~" + a[len(home):]
			changed = true
		} else if k, v, ok := strings.Cut(a, "="); ok && (v == home || strings.HasPrefix(v, home+"/")) {
			args[i] = k + "=~" + v[len(home):]
			changed = true
		} else if strings.Contains(a, home+"/") {
			args[i] = strings.ReplaceAll(a, home+"/", "~/")
			changed = true
		}
	}
	if !changed {
		return c.Text
	}
	return shell.CommandText(c.Name, c.DynamicName, args, c.DynamicArgs)
}

func elevated(wrappers []string) bool {
	for _, w := range wrappers {
		switch w {
		case "sudo", "doas", "su", "pkexec", "run0":
			return true
		}
	}
	return false
}

func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return "`" + s + "`"
}

func classesMatch(classes []string, want map[string]bool) bool {
	for _, c := range classes {
		if want[c] {
			return true
		}
	}
	return false
}

func anyClass(classes []map[string]bool, want map[string]bool) bool {
	for _, cs := range classes {
		for c := range cs {
			if want[c] {
				return true
			}
		}
	}
	return false
}
