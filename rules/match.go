// Matching one rule against one target, and collecting the matches of an event.

package rules

import (
	"encoding/json"
	"fmt"
	"github.com/dlclark/regexp2/v2"
	htext "github.com/hookguard/hookguard/internal/text"
	"slices"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules/effects"
)

// matchText reports whether the rule's keywords, patterns and unless accept text.
// A pattern that errors (times out) counts as a match for deny/ask rules and as
// no match for allow rules: a hostile input must not buy an allow.
func (r *Rule) matchText(text string, lower string) bool { return r.matchTextIn(text, lower, nil) }

// matchTextIn is matchText that reports a pattern that timed out to e (nil
// reports nowhere): the event's outcome then says which rule and how the
// timeout was counted.
// prefilterLiterals derives the rule's literal prefilter once (see
// rulePrefilter) and returns it (nil when the rule has none).
func (r *Rule) prefilterLiterals() [][][]string {
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
	return c.literals
}

func (r *Rule) matchTextIn(text string, lower string, e *evaluation) bool {
	c := r.compiled
	r.prefilterLiterals()
	// The derived literal prefilter first (a few strings), then the rule's
	// own keywords (sometimes dozens).
	if c.literals != nil {
		if lower == "" {
			lower = htext.Lower(text)
		}
		if !passesPrefilter(c.literals, lower, e) {
			return false
		}
	}
	if len(c.keywords) > 0 {
		if lower == "" {
			lower = htext.Lower(text)
		}
		c.keywordSetOnce.Do(func() {
			// Many keywords over a long text (a file's content): one pass
			// over the text instead of one per keyword.
			if len(c.keywords) >= 6 && !slices.ContainsFunc(c.keywords, func(k string) bool { return len(k) < 2 }) {
				c.keywordSet = newAnchorSet(c.keywords)
			}
		})
		found := false
		if c.keywordSet != nil {
			found = c.keywordSet.any(lower)
		} else {
			for _, k := range c.keywords {
				if e.contains(lower, k) {
					found = true
					break
				}
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
			lower = htext.Lower(text)
		}
		return lower
	}
	if len(c.patterns) > 0 {
		hit := false
		// The prefilter holds one entry per pattern: a pattern whose
		// literals are not all in the text cannot match and is not run.
		perPattern := len(c.literals) == len(c.patterns) && len(c.patterns) > 1
		var windows [][2]int
		if r.Window > 0 && len(text) > 4*r.Window && len(c.keywords) > 0 {
			if lower == "" {
				lower = htext.Lower(text)
			}
			if len(lower) == len(text) {
				windows = keywordWindows(lower, c.keywords, c.keywordSet, r.Window)
			}
		}
		for i, re := range c.patterns {
			if perPattern && !satisfies(c.literals[i], lower, e) {
				continue
			}
			var ok bool
			var err error
			if windows != nil && !anchoredPattern(r.Patterns[i]) {
				ok, err = matchWindows(re, folded(c.folded[i]), windows)
			} else {
				ok, err = re.MatchString(folded(c.folded[i]))
			}
			if err != nil {
				ok = r.Decision != hook.Allow
				e.timedOut(r, ok)
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
			e.timedOut(r, !ok)
		}
		if ok {
			return false
		}
	}
	return true
}

// keywordWindows returns the spans of lower within w bytes of each
// occurrence of a keyword, widened to whole lines and merged (at most 64
// occurrences; beyond that the whole text is one span).
func keywordWindows(lower string, keywords []string, set *anchorSet, w int) [][2]int {
	var hits []int
	if set != nil {
		// One pass over the text for all keywords.
		for _, pos := range set.find(lower) {
			hits = append(hits, pos...)
		}
	} else {
		for _, k := range keywords {
			for from := 0; from < len(lower); {
				i := strings.Index(lower[from:], k)
				if i < 0 {
					break
				}
				hits = append(hits, from+i)
				from += i + len(k)
			}
		}
	}
	if len(hits) > 64 {
		return [][2]int{{0, len(lower)}}
	}
	slices.Sort(hits)
	var out [][2]int
	for _, h := range hits {
		lo, hi := max(0, h-w), min(len(lower), h+w)
		if j := strings.LastIndexByte(lower[:lo], '\n'); j >= 0 {
			lo = j + 1
		} else {
			lo = 0
		}
		if j := strings.IndexByte(lower[hi:], '\n'); j >= 0 {
			hi += j
		} else {
			hi = len(lower)
		}
		if n := len(out); n > 0 && lo <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], hi)
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

// matchWindows runs re over each span of s; an error (a timeout) is
// returned as it is.
func matchWindows(re *regexp2.Regexp, s string, spans [][2]int) (bool, error) {
	for _, sp := range spans {
		ok, err := re.MatchString(s[sp[0]:sp[1]])
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// anchoredPattern reports a pattern that starts at the text's beginning
// (^ after its flags): it is matched against the whole text.
func anchoredPattern(p string) bool {
	if _, rest, ok := leadingFlags(p); ok {
		p = rest
	}
	return strings.HasPrefix(p, "^")
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
	// loopFiles are the operands ("$f") that stand for the files a for
	// loop's listing names (see loopFiles).
	loopFiles map[string]bool
	// pipedData says what the input of the command being evaluated (an
	// xargs) carries when it is secret: "environment" (env | xargs …) or
	// "secret file PATH" (cat ~/.aws/credentials | xargs …); "" otherwise.
	pipedData string
	// ifMissing are files the line writes only when they do not exist yet
	// ([ -f .env ] || cp …).
	ifMissing map[string]bool
	// editorEdit is the settings (JSON) the line sets in the editor's
	// settings file through jq or a one-liner, when all are harmless.
	editorEdit string
	// verifiedHooks are hook scripts (absolute) the line wrote with content
	// the rules allow.
	verifiedHooks map[string]bool
	// envrcDirs are folders whose .envrc an earlier command of the line
	// wrote whole with harmless content (see eval_shell).
	envrcDirs map[string]bool
	// examples are files (absolute paths) an earlier command of the line,
	// on the left of an &&, made by copying an example file (cp
	// .env.example .env && cat .env): what they hold is the example.
	examples map[string]bool
	// exportLoads says env files read into export (export $(grep -v '^#'
	// .env | xargs)) are loaded, not shown: the line sends nothing over
	// the network that could carry them.
	exportLoads bool
	// exhaustive keeps trying rules after a deny, to explain every match.
	exhaustive bool
	// memo remembers which literals the long text being matched holds.
	memo *containsMemo
	// shellLine is a shell event's own command line (see Outcome.Split).
	shellLine string
	// input is an MCP event's tool input, decoded once (see toolInput).
	input *decodedInput
}

// decodedInput is a tool input decoded, or not JSON.
type decodedInput struct {
	v  any
	ok bool
}

// toolInput decodes an MCP event's tool input once per evaluation (numbers
// kept as written): the path, value, command and secret walks and the text
// the rules read all start from it, and an input of megabytes decoded once
// for each was most of the call's time.
func (e *evaluation) toolInput(raw json.RawMessage) (any, bool) {
	if e.input == nil {
		e.input = &decodedInput{}
		if len(raw) > 0 {
			e.input.v, e.input.ok = hook.DecodeJSON(raw)
		}
	}
	return e.input.v, e.input.ok
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

// EffectsRuleID names decisions the effects model made (no rule of the policy).
const EffectsRuleID = "effects"

// addEffect records a deny from the effects model as a match.
func (e *evaluation) addEffect(v effects.Verdict, part string) hook.Decision {
	m := Match{RuleID: EffectsRuleID, Decision: v.Decision, Reason: strings.Join(v.Reasons, "; "), Part: part}
	e.out.Matches = append(e.out.Matches, m)
	if e.decisive == nil || v.Decision.Severity() > e.decisive.Decision.Severity() {
		mm := m
		e.decisive = &mm
	}
	return v.Decision
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

// hasStrict reports whether a rule stricter than d has matched.
func (e *evaluation) hasStrict(d hook.Decision) bool {
	for _, m := range e.out.Matches {
		if m.Decision.Severity() > d.Severity() {
			return true
		}
	}
	return false
}

// onlyStricterBy reports whether every match stricter than d is of the
// rule id (and there is at least one).
func (e *evaluation) onlyStricterBy(d hook.Decision, id string) bool {
	n := 0
	for _, m := range e.out.Matches {
		if m.Decision.Severity() > d.Severity() {
			if m.RuleID != id {
				return false
			}
			n++
		}
	}
	return n > 0
}

// dropRule removes the matches of rule id, for a finer rule that decided
// the same question, and finds the decisive match again.
func (e *evaluation) dropRule(id string) {
	kept := e.out.Matches[:0]
	e.decisive = nil
	for _, m := range e.out.Matches {
		if m.RuleID == id {
			continue
		}
		kept = append(kept, m)
		if e.decisive == nil || m.Decision.Severity() > e.decisive.Decision.Severity() {
			mm := m
			e.decisive = &mm
		}
	}
	e.out.Matches = kept
}

// timedOut records that a pattern of r ran out of time, and whether the rule
// was counted as matching (a deny or ask rule is; an allow rule is not).
func (e *evaluation) timedOut(r *Rule, counted bool) {
	if e == nil {
		return
	}
	how := "counted as not matching"
	if counted {
		how = "counted as matching"
	}
	e.out.Timeouts = append(e.out.Timeouts, r.ID)
	e.out.Escalations = append(e.out.Escalations, fmt.Sprintf("a pattern of rule %s ran out of time (%s), %s", r.ID, MatchTimeout, how))
}
