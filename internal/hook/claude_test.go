package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// claudeFixture reads one Claude Code payload from testdata/claude.
func claudeFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "claude", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeClaudeFixtures(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	cases := []struct {
		file string
		want Event
	}{
		{"pretooluse-bash.json", Event{Name: "PreToolUse", Kind: KindShell, ToolName: "Bash", Command: "rm -rf / --no-preserve-root", Cwd: "/home/dev/shop"}},
		{"pretooluse-bash-routine.json", Event{Name: "PreToolUse", Kind: KindShell, ToolName: "Bash", Command: "git status --short", Cwd: "/home/dev/shop"}},
		{"pretooluse-read.json", Event{Name: "PreToolUse", Kind: KindRead, ToolName: "Read", FilePath: "/home/dev/.ssh/id_ed25519"}},
		{"pretooluse-write.json", Event{Name: "PreToolUse", Kind: KindWrite, ToolName: "Write", FilePath: "/home/dev/shop/src/config.ts", Content: "export const apiBase = \"https://api.example.com\";\n"}},
		{"pretooluse-edit.json", Event{Name: "PreToolUse", Kind: KindWrite, ToolName: "Edit", FilePath: "/home/dev/shop/.cursor/hooks.json", Content: `"failClosed": false`}},
		{"pretooluse-mcp.json", Event{Name: "PreToolUse", Kind: KindMCP, ToolName: "mcp__github__create_issue", Server: "github", Tool: "create_issue"}},
		{"userpromptsubmit.json", Event{Name: "UserPromptSubmit", Kind: KindPrompt, Prompt: "Refactor the checkout module and run the tests"}},
		{"posttooluse.json", Event{Name: "PostToolUse", Kind: KindObserve}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data := claudeFixture(t, c.file)
			// Detected from the payload and forced with --dialect claude alike.
			for _, dialect := range []Dialect{"", Claude} {
				ev, err := Decode(data, dialect)
				if err != nil {
					t.Fatal(err)
				}
				if ev.Dialect != Claude {
					t.Errorf("dialect %q, want claude", ev.Dialect)
				}
				if ev.ConversationID != "9f1c2a7e-4b1d-4c55-9a8e-2f0d6c1b7e31" {
					t.Errorf("conversation id %q (session_id not mapped)", ev.ConversationID)
				}
				if len(ev.WorkspaceRoots) != 1 || ev.WorkspaceRoots[0] != "/home/dev/shop" {
					t.Errorf("workspace roots %v, want the cwd", ev.WorkspaceRoots)
				}
				w := c.want
				if ev.Name != w.Name || ev.Kind != w.Kind || ev.ToolName != w.ToolName || ev.Command != w.Command ||
					ev.FilePath != w.FilePath || ev.Server != w.Server || ev.Tool != w.Tool || ev.Prompt != w.Prompt ||
					(w.Content != "" && ev.Content != w.Content) || (w.Cwd != "" && ev.Cwd != w.Cwd) {
					t.Errorf("decoded %+v\nwant    %+v", *ev, w)
				}
			}
		})
	}
}

func TestClaudeProjectDirIsWorkspace(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "/home/dev/shop-root")
	ev, err := Decode(claudeFixture(t, "pretooluse-bash.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.WorkspaceRoots) != 1 || ev.WorkspaceRoots[0] != "/home/dev/shop-root" {
		t.Errorf("workspace roots %v, want CLAUDE_PROJECT_DIR", ev.WorkspaceRoots)
	}
}

func TestRespondClaude(t *testing.T) {
	msgs := Messages{User: "hookguard rule x blocked this command: no.", Agent: "hookguard rule x blocked this command: no. Do not retry."}
	cases := []struct {
		file     string
		decision Decision
		want     string
	}{
		{"pretooluse-bash.json", Deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookguard rule x blocked this command: no. Do not retry."}}`},
		{"pretooluse-bash.json", Ask, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"hookguard rule x blocked this command: no. Do not retry."}}`},
		{"pretooluse-bash.json", Judge, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"hookguard rule x blocked this command: no. Do not retry."}}`},
		// Allow defers to Claude Code's own permission flow.
		{"pretooluse-bash-routine.json", Allow, `{}`},
		{"pretooluse-read.json", Deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookguard rule x blocked this command: no. Do not retry."}}`},
		{"pretooluse-mcp.json", Allow, `{}`},
		{"userpromptsubmit.json", Allow, `{}`},
		{"userpromptsubmit.json", Deny, `{"decision":"block","reason":"hookguard rule x blocked this command: no."}`},
		{"userpromptsubmit.json", Ask, `{"decision":"block","reason":"hookguard rule x blocked this command: no."}`},
		{"posttooluse.json", Deny, `{}`},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+string(c.decision), func(t *testing.T) {
			ev, err := Decode(claudeFixture(t, c.file), Claude)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Respond(ev, c.decision, msgs).Write(&b); err != nil {
				t.Fatal(err)
			}
			if got := bytes.TrimSpace(b.Bytes()); string(got) != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if bytes.Count(b.Bytes(), []byte("\n")) != 1 || !json.Valid(b.Bytes()) {
				t.Errorf("not exactly one JSON line: %q", b.String())
			}
		})
	}
}

func TestRespondClaudePermissionRequest(t *testing.T) {
	ev, err := Decode([]byte(`{"session_id":"s","cwd":"/w","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_ = Respond(ev, Deny, Messages{User: "no"}).Write(&b)
	want := `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"},"hookEventName":"PermissionRequest"}}`
	if got := string(bytes.TrimSpace(b.Bytes())); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	b.Reset()
	_ = Respond(ev, Ask, Messages{User: "hm"}).Write(&b)
	if got := string(bytes.TrimSpace(b.Bytes())); got != `{}` {
		t.Errorf("ask on PermissionRequest: %s, want {}", got)
	}
}
