package pipeline

import (
	"fmt"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/judgectx"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/prompts"
	"github.com/hookguard/hookguard/rules"
	"github.com/hookguard/hookguard/rules/shell"
)

// DefaultInputBudget is the judge input's default budget in tokens.
const DefaultInputBudget = 6000

// charsPerToken converts the token budget to characters (a conservative
// average for code and English).
const charsPerToken = 4

// gatherContext adds what a reviewer would look at to an escalated event's
// judge input — the texts of what a shell command runs, workspace facts, and
// the user's latest requests from the transcript — redacted, and cut to the
// policy's input budget in order of value: command and effects first (they
// are already in), then script bodies, the intent, the facts.
func gatherContext(ev *hook.Event, in *judge.Input, pol *rules.Policy, clean func(string, int) string) {
	budget := DefaultInputBudget
	var protected []string
	if pol != nil {
		if pol.Judge.InputBudget > 0 {
			budget = pol.Judge.InputBudget
		}
		protected = pol.Settings.ProtectedBranches
	}
	left := budget*charsPerToken - used(in)
	take := func(s string, max int) string {
		if left <= 0 {
			return ""
		}
		s = clean(s, min(max, left))
		left -= len(s)
		return s
	}
	if ev.Kind == hook.KindShell && ev.Command != "" {
		for _, src := range judgectx.Resolve(ev.Command, ev.Cwd, ev.WorkspaceRoots) {
			body := take(src.Body, judgectx.MaxBody)
			if body == "" {
				body = "[not shown: the judge's input budget is spent]"
			}
			in.Sources = append(in.Sources, prompts.Source{Kind: src.Kind, Name: clean(src.Name, judge.MaxPath),
				File: clean(src.File, judge.MaxPath), Line: src.Line, Body: body, Hash: src.Hash})
		}
	}
	if in.Intent == "" && ev.TranscriptPath != "" {
		in.TranscriptIntent = take(judgectx.Intent(ev.TranscriptPath), judge.MaxIntent)
	}
	if ev.Kind == hook.KindShell || ev.Kind == hook.KindMCP {
		in.Facts = take(judgectx.WorkspaceFacts(ev.Cwd, ev.WorkspaceRoots, protected).String(), 1000)
	}
}

// used is the size of what the judge input already holds from the event.
func used(in *judge.Input) int {
	n := len(in.Command) + len(in.ToolInput) + len(in.Content) + len(in.Intent)
	for _, p := range in.Parts {
		n += len(p.Text) + len(p.Effects)
	}
	for _, e := range in.Escalations {
		n += len(e)
	}
	return n
}

// ScriptVerdict looks inside what a shell command runs (workspace shell
// scripts, package.json scripts, make and just recipes) with the rule pass.
// A clear danger there is denied by the rules, naming the file and line; a
// body the rules do not understand sends the command to the judge (the
// escalations say why). Workspace shell scripts whose whole body the rules
// allow are returned as understood: running them is known.
func ScriptVerdict(ev *hook.Event, pol *rules.Policy, home string) (hook.Decision, hook.Result, []string) {
	d, res, why, _ := scriptVerdict(ev, nil, pol, home)
	return d, res, why
}

// scriptVerdict is ScriptVerdict with the understood script files; split,
// when not nil, is the rule pass's reading of the command line.
func scriptVerdict(ev *hook.Event, split *shell.Result, pol *rules.Policy, home string) (hook.Decision, hook.Result, []string, []string) {
	if ev.Kind != hook.KindShell || pol == nil {
		return hook.Allow, hook.Result{}, nil, nil
	}
	ctx := rules.Context{Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots, Home: home}
	var escalations, understood []string
	var sources []judgectx.Source
	if split != nil {
		sources = judgectx.ResolveSplit(split, ev.Cwd, ev.WorkspaceRoots)
	} else {
		sources = judgectx.Resolve(ev.Command, ev.Cwd, ev.WorkspaceRoots)
	}
	for _, src := range sources {
		if !src.Shell {
			continue
		}
		redact := pol.RedactorFor(src.Body)
		whole := pol.Evaluate(&hook.Event{Kind: hook.KindShell, Command: src.Body, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, ctx)
		if line, m, ok := firstDeny(src, whole, ev, pol, ctx); ok {
			reason := fmt.Sprintf("the command runs the %s %s (%s line %d), which would %s", src.Kind, redact(src.Name), redact(src.File), line,
				strings.TrimSuffix(lowerFirst(redact(m.Reason)), "."))
			return hook.Deny, hook.Result{Decision: hook.Deny, Source: hook.SourceRule, RuleID: "script-body:" + m.RuleID,
				Reason: text.Truncate(reason, 600), Advice: m.Advice}, nil, nil
		}
		if whole.Decision == hook.Allow && src.Kind == "script" && len(src.Body) < judgectx.MaxBody {
			understood = append(understood, src.File)
		}
		if whole.Decision != hook.Allow {
			why := "it is not understood"
			if len(whole.Escalations) > 0 {
				why = strings.Join(whole.Escalations, "; ")
			}
			escalations = append(escalations, text.Truncate(redact(fmt.Sprintf("the %s %s runs code the rules do not allow outright: %s", src.Kind, src.Name, why)), 300))
		}
	}
	if len(escalations) > 0 {
		return hook.Judge, hook.Result{}, escalations, nil
	}
	return hook.Allow, hook.Result{}, nil, understood
}

// firstDeny finds the first line of a shell source the rules deny (the body
// as a whole when no single line does, as for a multi-line construct).
func firstDeny(src judgectx.Source, outcome *rules.Outcome, ev *hook.Event, pol *rules.Policy, ctx rules.Context) (int, *rules.Match, bool) {
	eval := func(code string) *rules.Outcome {
		return pol.Evaluate(&hook.Event{Kind: hook.KindShell, Command: code, Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots}, ctx)
	}
	whole := danger(outcome)
	if whole == nil {
		return 0, nil, false
	}
	for i, l := range strings.Split(src.Body, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(l, "@-+"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if m := danger(eval(l)); m != nil {
			return max(src.Line, 1) + i, m, true
		}
	}
	return max(src.Line, 1), whole, true
}

// danger is the deny of an outcome that makes running the code dangerous.
// A secret written in a script is not: running the script does not show it
// to anyone (reading it would, and reads are checked as reads).
func danger(o *rules.Outcome) *rules.Match {
	if o.Decision != hook.Deny {
		return nil
	}
	for i := range o.Matches {
		m := &o.Matches[i]
		if m.Decision == hook.Deny && !strings.HasPrefix(m.RuleID, rules.SecretRulePrefix) {
			return m
		}
	}
	return nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
