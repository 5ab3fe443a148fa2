package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/effects"
	"github.com/hookguard/hookguard/rules/shell"
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

// EffectsVerdict splits a command line and answers it from the effects alone
// (no rule of the policy): the strictest answer of its simple commands, and
// the reasons of the commands that gave it.
func (p *Policy) EffectsVerdict(line string, ctx Context) effects.Verdict {
	if ctx.build == nil {
		ctx.build = p.build
	}
	res := shell.Split(line, shell.Options{Cwd: ctx.Cwd, Home: ctx.Home})
	out := effects.Verdict{Decision: hook.Allow}
	if res.ParseError != nil {
		return effects.Verdict{Decision: hook.Judge, Reasons: []string{"parse error: " + res.ParseError.Error()}}
	}
	var findSet map[string]bool
	stages := map[int][]*effects.Record{}
	for i := range res.Commands {
		c := &res.Commands[i]
		var ph map[string]bool
		if c.Name == "find" {
			findSet = findPlaceholder(c, ctx)
			for _, cl := range effects.NameClasses(findNames(c)) {
				findSet[cl] = true
			}
		} else if c.Via == "find -exec" {
			ph = findSet
		}
		rec := effects.Analyze(c, p.effectsEnv(c, ctx, ph))
		if c.Via == "" {
			stages[c.Pipeline] = append(stages[c.Pipeline], rec)
		}
		v := effects.Decide(rec)
		switch {
		case v.Decision.Severity() > out.Decision.Severity():
			out = v
		case v.Decision == out.Decision && v.Decision != hook.Allow:
			out.Reasons = append(out.Reasons, v.Reasons...)
		}
	}
	for _, pl := range slices.Sorted(maps.Keys(stages)) {
		if why := effects.PipelineDanger(stages[pl]); why != "" {
			return effects.Verdict{Decision: hook.Deny, Reasons: []string{why}}
		}
		if why := effects.PipelineConcern(stages[pl]); why != "" && out.Decision == hook.Allow {
			out = effects.Verdict{Decision: hook.Judge, Reasons: []string{why}}
		}
	}
	return out
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
