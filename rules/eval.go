// The rule pass: Evaluate and Explain, and the evaluation of simple targets and file events.

package rules

import (
	"fmt"
	gopath "path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"golang.org/x/text/unicode/norm"
)

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
	if ev.Kind == hook.KindMCP {
		if n := len(ev.ToolInput); n > MaxMCPInputBytes {
			// Each value is decoded, walked and matched several times over:
			// an input of megabytes would take most of a second.
			e.out.Escalations = append(e.out.Escalations,
				fmt.Sprintf("the tool input is too large to analyze (%d bytes; the limit is %d)", n, MaxMCPInputBytes))
			e.out.Decision = hook.Judge
			return e.out
		}
		if n := jsonFanout(ev.ToolInput); n > MaxMCPValues {
			// Every value of a tool input is analyzed by what it is: an
			// input of hundreds of thousands of values would take seconds
			// and a gigabyte. It is not understood, and says which limit.
			e.out.Escalations = append(e.out.Escalations,
				fmt.Sprintf("the tool input has too many values to analyze (%d; the limit is %d)", n, MaxMCPValues))
			e.out.Decision = hook.Judge
			return e.out
		}
	}
	var d hook.Decision
	scanned := false
	if (ev.Kind == hook.KindPrompt || ev.Kind == hook.KindRead) && len(ev.Prompt)+len(ev.Content) >= earlyScanMin && !exhaustive {
		// A text of megabytes: the secret scan first. When it cannot
		// finish (text made dense with keywords) the event is already not
		// understood, and its text withheld from the judge; the text rules
		// over megabytes more would only add time.
		scanned = true
		if d = p.secretScan(e, ev, ctx); d == hook.Judge || d == hook.Deny {
			// The rest of the event (the file's path, the prompt's
			// attachments) is still checked.
			rest := *ev
			rest.Prompt, rest.Content = "", ""
			o := p.evaluate(&rest, ctx, false)
			e.out.Matches = append(e.out.Matches, o.Matches...)
			e.out.Escalations = append(e.out.Escalations, o.Escalations...)
			if d = hook.Stricter(d, o.Decision); d == o.Decision && o.Decisive != nil {
				e.decisive = o.Decisive
			}
			e.out.Decision = d
			if e.decisive != nil && e.decisive.Decision == d {
				e.out.Decisive = e.decisive
			}
			return e.out
		}
	}
	switch ev.Kind {
	case hook.KindShell:
		e.shellLine = ev.Command
		d = p.evalShell(e, ev.Command, ctx)
	case hook.KindMCP:
		d = p.evalMCP(e, ev, ctx)
	case hook.KindRead, hook.KindWrite:
		d = p.evalFile(e, ev, ctx)
		if ev.Kind == hook.KindRead && (d == hook.Allow || d == "") && len(ev.Content) < 64<<10 && addressesAgents(ev.Content) {
			// A file that tells AI agents to run something the rules deny
			// (a hidden HTML comment addressed to assistants that asks them to
			// send a key somewhere): planted for the agent that reads it.
			if cmd := p.deniedPromptCommand(ev.Content, ctx); cmd != "" {
				e.out.Escalations = append(e.out.Escalations, "the file tells AI agents to run a command the rules deny: "+cmd)
				d = hook.Stricter(d, hook.Judge)
			}
		}
	case hook.KindPrompt, hook.KindSubagent:
		var attached []string
		for _, a := range ev.Attachments {
			attached = append(attached, pathForms(a, ctx)...)
		}
		d = p.evalSimple(e, ev.Kind, map[string][]string{TargetPrompt: {ev.Prompt}, TargetPath: attached}, "prompt", ctx)
		d = hook.Stricter(d, p.promptIntent(e, ev.Prompt))
		if d == hook.Allow || d == "" {
			if cmd := p.deniedPromptCommand(ev.Prompt, ctx); cmd != "" {
				e.out.Escalations = append(e.out.Escalations, "the prompt gives a command to run that the rules deny: "+cmd)
				d = hook.Stricter(d, hook.Judge)
			}
		}
	case hook.KindObserve:
		d = hook.Allow
	default:
		d = p.defaultFor(ev.Kind)
	}
	if ev.Kind != hook.KindObserve && (d != hook.Deny || exhaustive) && !scanned {
		d = hook.Stricter(d, p.secretScan(e, ev, ctx))
	}
	if ev.Kind != hook.KindObserve && ev.Kind != hook.KindPrompt {
		d = hook.Stricter(d, p.flagScan(e, ev))
	}
	if len(e.out.Timeouts) > 0 && d == hook.Allow {
		// A pattern that ran out of time did not get to say no: the event
		// is not understood (the escalation names the rule).
		d = hook.Judge
	}
	e.out.Decision = d
	if e.decisive != nil && e.decisive.Decision == d {
		e.out.Decisive = e.decisive
	}
	if ev.Kind == hook.KindShell && d == hook.Allow && e.out.Decisive == nil && len(e.out.Parts) > 0 {
		// No rule allowed it: the effects did (every part understood and harmless).
		e.out.Decisive = &Match{RuleID: EffectsRuleID, Decision: hook.Allow, Reason: "every command is understood and its effects are harmless"}
	}
	if d == hook.Judge && len(e.out.Escalations) == 0 {
		// A rule that sends the event to the judge says why.
		for _, m := range e.out.Matches {
			if m.Decision == hook.Judge && m.Reason != "" {
				e.out.Escalations = append(e.out.Escalations, m.Reason+" ("+m.RuleID+")")
			}
		}
	}
	if d == hook.Judge && len(e.out.Escalations) == 0 {
		e.out.Escalations = append(e.out.Escalations, "no rule decided this "+string(ev.Kind)+" event")
	}
	return e.out
}

// earlyScanMin is the length of a prompt or file from which the secret
// scan runs before the text rules (see evaluate).
const earlyScanMin = 1 << 20

// evalSimple matches the rules of one kind against named targets and returns
// the strictest decision, or the kind's default when nothing matched.
func (p *Policy) evalSimple(e *evaluation, k hook.Kind, targets map[string][]string, label string, ctx Context) hook.Decision {
	var d hook.Decision
	var ids []string
	// Each text lower-cased once, not once per rule (a prompt or a file's
	// content can be megabytes).
	var lowers map[string][]string // target → its texts lower-cased, by index
	lowerOf := func(target string, i int) string {
		if lowers == nil {
			lowers = make(map[string][]string, 2)
		}
		ls := lowers[target]
		if ls == nil {
			ls = make([]string, len(targets[target]))
			lowers[target] = ls
		}
		if ls[i] == "" {
			ls[i] = text.Lower(targets[target][i])
		}
		return ls[i]
	}
	// The event's own paths, classified once (rules on text with path
	// classes need them; a classification walks the path tables).
	var pathClasses [][]string
	eventPathClasses := func() [][]string {
		if pathClasses == nil {
			pathClasses = [][]string{}
			for _, p := range targets[TargetPath] {
				if p != "" {
					pathClasses = append(pathClasses, classifyPath(p, ctx.Cwd, ctx))
				}
			}
		}
		return pathClasses
	}
	for _, r := range p.index.byKind[k] {
		t := r.target(k)
		if len(r.Files) > 0 && !r.fileMatches(label) {
			continue
		}
		if len(targets[t]) == 0 || len(targets[t]) == 1 && targets[t][0] == "" {
			continue // nothing to match (a read without content)
		}
		if (r.compiled.paths != nil || r.compiled.notPaths != nil) && t != TargetPath && t != TargetWrites &&
			!r.compiled.anyClassesMatch(eventPathClasses()) {
			continue // a rule on text with path classes: the event must name such a path
		}
		for ti, text := range targets[t] {
			if text == "" {
				continue
			}
			if (r.compiled.paths != nil || r.compiled.notPaths != nil) && (t == TargetPath || t == TargetWrites) &&
				!r.compiled.pathClassesMatch(classifyPath(text, ctx.Cwd, ctx)) {
				continue
			}
			if r.ContentExempt != "" && contentExempts(r.ContentExempt, targets[TargetContent], label, k == hook.KindRead && fixtureKeyFile(label, ctx)) {
				continue
			}
			low := lowerOf(t, ti)
			switch {
			case len(low) < memoMin || e.memo != nil && (e.memo.text == low || e.memo.also == low):
			case e.memo != nil && len(e.memo.text) > len(low) && strings.HasSuffix(e.memo.text, low):
				e.memo.also = low // the tool input at the end of the call text: one pass serves both
			default:
				e.memo = p.index.presence(k, low)
			}
			if r.matchTextIn(text, low, e) {
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

// anyClassesMatch reports whether one of the event's paths, already
// classified, falls in the rule's path classes.
func (c *compiledRule) anyClassesMatch(classes [][]string) bool {
	for _, cl := range classes {
		if c.pathClassesMatch(cl) {
			return true
		}
	}
	return false
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

// flagScan looks for text addressed to the reviewer where the kind's own
// targets do not: in every field that reaches the model (the working
// directory, workspace roots, MCP server and tool names) and in the event's
// text after normalization (NFKC, zero-width and other invisible characters
// removed), so that "ign\u200bore all previous instructions" and full-width
// letters read as what they say.
func (p *Policy) flagScan(e *evaluation, ev *hook.Event) hook.Decision {
	if len(p.index.flagRules) == 0 || e.out.Flagged {
		return ""
	}
	var texts []string
	for _, f := range append([]string{ev.Cwd, ev.Server, ev.Tool, ev.ToolName}, ev.WorkspaceRoots...) {
		if f != "" {
			texts = append(texts, normalizeText(f))
		}
	}
	for _, raw := range []string{ev.Command, string(ev.ToolInput), ev.Content} {
		if raw == "" {
			continue
		}
		if n := normalizeText(raw); n != raw {
			texts = append(texts, n)
		}
	}
	var d hook.Decision
	for _, t := range texts {
		lower := text.Lower(t)
		for _, r := range p.index.flagRules {
			if r.matchTextIn(t, lower, e) {
				d = hook.Stricter(d, e.add(r, text.Truncate(t, 200)))
				return d
			}
		}
	}
	return d
}

// normalizeText folds compatibility characters (NFKC: full-width letters,
// ligatures) and removes invisible format characters (zero-width spaces and
// joiners, bidi controls, soft hyphens).
func normalizeText(s string) string {
	if len(s) > maxTargetLen {
		s = text.KeepEnds(s, maxTargetLen)
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	s = norm.NFKC.String(s)
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.Is(unicode.Cf, r) {
			return strings.Map(func(r rune) rune {
				if unicode.Is(unicode.Cf, r) {
					return -1
				}
				return r
			}, s)
		}
		i += size
	}
	return s // no format character: the text as it is, not a copy
}

// MaxMCPInputBytes bounds the size of a tool input the rules analyze (a
// file a filesystem tool writes, a query); a larger input is not understood.
const MaxMCPInputBytes = 1 << 20

// MaxMCPValues bounds the values (object members and array elements) of a
// tool input the rules analyze; a larger input is not understood. Each value
// is analyzed by what it is (a URL, a path, SQL, a command), some 10 to 20 microseconds
// apiece: 5,000 keep the largest input within issue 12's 200 ms, and a real
// tool call holds a few dozen.
const MaxMCPValues = 5000

// jsonFanout counts the members and elements of a JSON document (its commas
// and openings outside strings) in one pass, without decoding it.
func jsonFanout(raw []byte) int {
	n, inString, escaped := 0, false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch c {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ',' || c == '{' || c == '[':
			n++
		}
	}
	return n
}
