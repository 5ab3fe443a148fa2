package pipeline

import (
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/prompts"
	"github.com/hookguard/hookguard/rules"
)

// JudgeConfig resolves the judge's configuration from the environment and the
// policy's judge section. The hook, eval, `judge` commands and doctor all call
// it, so they agree on the endpoint. ok is false when the judge is off.
func JudgeConfig(pol *rules.Policy, getenv judge.Env) (cfg judge.Config, ok bool, err error) {
	return judge.Resolve(JudgeSettings(pol), getenv)
}

// JudgeSettings converts the policy's judge section to the judge's settings.
func JudgeSettings(pol *rules.Policy) judge.Settings {
	if pol == nil {
		return judge.Settings{}
	}
	jc := pol.Judge
	s := judge.Settings{
		URL: jc.URL, Model: jc.Model, Timeout: time.Duration(jc.Timeout), MaxTokens: jc.MaxTokens,
		Prompts: jc.Prompts, Fallback: jc.Fallback, Disabled: jc.Disabled,
	}
	if len(jc.CacheTTL) > 0 {
		s.CacheTTL = make(map[hook.Decision]time.Duration, len(jc.CacheTTL))
		for d, v := range jc.CacheTTL {
			s.CacheTTL[d] = time.Duration(v)
		}
	}
	return s
}

// JudgeInput reduces an escalated event to what the model may see: every
// string taken from the event is redacted with the policy's secret detectors
// and truncated, and the rule pass's findings and the policy's instructions
// are added. It runs in the hook process, so secrets never leave it.
func JudgeInput(ev *hook.Event, out *rules.Outcome, pol *rules.Policy, intent string) judge.Input {
	redact := func(s string) string { return s }
	if pol != nil {
		redact = pol.Redact
		if ev != nil {
			redact = pol.RedactorFor(ev.Command, ev.Prompt, ev.Content, string(ev.ToolInput), intent)
		}
	}
	return judgeInput(ev, out, pol, intent, redact)
}

func judgeInput(ev *hook.Event, out *rules.Outcome, pol *rules.Policy, intent string, redact func(string) string) judge.Input {
	// Cut before redacting (the detectors' cost grows with the input), with
	// room to spare so a secret near the final cut is still seen whole.
	clean := func(s string, max int) string { return text.Truncate(redact(text.Truncate(s, 2*max+256)), max) }
	if ev == nil {
		ev = &hook.Event{}
	}
	in := judge.Input{
		EventName:      ev.Name,
		Kind:           ev.Kind,
		ConversationID: ev.ConversationID,
		Command:        cleanCommand(ev.Command, pol, redact),
		Server:         clean(ev.Server, judge.MaxPath),
		Tool:           clean(ev.Tool, judge.MaxPath),
		FilePath:       clean(ev.FilePath, judge.MaxPath),
		Cwd:            clean(ev.Cwd, judge.MaxPath),
		Intent:         clean(intent, judge.MaxIntent),
	}
	switch ev.Kind {
	case hook.KindWrite, hook.KindRead, hook.KindSubagent, hook.KindPrompt:
		in.Content = clean(ev.Content+ev.Prompt, judge.MaxContent)
	}
	if len(ev.ToolInput) > 0 {
		in.ToolInput = clean(hook.CanonicalJSON(ev.ToolInput), judge.MaxToolInput)
	}
	for i, r := range ev.WorkspaceRoots {
		if i == 8 {
			break
		}
		in.WorkspaceRoots = append(in.WorkspaceRoots, clean(r, judge.MaxPath))
	}
	if out != nil {
		in.Flagged = out.Flagged
		for i, e := range out.Escalations {
			if i == judge.MaxEscalations {
				break
			}
			in.Escalations = append(in.Escalations, clean(e, judge.MaxEscalation))
		}
		if ev.Kind == hook.KindShell {
			for i, p := range out.Parts {
				if i == judge.MaxParts {
					break
				}
				part := prompts.Part{Text: clean(p.Text, judge.MaxPart), Decision: string(p.Decision), Rules: p.RuleIDs}
				if p.Effects != nil {
					effects := p.Effects.String()
					if v := p.EffectsVerdict; v != nil && len(v.Reasons) > 0 {
						effects += "\nnot allowed by the rules because: " + strings.Join(v.Reasons, "; ")
					}
					part.Effects = clean(effects, judge.MaxPart)
				}
				in.Parts = append(in.Parts, part)
			}
		}
	}
	gatherContext(ev, &in, pol, clean)
	if pol != nil {
		in.PolicyHash = pol.Hash
		instr := strings.TrimSpace(pol.Judge.Instructions)
		if pol.Judge.ProjectInstructions && strings.TrimSpace(pol.Judge.ProjectText) != "" {
			instr = strings.TrimSpace(instr + "\n\nInstructions from the project's policy:\n" + strings.TrimSpace(pol.Judge.ProjectText))
		}
		in.Instructions = text.Truncate(instr, judge.MaxInstruction)
		in.Fallback = pol.Judge.Fallback
		if len(pol.Judge.CacheTTL) > 0 {
			in.TTL = JudgeSettings(pol).CacheTTL
		}
	}
	return in
}

// enforce applies what no verdict may break, whoever gave it (the model, the
// cache, the judge server): only allow, ask and deny leave the pipeline, and
// an event flagged as addressing the reviewer is never allowed. This is the
// only place it is enforced.
func enforce(res hook.Result, flagged bool) hook.Result {
	switch res.Decision {
	case hook.Allow, hook.Ask, hook.Deny:
	default:
		res.Decision = hook.Deny
	}
	if flagged && res.Decision == hook.Allow {
		res.Decision = hook.Ask
		res.Reason = "the event contains text addressed to the reviewer, so it cannot be allowed automatically: " + res.Reason
	}
	return res
}

// cleanCommand redacts and cuts a shell command for the judge: through the
// policy's RedactCommand, which also catches secrets the shell would assemble
// from quoted or escaped pieces.
func cleanCommand(cmd string, pol *rules.Policy, redact func(string) string) string {
	if cmd == "" {
		return ""
	}
	cut := judge.MaxCommand
	cmd = text.Truncate(cmd, 2*cut+256)
	if pol != nil {
		return text.Truncate(redact(pol.RedactCommand(cmd)), cut)
	}
	return text.Truncate(redact(cmd), cut)
}
