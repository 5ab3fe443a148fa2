package hook

import "fmt"

// Decision is what hookguard answers for an action. Judge is internal: it means
// "the rules could not decide, ask the model" and never reaches the wire.
type Decision string

// The decisions, from most permissive to strictest.
const (
	Allow Decision = "allow"
	Judge Decision = "judge"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// ParseDecision validates a decision name as written in policies, labels and
// model answers. judge is accepted only when allowJudge is set.
func ParseDecision(s string, allowJudge bool) (Decision, error) {
	switch d := Decision(s); d {
	case Allow, Ask, Deny:
		return d, nil
	case Judge:
		if allowJudge {
			return d, nil
		}
	}
	return "", fmt.Errorf("unknown decision %q", s)
}

// Severity orders decisions: deny > ask > judge > allow. The empty decision
// ranks below allow (nothing decided yet); unknown decisions rank as deny so
// that a bug can never relax an answer.
func (d Decision) Severity() int {
	switch d {
	case "":
		return -1 // no decision yet
	case Allow:
		return 0
	case Judge:
		return 1
	case Ask:
		return 2
	default:
		return 3
	}
}

// Stricter returns the stricter of two decisions.
func Stricter(a, b Decision) Decision {
	if b.Severity() > a.Severity() {
		return b
	}
	return a
}

// Source says which stage of the pipeline reached a decision.
type Source string

// The stages that can decide.
const (
	SourceRule     Source = "rule"     // a policy rule fired
	SourceDefault  Source = "default"  // no rule fired; the event kind's default applied
	SourceJudge    Source = "judge"    // the model answered
	SourceCache    Source = "cache"    // a cached model verdict was reused
	SourceFallback Source = "fallback" // the judge failed; the configured fallback applied
	SourceUnjudged Source = "unjudged" // escalation with no judge configured
	SourceError    Source = "error"    // hookguard could not read or process the event
)

// Result is the outcome of one event, with enough context to explain it.
type Result struct {
	Decision Decision `json:"decision"`
	Source   Source   `json:"source"`
	// RuleID names the rule that decided, when Source is rule.
	RuleID string `json:"rule_id,omitempty"`
	// Reason is the human-readable why; it never contains a secret.
	Reason string `json:"reason,omitempty"`
	// Risk is the model's risk grade, when the judge answered.
	Risk string `json:"risk,omitempty"`
	// Advice tells the agent what to do instead, for denies.
	Advice string `json:"advice,omitempty"`
	// PromptVersion is the hash of the judge prompt used, when the judge ran.
	PromptVersion string `json:"prompt_version,omitempty"`
	// Escalation lists why the rules sent the event to the judge.
	Escalation []string `json:"escalation,omitempty"`
	// RuleTimeouts names the rules a pattern of which ran out of time on
	// this event (the event was then not understood by the rules).
	RuleTimeouts []string `json:"rule_timeouts,omitempty"`
	// JudgeTokens and JudgeLatencyMS describe the model call, when one was made.
	JudgeTokens    int     `json:"judge_tokens,omitempty"`
	JudgeLatencyMS float64 `json:"judge_latency_ms,omitempty"`
}
