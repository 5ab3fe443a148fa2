package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/audit"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules"
)

// TestTimedOutAllowRuleIsNotUnderstood: an allow rule whose pattern runs
// out of time buys nothing; with no judge the event gets the unjudged
// fallback, and the result and its audit line name the rule.
func TestTimedOutAllowRuleIsNotUnderstood(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "policy.yaml")
	pol := "version: 1\nrules:\n  - id: slow-allow\n    kinds: [shell]\n    decision: allow\n    target: line\n    patterns: ['^(a+)+b$']\n    reason: catastrophic backtracking\n"
	if err := os.WriteFile(user, []byte(pol), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Load(rules.LoadOptions{UserPath: user, NoProject: true})
	if err != nil {
		t.Fatal(err)
	}
	pl := &Pipeline{Policy: p, Home: "/home/dev"}
	ev := shellEvent(strings.Repeat("a", 64))
	d := pl.Decide(context.Background(), ev)
	if d.Result.Decision == hook.Allow {
		t.Fatalf("a timed-out allow rule allowed the event: %+v", d.Result)
	}
	if len(d.Result.RuleTimeouts) != 1 || d.Result.RuleTimeouts[0] != "slow-allow" {
		t.Fatalf("rule timeouts %v", d.Result.RuleTimeouts)
	}
	if !strings.Contains(d.Result.Reason, "slow-allow ran out of time") {
		t.Errorf("reason %q does not name the timeout", d.Result.Reason)
	}
	rec := audit.NewRecord(ev, d.Result, time.Millisecond, time.Now(), nil)
	if len(rec.RuleTimeouts) != 1 || rec.RuleTimeouts[0] != "slow-allow" {
		t.Errorf("audit record timeouts %v", rec.RuleTimeouts)
	}
}
