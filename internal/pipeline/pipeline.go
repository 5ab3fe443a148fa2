// Package pipeline is the pipeline every event goes through, shared by
// `hookguard hook`, `hookguard check` and `hookguard eval`: the rule pass, then
// the judge for what the rules could not decide, then the final answer.
package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

// Judger answers escalated events. Implementations: the in-process judge, the
// judge-server client, and the eval harness's replay judge.
type Judger interface {
	// Decide returns a verdict for a prepared input (see JudgeInput). It never
	// fails: an outage comes back as a fallback Result whose Source is
	// hook.SourceFallback.
	Decide(ctx context.Context, in judge.Input) hook.Result
	// RememberIntent records the user's own request (a prompt event) so later
	// judgments in the same conversation can see what the user asked for.
	RememberIntent(ctx context.Context, ev *hook.Event)
}

// Pipeline decides events.
type Pipeline struct {
	Policy *rules.Policy
	// Judge is nil when no judge is configured.
	Judge Judger
	// Home is the user's home directory, for ~ in commands and paths.
	Home string
	// Explain makes the rule pass list every matching rule (hookguard check)
	// instead of stopping at the first deny. The decision is the same.
	Explain bool
}

// Decision is a pipeline answer with the rule pass that led to it.
type Decision struct {
	hook.Result
	Outcome *rules.Outcome `json:"rules"`
}

// Decide runs ev through the rules and, where they send it there, the judge.
func (p *Pipeline) Decide(ctx context.Context, ev *hook.Event) Decision {
	rctx := rules.Context{Cwd: ev.Cwd, WorkspaceRoots: ev.WorkspaceRoots, Home: p.Home}
	evaluate := p.Policy.Evaluate
	if p.Explain {
		evaluate = p.Policy.Explain
	}
	out := evaluate(ev, rctx)
	res := p.fromRules(out)
	if out.Decision == hook.Judge || out.Decision == hook.Allow && ev.Kind == hook.KindShell {
		// What the command runs (a script, a package.json script, a recipe)
		// can hold a danger its own line does not show, or code the rules do
		// not understand: then the command is not understood either.
		switch d, danger, why, understood := scriptVerdict(ev, out.Split(), p.Policy, p.Home); d {
		case hook.Deny:
			res = danger
		case hook.Judge:
			out.Decision = hook.Judge
			out.Escalations = append(out.Escalations, why...)
			res = p.judge(ctx, ev, out)
		default:
			if out.Decision == hook.Judge && len(understood) > 0 {
				// The scripts it runs were read whole and the rules allow
				// every line: decide again knowing that.
				rctx.UnderstoodScripts = understood
				if again := evaluate(ev, rctx); again.Decision != hook.Judge {
					out, res = again, p.fromRules(again)
				}
			}
			if out.Decision == hook.Judge {
				res = p.judge(ctx, ev, out)
			}
		}
	}
	if ev.Kind == hook.KindPrompt && res.Decision == hook.Allow && p.Judge != nil {
		p.Judge.RememberIntent(ctx, ev)
	}
	if res.Decision == hook.Ask && ev.Dialect == hook.Cursor && ev.Name == "preToolUse" && !hasAskingCursorEvent(ev) {
		// Cursor does not prompt on preToolUse: an ask would let the tool run.
		to := p.Policy.Settings.ToolAsk
		if to == "" {
			to = hook.Deny
		}
		res.Decision = to
		res.Reason = strings.TrimSuffix(res.Reason, ".") + " (Cursor does not ask the user on preToolUse; settings.tool_ask is " + string(to) + ")."
	}
	if res.Decision == hook.Ask && p.Policy.Settings.AskAs == hook.Deny {
		res.Decision = hook.Deny
		res.Reason = strings.TrimSuffix(res.Reason, ".") + " (asks are set to block: ask_as deny)."
	}
	res.RuleTimeouts = out.Timeouts
	return Decision{Result: res, Outcome: out}
}

// hasAskingCursorEvent reports whether a Cursor preToolUse call also reaches
// hookguard through a dedicated event that can ask (the terminal through
// beforeShellExecution, MCP tools through beforeMCPExecution). There the ask
// stays an ask: preToolUse lets it through and the dedicated event, which
// carries the same decision, puts the question to the user. Turning it into
// settings.tool_ask would block every command the user is meant to be asked
// about.
func hasAskingCursorEvent(ev *hook.Event) bool {
	tool := strings.ToLower(ev.ToolName)
	switch {
	case ev.Kind == hook.KindShell:
		return true
	case ev.Kind == hook.KindMCP:
		return strings.HasPrefix(tool, "mcp:")
	}
	return false
}

func (p *Pipeline) fromRules(out *rules.Outcome) hook.Result {
	res := hook.Result{Decision: out.Decision, Source: hook.SourceDefault, Escalation: out.Escalations}
	if m := out.Decisive; m != nil {
		res.Source = hook.SourceRule
		res.RuleID = m.RuleID
		res.Reason = m.Reason
		res.Advice = m.Advice
	}
	return res
}

func (p *Pipeline) judge(ctx context.Context, ev *hook.Event, out *rules.Outcome) hook.Result {
	if p.Judge == nil {
		d := p.Policy.Settings.Unjudged
		if d == "" {
			d = hook.Ask
		}
		why := "needs a judgment"
		if len(out.Escalations) > 0 {
			why = strings.Join(out.Escalations, "; ")
		}
		return hook.Result{
			Decision:   d,
			Source:     hook.SourceUnjudged,
			Reason:     fmt.Sprintf("the rules could not decide (%s) and no judge is configured", why),
			Escalation: out.Escalations,
		}
	}
	return p.AskJudge(ctx, ev, out, "")
}

// AskJudge sends an event the rules escalated to the judge, with the user's
// request when the caller knows it, and enforces what no verdict may break.
func (p *Pipeline) AskJudge(ctx context.Context, ev *hook.Event, out *rules.Outcome, intent string) hook.Result {
	res := enforce(p.Judge.Decide(ctx, JudgeInput(ev, out, p.Policy, intent)), out.Flagged)
	res.Escalation = out.Escalations
	return res
}

// Messages renders the texts for the user and the agent. A deny names the rule
// and its reason and tells the agent not to retry.
func Messages(ev *hook.Event, res hook.Result) hook.Messages {
	if res.Decision == hook.Allow {
		return hook.Messages{}
	}
	who := "hookguard"
	switch res.Source {
	case hook.SourceRule:
		who = "hookguard rule " + res.RuleID
	case hook.SourceJudge, hook.SourceCache:
		who = "hookguard judge"
	case hook.SourceFallback:
		who = "hookguard (judge unavailable)"
	}
	reason := strings.TrimSuffix(strings.TrimSpace(res.Reason), ".")
	if reason == "" {
		reason = "no reason given"
	}
	var user, agent string
	switch res.Decision {
	case hook.Deny:
		user = fmt.Sprintf("%s blocked this %s: %s.", who, subject(ev), reason)
		agent = user + " Do not retry the same action or a variant of it."
		if res.Advice != "" {
			agent += " Instead: " + strings.TrimSuffix(res.Advice, ".") + "."
		} else {
			agent += " Choose a safer way to reach the goal, or ask the user to run it themselves."
		}
	default:
		user = fmt.Sprintf("%s wants your approval for this %s: %s.", who, subject(ev), reason)
		agent = user
		if res.Advice != "" {
			agent += " " + capitalize(strings.TrimSuffix(res.Advice, ".")) + "."
		}
	}
	return hook.Messages{User: user, Agent: agent}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func subject(ev *hook.Event) string {
	switch ev.Kind {
	case hook.KindShell:
		return "command"
	case hook.KindMCP:
		return "MCP call"
	case hook.KindRead:
		return "file read"
	case hook.KindWrite:
		return "file write"
	case hook.KindPrompt:
		return "prompt"
	}
	return "action"
}
