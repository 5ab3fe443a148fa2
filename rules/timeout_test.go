package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
)

// TestTimeoutIsVisible: a pattern that runs out of time is named in the
// outcome with how it was counted (a deny rule as matching).
func TestTimeoutIsVisible(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "policy.yaml")
	pol := "version: 1\nrules:\n  - id: slow-deny\n    kinds: [shell]\n    decision: deny\n    target: line\n    patterns: ['^(a+)+b$']\n    reason: catastrophic backtracking\n"
	if err := os.WriteFile(user, []byte(pol), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(LoadOptions{UserPath: user, NoProject: true})
	if err != nil {
		t.Fatal(err)
	}
	o := p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: strings.Repeat("a", 64)}, Context{Cwd: "/w", WorkspaceRoots: []string{"/w"}})
	if len(o.Timeouts) != 1 || o.Timeouts[0] != "slow-deny" || o.Decision != hook.Deny {
		t.Fatalf("timeouts %v, decision %s", o.Timeouts, o.Decision)
	}
	found := false
	for _, esc := range o.Escalations {
		if strings.Contains(esc, "slow-deny ran out of time") && strings.Contains(esc, "counted as matching") {
			found = true
		}
	}
	if !found {
		t.Fatalf("escalations %v", o.Escalations)
	}
}
