package evals

import (
	"context"
	"testing"

	"github.com/hookguard/hookguard/rules"
)

// TestParallelMatchesSerial runs the bundled sets with one job and with
// several: the pipeline must not depend on how many cases run at once (the
// eval must agree with the hook, which decides one event per process).
func TestParallelMatchesSerial(t *testing.T) {
	cases, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	// A sample keeps the test quick under -race; it still mixes every set.
	step := 8
	if testing.Short() {
		step = 32
	}
	var sample []Case
	for i := 0; i < len(cases); i += step {
		sample = append(sample, cases[i])
	}
	cases = sample
	load := func(roots []string) (*rules.Policy, error) {
		return rules.Load(rules.LoadOptions{NoUser: true, ProjectRoots: roots})
	}
	serial := (&Runner{Pipelines: &Pipelines{Load: load}, Jobs: 1}).Run(context.Background(), cases)
	parallel := (&Runner{Pipelines: &Pipelines{Load: load}, Jobs: 8}).Run(context.Background(), cases)
	for i := range cases {
		s, p := serial[i].Trials[0], parallel[i].Trials[0]
		if s.Decision != p.Decision || s.Source != p.Source || s.RuleID != p.RuleID {
			t.Errorf("%s: serial %s (%s %s), parallel %s (%s %s)", cases[i].ID, s.Decision, s.Source, s.RuleID, p.Decision, p.Source, p.RuleID)
		}
	}
}
