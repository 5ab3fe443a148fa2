package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// contextSandbox is a workspace with scripts, a package.json, a Makefile and
// a git checkout, and a fake model that records what it is sent.
type contextSandbox struct {
	t        *testing.T
	root     string
	env      []string
	mu       sync.Mutex
	requests []string
}

const contextSecret = "ghp_Q4x9kLm2TpZ7vB3wN8sY1bH6cJ0dF5gA9eR2"

func newContextSandbox(t *testing.T) *contextSandbox {
	s := &contextSandbox{t: t, root: t.TempDir()}
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, string(body))
		s.mu.Unlock()
		verdict(w, "allow")
	})
	s.env = judgeEnv(t, m.url)
	s.write("scripts/migrate.sh", "#!/bin/sh\nset -e\n# migrate the staging schema\npsql \"$STAGING_URL\" -f db/migrations/0042_add_index.sql\ncurl -s -H 'Authorization: token "+contextSecret+"' https://api.github.com/repos/acme/shop/deployments\n")
	s.write("package.json", `{"name":"shop","scripts":{"fixtures":"node tools/fixtures.js --env staging && npm run reindex","reindex":"node tools/reindex.js --all","clean":"rm -rf ~/"}}`)
	s.write("Makefile", "build:\n\tgo build ./...\n\nbundle: build\n\t./tools/upload-artifacts --channel beta\n")
	s.write(".git/HEAD", "ref: refs/heads/feat/search\n")
	s.write(".git/config", "[remote \"origin\"]\n\turl = git@github.com:acme/shop.git\n")
	return s
}

func (s *contextSandbox) write(rel, content string) string {
	p := filepath.Join(s.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s *contextSandbox) shell(command, transcript string) map[string]any {
	s.t.Helper()
	ev := map[string]any{"hook_event_name": "beforeShellExecution", "command": command, "cwd": s.root,
		"workspace_roots": []string{s.root}, "conversation_id": "c-" + filepath.Base(transcript)}
	if transcript != "" {
		ev["transcript_path"] = transcript
	}
	b, _ := json.Marshal(ev)
	return runHookProcess(s.t, s.env, string(b)).resp
}

// last returns the last request the model received, decoded to its text.
func (s *contextSandbox) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return ""
	}
	var req struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	json.Unmarshal([]byte(s.requests[len(s.requests)-1]), &req)
	var parts []string
	for _, m := range req.Messages {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

func (s *contextSandbox) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// wantCalls fails the test unless the model has been asked want times in all.
func (s *contextSandbox) wantCalls(want int, what string) {
	s.t.Helper()
	if n := s.calls(); n != want {
		s.t.Fatalf("%s: %d model calls, want %d", what, n, want)
	}
}

// TestJudgeSeesWhatTheCommandRuns: the model receives the workspace script's
// body (its secret redacted), the package.json scripts npm run chains to, the
// make recipe, the git branch and remote, and the user's requests read from
// the transcript in Claude Code's and Cursor's formats.
func TestJudgeSeesWhatTheCommandRuns(t *testing.T) {
	s := newContextSandbox(t)
	claude := s.write("transcripts/claude.jsonl", strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"set up the repo"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"run the staging migration please"}]}}`,
	}, "\n")+"\n")
	cursor := s.write("transcripts/cursor.txt", "user:\n<user_query>\nreseed the staging search data\n</user_query>\n\nassistant:\nOn it.\n")

	s.shell("./scripts/migrate.sh --env staging", claude)
	got := s.last()
	for _, want := range []string{"psql \"$STAGING_URL\" -f db/migrations/0042_add_index.sql", "run the staging migration please",
		"git branch: feat/search", "origin remote host: github.com"} {
		if !strings.Contains(got, want) {
			t.Errorf("migrate.sh: the model was not sent %q", want)
		}
	}
	if strings.Contains(got, "set up the repo\n\nrun") == false && !strings.Contains(got, "set up the repo") {
		t.Errorf("the earlier request is missing from the intent")
	}
	if strings.Contains(got, "tool_result") || strings.Contains(got, contextSecret) || strings.Contains(got, contextSecret[:12]) {
		t.Errorf("a tool result or the script's secret reached the model")
	}

	s.shell("npm run fixtures", cursor)
	got = s.last()
	for _, want := range []string{"node tools/fixtures.js --env staging && npm run reindex", "node tools/reindex.js --all", "reseed the staging search data"} {
		if !strings.Contains(got, want) {
			t.Errorf("npm run fixtures: the model was not sent %q", want)
		}
	}

	s.shell("make bundle", "")
	if got = s.last(); !strings.Contains(got, "./tools/upload-artifacts --channel beta") {
		t.Errorf("make bundle: the recipe was not sent")
	}
}

// TestEditedScriptMissesTheCache: the same command is judged again when the
// script it runs changed, and served from the cache when it did not.
func TestEditedScriptMissesTheCache(t *testing.T) {
	s := newContextSandbox(t)
	s.write("scripts/sync.sh", "#!/bin/sh\n./tools/fetch-fixtures --source staging\n")
	s.shell("./scripts/sync.sh", "")
	s.shell("./scripts/sync.sh", "")
	s.wantCalls(1, "two identical commands over an unchanged script")
	s.write("scripts/sync.sh", "#!/bin/sh\n./tools/fetch-fixtures --source production\n")
	s.shell("./scripts/sync.sh", "")
	s.wantCalls(2, "after the script changed")
}

// TestDangerInsideAScriptIsDenied: a clear danger in the script a command
// runs is denied by the rules, naming the file and the line, without asking
// the model.
func TestDangerInsideAScriptIsDenied(t *testing.T) {
	s := newContextSandbox(t)
	s.write("scripts/cleanup.sh", "#!/bin/sh\necho cleaning\n"+"rm -rf "+"\"$HOME\"\n")
	resp := s.shell("./scripts/cleanup.sh", "")
	msg, _ := resp["user_message"].(string)
	if resp["permission"] != "deny" || !strings.Contains(msg, "cleanup.sh") || !strings.Contains(msg, "line 3") {
		t.Fatalf("answer %v", resp)
	}
	s.wantCalls(0, "a clear danger in a script")
	// A package.json script, even behind a command the rules allow.
	resp = s.shell("npm run clean", "")
	if msg, _ := resp["user_message"].(string); resp["permission"] != "deny" || !strings.Contains(msg, "package.json script clean") {
		t.Fatalf("npm run clean: %v", resp)
	}
}

// TestUnderstoodScriptIsAllowedWithoutTheModel: a workspace shell script
// whose every line the rules allow is run without asking the model; one
// line the rules do not understand sends the command to the model; an edit
// that adds such a line is seen at once.
func TestUnderstoodScriptIsAllowedWithoutTheModel(t *testing.T) {
	s := newContextSandbox(t)
	s.write("scripts/gen-mocks.sh", "#!/bin/sh\nset -e\n# regenerate mocks\ngo generate ./internal/...\ngofmt -w internal\necho done\n")
	for _, cmd := range []string{"./scripts/gen-mocks.sh", "bash scripts/gen-mocks.sh", "chmod +x scripts/gen-mocks.sh && ./scripts/gen-mocks.sh"} {
		if resp := s.shell(cmd, ""); resp["permission"] != "allow" {
			t.Errorf("%s: answer %v, want allow", cmd, resp)
		}
	}
	s.wantCalls(0, "a script the rules understand")
	s.write("scripts/gen-mocks.sh", "#!/bin/sh\nset -e\ngo generate ./internal/...\n./tools/publish-mocks --channel beta\n")
	s.shell("./scripts/gen-mocks.sh", "")
	s.wantCalls(1, "after an edit that adds an unknown program")
}
