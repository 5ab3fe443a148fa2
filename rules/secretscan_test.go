package rules

import (
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
)

// TestSecretScanLimit: a prompt or a file made of the words secret rules wake
// on is not understood (the secret scan stops at its limit): it goes to the
// judge with the limit named, and its text is withheld from the model.
func TestSecretScanLimit(t *testing.T) {
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for sb.Len() < 3<<20 {
		sb.WriteString("token password key secret AKIA ghp_ session private key ")
	}
	dense := sb.String()
	ctx := Context{Cwd: "/w", WorkspaceRoots: []string{"/w"}, Home: "/h"}
	for _, ev := range []*hook.Event{
		{Kind: hook.KindPrompt, Prompt: dense},
		{Kind: hook.KindRead, FilePath: "/w/notes.txt", Content: dense},
	} {
		o := p.Evaluate(ev, ctx)
		if o.Decision != hook.Judge || !strings.Contains(strings.Join(o.Escalations, "; "), "secret scan") {
			t.Errorf("%s: %s %v", ev.Kind, o.Decision, o.Escalations)
		}
	}
	if red := p.Redact(dense); !strings.HasPrefix(red, "[REDACTED: text withheld") {
		t.Errorf("redacted: %.100q", red)
	}
}
