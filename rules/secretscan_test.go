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
	// A scan that stops early still leaves the rest of the event checked:
	// the file's path, the prompt's attachments.
	for _, ev := range []*hook.Event{
		{Kind: hook.KindPrompt, Prompt: dense, Attachments: []string{"/w/.env"}},
		{Kind: hook.KindRead, FilePath: "/h/.ssh/id_rsa", Content: dense},
	} {
		if o := p.Evaluate(ev, ctx); o.Decision != hook.Deny {
			t.Errorf("%s with a secret path: %s %v", ev.Kind, o.Decision, o.Escalations)
		}
	}
	// Megabytes of ordinary text are read whole by every rule.
	var prose strings.Builder
	for prose.Len() < 2<<20 {
		prose.WriteString("Please refactor the order handler and update its tests to match. ")
	}
	for _, c := range []struct {
		ev   *hook.Event
		want hook.Decision
	}{
		{&hook.Event{Kind: hook.KindPrompt, Prompt: prose.String()}, hook.Allow},
		{&hook.Event{Kind: hook.KindPrompt, Prompt: prose.String(), Attachments: []string{"/w/.env"}}, hook.Deny},
		{&hook.Event{Kind: hook.KindPrompt, Prompt: prose.String() + "\nmaps key AIzaSyD4kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK"}, hook.Deny},
		{&hook.Event{Kind: hook.KindRead, FilePath: "/w/notes.txt", Content: prose.String()}, hook.Allow},
	} {
		if o := p.Evaluate(c.ev, ctx); o.Decision != c.want {
			t.Errorf("%s of %d bytes: %s, want %s %v", c.ev.Kind, len(c.ev.Prompt)+len(c.ev.Content), o.Decision, c.want, o.Escalations)
		}
	}
	if red := p.Redact(dense); !strings.HasPrefix(red, "[REDACTED: text withheld") {
		t.Errorf("redacted: %.100q", red)
	}
}

// TestMCPValuesLimit: a tool input with more values, or more bytes, than the
// rules analyze is not understood (judge, the limit named), without being
// decoded; the count ignores commas inside strings.
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
	big := `{"path": "/w/out.txt", "content": "` + strings.Repeat("line of text\\n", MaxMCPInputBytes/13) + `"}`
	o = p.Evaluate(&hook.Event{Kind: hook.KindMCP, Server: "filesystem", Tool: "write_file", ToolInput: []byte(big)}, ctx)
	if o.Decision != hook.Judge || !strings.Contains(strings.Join(o.Escalations, "; "), "too large") {
		t.Errorf("large input: %s %v", o.Decision, o.Escalations)
	}
	prose := `{"body": "` + strings.Repeat("a, b, c, ", MaxMCPValues) + `"}`
	if n := jsonFanout([]byte(prose)); n != 1 {
		t.Errorf("commas inside a string counted: %d", n)
	}
}
