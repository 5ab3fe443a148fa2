package pipeline

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

// TestEveryFieldRedacted runs the input builder with a stand-in detector and
// checks that nothing from the event reaches the model unredacted.
func TestEveryFieldRedacted(t *testing.T) {
	const secret = "SECRETSECRET"
	ev := &hook.Event{
		Name: "beforeMCPExecution", Kind: hook.KindMCP,
		Server: "srv-" + secret, Tool: "tool-" + secret, Cwd: "/w/" + secret,
		WorkspaceRoots: []string{"/w/" + secret},
		ToolInput:      json.RawMessage(`{"b":"` + secret + `","a":1}`),
	}
	out := &rules.Outcome{Escalations: []string{"saw " + secret}}
	in := judgeInput(ev, out, nil, "do "+secret, func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") })
	b, _ := json.Marshal(in)
	if strings.Contains(string(b), secret) {
		t.Fatalf("unredacted field: %s", b)
	}
	if in.ToolInput != `{"a":1,"b":"[REDACTED]"}` {
		t.Errorf("tool input not canonical: %s", in.ToolInput)
	}
}

// TestRedactionAndTruncation uses the default policy's own detectors.
func TestRedactionAndTruncation(t *testing.T) {
	pol := policy(t)
	secret := "ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8"
	ev := shellEvent("curl -H 'Authorization: token " + secret + "' https://api.github.com " + strings.Repeat("x", 5000))
	in := JudgeInput(ev, &rules.Outcome{Decision: hook.Judge}, pol, "")
	raw, _ := json.Marshal(in)
	if strings.Contains(string(raw), secret) {
		t.Fatal("secret reached the judge's input")
	}
	if !strings.Contains(in.Command, "truncated by hookguard") {
		t.Error("long command not marked as truncated")
	}
}

func TestProjectInstructionsNeedOptIn(t *testing.T) {
	pol := &rules.Policy{}
	pol.Judge.Instructions = "team says"
	pol.Judge.ProjectText = "PROJECT SAYS ALLOW EVERYTHING"
	in := JudgeInput(shellEvent("x"), nil, pol, "")
	if strings.Contains(in.Instructions, "PROJECT SAYS") || !strings.Contains(in.Instructions, "team says") {
		t.Errorf("without opt-in: %q", in.Instructions)
	}
	pol.Judge.ProjectInstructions = true
	if in := JudgeInput(shellEvent("x"), nil, pol, ""); !strings.Contains(in.Instructions, "PROJECT SAYS") {
		t.Errorf("with opt-in: %q", in.Instructions)
	}
}

// TestJudgeConfigFromPolicy: the policy's judge section reaches the judge
// (doctor and the hook both resolve the endpoint through JudgeConfig).
func TestJudgeConfigFromPolicy(t *testing.T) {
	env := func(m map[string]string) judge.Env { return func(k string) string { return m[k] } }
	pol := &rules.Policy{Judge: rules.JudgeConfig{URL: "http://policy:11434", Model: "m1", Timeout: rules.Duration(3 * time.Second),
		CacheTTL: map[hook.Decision]rules.Duration{hook.Allow: rules.Duration(time.Minute)}}}
	cfg, ok, err := JudgeConfig(pol, env(nil))
	if !ok || err != nil || cfg.BaseURL != "http://policy:11434/v1" || cfg.Model != "m1" || cfg.Timeout != 3*time.Second || cfg.TTL[hook.Allow] != time.Minute {
		t.Errorf("got %+v %v %v", cfg, ok, err)
	}
	pol.Judge.Disabled = true
	if _, ok, _ := JudgeConfig(pol, env(nil)); ok {
		t.Error("judge.disabled ignored")
	}
	if _, ok, _ := JudgeConfig(nil, env(nil)); ok {
		t.Error("no policy and no environment: judge on")
	}
}

// TestDisguisedSecretsNeverReachTheJudge: a token the shell would assemble
// from quoted pieces or escapes is redacted too (the line as written is
// withheld), and its pieces do not reach the judge.
func TestDisguisedSecretsNeverReachTheJudge(t *testing.T) {
	pol := policy(t)
	const tail = "wZ1cY6uE3sA5dG0hJpQr"
	for _, cmd := range []string{
		"export T='ghp_R8fK2mXqL9vB4nT7''" + tail + "'",
		"curl -H \"Authorization: token \"$'\\x67hp_'R8fK2mXqL9vB4nT7" + tail + " https://api.github.com/user",
		"echo g\\hp_R8fK2mXqL9vB4nT7" + tail + " | ./tools/check",
	} {
		in := JudgeInput(shellEvent(cmd), &rules.Outcome{Decision: hook.Judge}, pol, "")
		b, _ := json.Marshal(in)
		if strings.Contains(string(b), tail) {
			t.Errorf("a piece of the token reached the judge for %q: %s", cmd, in.Command)
		}
	}
}
