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

// TestMCPValuesLimit: a tool input with more values than the rules analyze is
// not understood (judge, the limit named), without being decoded; the count
// ignores commas inside strings.
func TestMCPValuesLimit(t *testing.T) {
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(`{"items": [`)
	for i := 0; i <= MaxMCPValues; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"x"`)
	}
	sb.WriteString(`]}`)
	ctx := Context{Cwd: "/w", WorkspaceRoots: []string{"/w"}, Home: "/h"}
	o := p.Evaluate(&hook.Event{Kind: hook.KindMCP, Server: "x", Tool: "get_items", ToolInput: []byte(sb.String())}, ctx)
	if o.Decision != hook.Judge || !strings.Contains(strings.Join(o.Escalations, "; "), "too many values") {
		t.Errorf("wide input: %s %v", o.Decision, o.Escalations)
	}
	prose := `{"body": "` + strings.Repeat("a, b, c, ", MaxMCPValues) + `"}`
	if n := jsonFanout([]byte(prose)); n != 1 {
		t.Errorf("commas inside a string counted: %d", n)
	}
}
