// Compiling a policy: validating rules, expanding settings into patterns, compiling
// the regular expressions lazily and indexing rules by kind and program.

package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dlclark/regexp2/v2"

	"github.com/hookguard/hookguard/internal/hook"
)

type compiledRule struct {
	once     sync.Once
	patterns []*regexp2.Regexp
	unless   []*regexp2.Regexp
	// folded[i] reports that patterns[i] was written (?i) and is matched against
	// lowercased text instead (see foldPattern); likewise unlessFolded.
	folded       []bool
	unlessFolded []bool
	keywords     []string
	// keywordSet finds any of many keywords in one pass (built on first use).
	keywordSet     *anchorSet
	keywordSetOnce sync.Once
	except         map[string]bool
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
	notPaths     map[string]bool // the !classes of Paths
	err          error
}

// index groups rules so that an event only tries the rules that can apply.
type index struct {
	byKind map[hook.Kind][]*Rule
	// literals are the prefilter literals and keywords of each kind's
	// rules, found in a long text in one pass (see kindLiterals).
	literals map[hook.Kind]*kindLiterals
	// byProgram holds shell rules restricted to programs; anyProgram the others.
	byProgram  map[string][]*Rule
	anyProgram []*Rule
	// The anyProgram rules split by what they read: the line, each pipeline,
	// or each command. Command rules whose patterns all start with a literal
	// program word are indexed by that word (byAnchor); the rest are perCommand.
	lineRules     []*Rule
	pipelineRules []*Rule
	byAnchor      map[string][]*Rule
	// maxAnchor is the longest anchor word: longer prefixes of a program
	// name cannot be keys of byAnchor (and hashing them all is quadratic).
	maxAnchor int
	// flagRules are the rules that flag text addressed to the reviewer.
	flagRules  []*Rule
	perCommand []*Rule
	secrets    []*Rule
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
	switch r.ContentExempt {
	case "", "public", "clean":
	default:
		return fail("content_exempt", fmt.Sprintf("unknown value %q (use public or clean)", r.ContentExempt))
	}
	if len(r.Patterns) == 0 && len(r.Programs) == 0 && len(r.Paths) == 0 {
		return fail("patterns", "a rule needs patterns, programs or paths")
	}
	for _, p := range r.Paths {
		if !validPaths[strings.TrimPrefix(p, "!")] {
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
	ix := &index{byKind: map[hook.Kind][]*Rule{}, literals: map[hook.Kind]*kindLiterals{}, byProgram: make(map[string][]*Rule, n)}
	vars := patternVars(p.Settings)
	for _, r := range p.Rules {
		if r.Disabled {
			continue
		}
		if r.Review && r.Decision == hook.Deny && p.Settings.ReviewAs == hook.Ask {
			// settings.review_as: ask: the work a person should see first is
			// put to them instead of refused.
			r.Decision = hook.Ask
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
				if strings.HasPrefix(pc, "!") {
					if c.notPaths == nil {
						c.notPaths = map[string]bool{}
					}
					c.notPaths[pc[1:]] = true
					continue
				}
				c.paths[pc] = true
			}
		}
		if len(r.Programs) == 0 && r.target(hook.KindShell) == TargetCommand {
			c.anchors = anchorWords(r.Patterns)
		}
		r.compiled = c
		if r.Flag && r.Decision != hook.Allow {
			ix.flagRules = append(ix.flagRules, r)
		}
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
							ix.maxAnchor = max(ix.maxAnchor, len(w))
						}
					default:
						ix.perCommand = append(ix.perCommand, r)
					}
				}
			}
			ix.byKind[k] = append(ix.byKind[k], r)
			if ix.literals[k] == nil {
				ix.literals[k] = &kindLiterals{}
			}
		}
		if r.Secret {
			ix.secrets = append(ix.secrets, r)
		}
	}
	p.index = ix
	p.build = newNameSet(p.Settings.BuildOutputs)
}

// compilePattern compiles one rule pattern with the match timeout. A pattern
// that starts with (?i) is rewritten by foldPattern: regexp2 builds case-folded
// character classes very slowly (tens of milliseconds for a negated class such
// as \S), which would dominate the hook's start-up.
func compilePattern(p string) (*regexp2.Regexp, bool, error) {
	folded := false
	if flags, rest, ok := leadingFlags(p); ok && strings.ContainsRune(flags, 'i') {
		// Case-insensitive: match lowercased text with a lowercased pattern.
		// regexp2 compiles (?i) over wide classes ([\s\S], \S) by walking
		// Unicode's case tables: tens of milliseconds for one pattern.
		p, folded = foldPattern(rest), true
		if flags = strings.ReplaceAll(flags, "i", ""); flags != "" {
			p = "(?" + flags + ")" + p
		}
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

// leadingFlags splits a pattern that starts with a flag group such as (?i)
// or (?im) into the flags and the rest.
func leadingFlags(p string) (flags, rest string, ok bool) {
	if !strings.HasPrefix(p, "(?") {
		return "", p, false
	}
	end := strings.IndexByte(p, ')')
	if end < 0 {
		return "", p, false
	}
	flags = p[2:end]
	if flags == "" || strings.Trim(flags, "imsx") != "" {
		return "", p, false
	}
	return flags, p[end+1:], true
}
