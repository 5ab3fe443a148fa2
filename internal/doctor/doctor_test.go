package doctor

import (
	"path/filepath"
	"testing"

	"github.com/hookguard/hookguard/internal/install"
)

func TestMatcherMatches(t *testing.T) {
	cases := []struct {
		matcher, tool string
		want          bool
	}{
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"Write|Edit", "Edit", true},
		{"Write|Edit", "MultiEdit", false},
		{"mcp__.*", "mcp__github__create_issue", true},
		{"mcp__.*", "Read", false},
		{".*", "Read", true},
		{"(", "(", true}, // not a regexp: compared literally
	}
	for _, c := range cases {
		if got := matcherMatches(c.matcher, c.tool); got != c.want {
			t.Errorf("matcherMatches(%q, %q) = %v", c.matcher, c.tool, got)
		}
	}
}

func TestAnswerDecision(t *testing.T) {
	cases := []struct {
		dialect, out, want string
		err                bool
	}{
		{"cursor", `{"permission":"deny","user_message":"x"}` + "\n", "deny", false},
		{"cursor", `{"permission":"allow"}`, "allow", false},
		{"cursor", `{"permission":""}`, "", true},
		{"cursor", `{}`, "", true},
		{"cursor", `{"permission":"allow"}{"permission":"deny"}`, "", true},
		{"cursor", "debug output\n{\"permission\":\"allow\"}", "", true},
		{"cursor", "", "", true},
		{"claude", `{}`, "allow", false},
		{"claude", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "deny", false},
		{"claude", `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "ask", false},
	}
	for _, c := range cases {
		got, err := answerDecision(c.dialect, []byte(c.out))
		if (err != nil) != c.err || got != c.want {
			t.Errorf("answerDecision(%s, %q) = %q, %v", c.dialect, c.out, got, err)
		}
	}
}

func TestResolveProgram(t *testing.T) {
	project := install.CursorTarget(install.Project, "/p", "/h")
	user := install.CursorTarget(install.User, "/p", "/h")
	claude := install.ClaudeTarget(install.Project, "/p", "/h")
	cases := []struct {
		t       install.Target
		command string
		want    string
	}{
		{project, "/usr/local/bin/hookguard hook", "/usr/local/bin/hookguard"},
		{project, "./bin/hookguard hook", "/p/bin/hookguard"},
		{user, "./bin/hookguard hook", "/h/.cursor/bin/hookguard"},
		{user, "~/go/bin/hookguard hook", "/h/go/bin/hookguard"},
		{claude, "$CLAUDE_PROJECT_DIR/bin/hookguard hook", "/p/bin/hookguard"},
		{project, "'/Users/Jane Doe/hookguard' hook", "/Users/Jane Doe/hookguard"},
	}
	for _, c := range cases {
		got, err := resolveProgram(c.t, c.command, "/h")
		if err != nil || got != filepath.FromSlash(c.want) {
			t.Errorf("resolveProgram(%s, %q) = %q, %v; want %q", c.t.Name(), c.command, got, err, c.want)
		}
	}
	if _, err := resolveProgram(project, "surely-not-a-program-xyz hook", "/h"); err == nil {
		t.Error("a bare name not on PATH resolved")
	}
}
