// Timing each rule pattern on the rule's own examples (hookguard policy test).

package rules

import (
	"slices"
	"time"

	htext "github.com/hookguard/hookguard/internal/text"
)

// SlowPattern is a rule pattern that took longer than the limit on one of
// the rule's own examples.
type SlowPattern struct {
	RuleID  string
	Pattern int // index in the rule's patterns (unless patterns follow them)
	Example string
	Took    time.Duration
}

// SlowPatterns times every pattern of every rule (patterns, then unless)
// against each of the rule's examples, matched whole, and returns those
// whose median of three runs exceeds limit, slowest first. Compiling is not
// counted (the first run is a warm-up).
func (p *Policy) SlowPatterns(limit time.Duration) []SlowPattern {
	var out []SlowPattern
	for _, r := range p.Rules {
		if r.compiled == nil {
			continue
		}
		c := r.compile()
		if c.err != nil {
			continue
		}
		examples := append(slices.Clone(r.Examples.Match), r.Examples.NoMatch...)
		pats := append(slices.Clone(c.patterns), c.unless...)
		folded := append(slices.Clone(c.folded), c.unlessFolded...)
		for i, re := range pats {
			for _, ex := range examples {
				text := ex
				if folded[i] {
					text = htext.Lower(ex)
				}
				_, _ = re.MatchString(text)
				var runs [3]time.Duration
				for k := range runs {
					start := time.Now()
					_, _ = re.MatchString(text)
					runs[k] = time.Since(start)
				}
				slices.Sort(runs[:])
				if runs[1] > limit {
					out = append(out, SlowPattern{RuleID: r.ID, Pattern: i, Example: ex, Took: runs[1]})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b SlowPattern) int { return int(b.Took - a.Took) })
	return out
}
