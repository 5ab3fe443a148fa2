package rules

import (
	"fmt"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/effects"
)

// EffectsExampleFailure is a program-table example whose effects answer is
// not the one the table states.
type EffectsExampleFailure struct {
	Program string        `json:"program"`
	Example string        `json:"example"`
	Want    hook.Decision `json:"want"`
	Got     hook.Decision `json:"got"`
	Why     []string      `json:"why,omitempty"`
}

func (f EffectsExampleFailure) Error() string {
	return fmt.Sprintf("effects table: %s: %q gives %s, want %s %v", f.Program, f.Example, f.Got, f.Want, f.Why)
}

// EffectsVerdict answers a command line from the effects alone: the shell
// rule pass of a policy with p's settings and none of its rules, so examples
// run through exactly the mechanism events do. The reasons are the effects'
// own (a deny's) or the escalations (a judge's).
func (p *Policy) EffectsVerdict(line string, ctx Context) effects.Verdict {
	bare := &Policy{Settings: p.Settings}
	ev := &hook.Event{Kind: hook.KindShell, Command: line, Cwd: ctx.Cwd, WorkspaceRoots: ctx.WorkspaceRoots}
	o := bare.Evaluate(ev, ctx)
	v := effects.Verdict{Decision: o.Decision}
	switch o.Decision {
	case hook.Deny:
		for _, m := range o.Matches {
			v.Reasons = append(v.Reasons, m.Reason)
		}
	case hook.Judge, hook.Ask:
		v.Reasons = o.Escalations
	}
	return v
}

// CheckEffectsExamples runs every program-table example (allow, judge, deny)
// through the effects alone, in ExampleContext, and returns the failures.
func (p *Policy) CheckEffectsExamples() (checked int, fails []EffectsExampleFailure) {
	var walk func(prefix string, s *effects.Spec)
	walk = func(prefix string, s *effects.Spec) {
		name := prefix + s.Names[0]
		for _, set := range []struct {
			want hook.Decision
			xs   []string
		}{{hook.Allow, s.Examples.Allow}, {hook.Judge, s.Examples.Judge}, {hook.Deny, s.Examples.Deny}} {
			for _, ex := range set.xs {
				checked++
				v := p.EffectsVerdict(ex, ExampleContext)
				if v.Decision != set.want {
					fails = append(fails, EffectsExampleFailure{Program: name, Example: ex, Want: set.want, Got: v.Decision, Why: v.Reasons})
				}
			}
		}
		for _, sub := range s.Subcommands {
			walk(name+" ", sub)
		}
	}
	for _, s := range effects.Programs() {
		walk("", s)
	}
	return checked, fails
}
