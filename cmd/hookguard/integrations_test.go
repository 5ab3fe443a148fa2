package main

// End-to-end integration tests: the hookguard binary (built once by TestMain)
// is run the way Cursor and Claude Code run it: installed into throwaway
// projects and homes, fed real-shaped events through the installed command,
// doctor run on broken setups, and the audit log read back with
// `hookguard logs`. They need the real binary because the installed hook
// command is what is under test.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// sandbox is a throwaway home with one git project in it.
type sandbox struct {
	t    *testing.T
	home string
	root string
	env  []string
	// bin is the hookguard binary run; "" is the one TestMain built.
	bin string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	home := t.TempDir()
	root := filepath.Join(home, "work", "shop")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "HOOKGUARD_JUDGE=off", "LANG=C"}
	return &sandbox{t: t, home: home, root: root, env: env}
}

func (s *sandbox) setenv(kv ...string) { s.env = append(s.env, kv...) }

// run runs hookguard in the project with args and stdin.
func (s *sandbox) run(stdin string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	bin := hookguardBin
	if s.bin != "" {
		bin = s.bin
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.root
	cmd.Env = s.env
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return so.String(), se.String(), ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return so.String(), se.String(), 0
}

// shell runs a hook command line through /bin/sh from dir, as the agents do.
func (s *sandbox) shell(dir, command, stdin string, extraEnv ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return so.String(), se.String(), ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return so.String(), se.String(), 0
}

func (s *sandbox) write(rel, content string) string {
	s.t.Helper()
	p := filepath.Join(s.root, rel)
	if strings.HasPrefix(rel, "~/") {
		p = filepath.Join(s.home, rel[2:])
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s *sandbox) read(p string) string {
	s.t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

func repoFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// check is one doctor finding as --json prints it.
type check struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

func (s *sandbox) doctor(args ...string) (checks []check, ok bool, code int) {
	s.t.Helper()
	out, errOut, code := s.run("", append([]string{"doctor", "--json"}, args...)...)
	var rep struct {
		OK     bool    `json:"ok"`
		Checks []check `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		s.t.Fatalf("doctor --json: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
	if rep.OK != (code == 0) {
		s.t.Errorf("doctor ok=%v but exit %d", rep.OK, code)
	}
	return rep.Checks, rep.OK, code
}

func find(checks []check, id, status, msg string) bool {
	for _, c := range checks {
		if c.ID == id && c.Status == status && strings.Contains(c.Message, msg) {
			return true
		}
	}
	return false
}

func dump(checks []check) string {
	var b strings.Builder
	for _, c := range checks {
		fmt.Fprintf(&b, "  %s %s %s: %s\n", c.Status, c.ID, c.Subject, c.Message)
	}
	return b.String()
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return b.String()
}

func TestInstallIntoEmptyProject(t *testing.T) {
	s := newSandbox(t)
	// Run from a subdirectory: the project root is found from .git.
	sub := filepath.Join(s.root, "src", "pkg")
	os.MkdirAll(sub, 0o755)
	s.root = sub
	out, errOut, code := s.run("", "install")
	s.root = filepath.Dir(filepath.Dir(sub))
	if code != 0 {
		t.Fatalf("install: exit %d: %s", code, errOut)
	}
	hooksPath := filepath.Join(s.root, ".cursor", "hooks.json")
	if !strings.Contains(out, "created "+hooksPath) {
		t.Errorf("install output: %s", out)
	}
	content := s.read(hooksPath)
	for _, ev := range []string{"beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt", "preToolUse"} {
		if !strings.Contains(content, `"`+ev+`"`) {
			t.Errorf("no %s in %s", ev, content)
		}
	}
	if !strings.Contains(content, `"command": "`+hookguardBin+` hook --dialect cursor"`) || !strings.Contains(content, `"failClosed": true`) {
		t.Errorf("entry lacks absolute command or failClosed:\n%s", content)
	}
	// Idempotent.
	out, _, code = s.run("", "install")
	if code != 0 || !strings.Contains(out, "already installed") {
		t.Errorf("second install: exit %d: %s", code, out)
	}
	if s.read(hooksPath) != content {
		t.Error("second install changed the file")
	}
	matches, _ := filepath.Glob(hooksPath + ".bak.*")
	if len(matches) != 0 {
		t.Errorf("backups of a file that did not exist: %v", matches)
	}
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "hooks", "ok", "hookguard on beforeShellExecution") {
		t.Errorf("doctor does not report the install:\n%s", dump(checks))
	}
	if find(checks, "installed", "fail", "") {
		t.Errorf("doctor says not installed:\n%s", dump(checks))
	}
	// Uninstall removes a file that held only hookguard.
	out, _, code = s.run("", "uninstall")
	if code != 0 || !strings.Contains(out, "removed") {
		t.Errorf("uninstall: exit %d: %s", code, out)
	}
	if _, err := os.Stat(hooksPath); !os.IsNotExist(err) {
		t.Errorf("hooks.json still there after uninstall: %v", err)
	}
	checks, ok, code := s.doctor("--no-selftest")
	if ok || code != 1 || !find(checks, "installed", "fail", "not installed") {
		t.Errorf("doctor after uninstall: ok=%v code=%d\n%s", ok, code, dump(checks))
	}
}

func TestInstallIntoHandWrittenHooks(t *testing.T) {
	s := newSandbox(t)
	orig := repoFile(t, "internal/install/testdata/cursor/user-authored.json")
	hooksPath := s.write(".cursor/hooks.json", orig)

	out, _, code := s.run("", "install", "--dry-run")
	if code != 0 || !strings.HasPrefix(out, "--- "+hooksPath) || !strings.Contains(out, "+                \"command\": \""+hookguardBin+" hook --dialect cursor\",") {
		t.Errorf("dry run: exit %d:\n%s", code, out)
	}
	if s.read(hooksPath) != orig {
		t.Fatal("--dry-run wrote the file")
	}
	out, errOut, code := s.run("", "install")
	if code != 0 {
		t.Fatalf("install: %d %s", code, errOut)
	}
	_, saved, ok := strings.Cut(out, "previous file saved as ")
	saved, _, _ = strings.Cut(saved, "\n")
	if !ok || !strings.Contains(saved, ".bak.") || strings.HasPrefix(saved, filepath.Dir(hooksPath)) {
		t.Errorf("backup not reported, or saved inside .cursor/: %s", out)
	}
	if s.read(saved) != orig {
		t.Fatalf("backup %s missing or wrong", saved)
	}
	if beside, _ := filepath.Glob(hooksPath + ".bak.*"); len(beside) != 0 {
		t.Errorf("a backup was left in .cursor/: %v", beside)
	}
	got := s.read(hooksPath)
	for _, keep := range []string{`"python3 .cursor/hooks/guard_shell.py"`, `"loop_limit": 3`, `"$schema"`, `"x-team"`, `"reviewed": 2.50`, `"matcher": "curl|wget"`} {
		if !strings.Contains(got, keep) {
			t.Errorf("install lost %s", keep)
		}
	}
	// hookguard first, the user's two shell hooks after it, in their order.
	i0 := strings.Index(got, hookguardBin)
	i1 := strings.Index(got, "guard_shell.py")
	i2 := strings.Index(got, "./hooks/audit.sh")
	if !(i0 >= 0 && i0 < i1 && i1 < i2) {
		t.Errorf("order wrong (hookguard %d, guard_shell %d, audit %d)", i0, i1, i2)
	}
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "hooks", "warn", "other hook(s) after hookguard") {
		t.Errorf("doctor does not flag the second hook:\n%s", dump(checks))
	}
	if _, _, code := s.run("", "uninstall"); code != 0 {
		t.Fatal("uninstall failed")
	}
	if compactJSON(t, s.read(hooksPath)) != compactJSON(t, orig) {
		t.Errorf("uninstall did not restore the hand-written file:\n%s", s.read(hooksPath))
	}
}

func TestInstallIntoBrokenHooks(t *testing.T) {
	s := newSandbox(t)
	broken := repoFile(t, "internal/install/testdata/cursor/broken.json")
	hooksPath := s.write(".cursor/hooks.json", broken)
	for _, args := range [][]string{{"install"}, {"install", "--dry-run"}, {"uninstall"}} {
		out, errOut, code := s.run("", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		want := "hookguard: " + hooksPath + " is not valid JSON at line 6, column 5"
		if !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line starting %q", args, errOut, want)
		}
		if out != "" {
			t.Errorf("%v: stdout %q", args, out)
		}
	}
	if s.read(hooksPath) != broken {
		t.Fatal("a broken file was modified")
	}
	if m, _ := filepath.Glob(hooksPath + "*"); len(m) != 1 {
		t.Errorf("files left next to the broken one: %v", m)
	}
	checks, ok, code := s.doctor("--no-selftest")
	if ok || code != 1 || !find(checks, "hooks", "fail", "not valid JSON at line 6, column 5") {
		t.Errorf("doctor on a broken file: ok=%v code=%d\n%s", ok, code, dump(checks))
	}
}

func TestInstallClaude(t *testing.T) {
	s := newSandbox(t)
	orig := repoFile(t, "internal/install/testdata/claude/other-settings.json")
	settings := s.write(".claude/settings.json", orig)
	if _, errOut, code := s.run("", "install", "--claude"); code != 0 {
		t.Fatalf("install --claude: %s", errOut)
	}
	got := s.read(settings)
	for _, want := range []string{`"matcher": "Bash"`, `"matcher": "Read|Grep|Glob|LS|NotebookRead"`, `"matcher": "WebFetch|WebSearch"`, `"matcher": "Task"`, `"matcher": "Write|Edit|MultiEdit|NotebookEdit"`, `"matcher": "mcp__.*"`, `"UserPromptSubmit"`,
		hookguardBin + ` hook --dialect claude`, `"permissions"`, `"Read(./.env)"`, `"includeCoAuthoredBy": false`, `check-style.sh`} {
		if !strings.Contains(got, want) {
			t.Errorf("settings lack %s", want)
		}
	}
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "hooks", "ok", "hookguard on PreToolUse, UserPromptSubmit") {
		t.Errorf("doctor:\n%s", dump(checks))
	}
	if _, _, code := s.run("", "uninstall", "--claude"); code != 0 {
		t.Fatal("uninstall --claude failed")
	}
	if compactJSON(t, s.read(settings)) != compactJSON(t, orig) {
		t.Errorf("uninstall did not restore the settings:\n%s", s.read(settings))
	}
}

func TestInstallUserScope(t *testing.T) {
	s := newSandbox(t)
	if _, errOut, code := s.run("", "install", "--user", "--tools"); code != 0 {
		t.Fatalf("install --user: %s", errOut)
	}
	got := s.read(filepath.Join(s.home, ".cursor", "hooks.json"))
	if !strings.Contains(got, `"preToolUse"`) {
		t.Error("--tools did not add preToolUse")
	}
	if _, err := os.Stat(filepath.Join(s.root, ".cursor")); err == nil {
		t.Error("--user wrote into the project")
	}
	// Running from the home directory without --user is refused.
	s.root = s.home
	if _, errOut, code := s.run("", "install"); code != 1 || !strings.Contains(errOut, "pass --user") {
		t.Errorf("install from home: exit %d, %s", code, errOut)
	}
}

// labeledEvent is one line of testdata/integration-events.jsonl.
type labeledEvent struct {
	ID      string          `json:"id"`
	Dialect string          `json:"dialect"`
	Shape   string          `json:"shape"`
	Expect  string          `json:"expect"`
	Event   json.RawMessage `json:"event"`
	Fixture string          `json:"fixture"`
}

func loadEvents(t *testing.T) []labeledEvent {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "integration-events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labeledEvent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e labeledEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("events.jsonl: %v", err)
		}
		out = append(out, e)
	}
	return out
}

// decisionOf checks an answer's shape and returns its decision.
func decisionOf(t *testing.T, shape, out string) string {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&m); err != nil || dec.More() {
		t.Fatalf("stdout is not exactly one JSON object: %q", out)
	}
	switch shape {
	case "permission", "read":
		p, _ := m["permission"].(string)
		if p != "allow" && p != "deny" && p != "ask" {
			t.Fatalf("permission %q in %s", p, out)
		}
		if shape == "read" && (p == "ask" || m["user_message"] != nil) {
			t.Errorf("beforeReadFile takes only allow/deny and no messages: %s", out)
		}
		return p
	case "prompt":
		c, ok := m["continue"].(bool)
		if !ok {
			t.Fatalf("no continue in %s", out)
		}
		if c {
			return "allow"
		}
		return "deny"
	case "empty":
		if len(m) != 0 {
			t.Errorf("observe event answered %s", out)
		}
		return "allow"
	case "claude-tool":
		h, ok := m["hookSpecificOutput"].(map[string]any)
		if !ok {
			if len(m) != 0 {
				t.Fatalf("unexpected Claude answer %s", out)
			}
			return "allow"
		}
		if h["hookEventName"] != "PreToolUse" {
			t.Errorf("hookEventName %v", h["hookEventName"])
		}
		d, _ := h["permissionDecision"].(string)
		if d != "deny" && d != "ask" {
			t.Fatalf("permissionDecision %q", d)
		}
		if r, _ := h["permissionDecisionReason"].(string); r == "" {
			t.Errorf("no permissionDecisionReason in %s", out)
		}
		return d
	case "claude-prompt":
		if len(m) == 0 {
			return "allow"
		}
		if m["decision"] != "block" || m["reason"] == "" {
			t.Fatalf("bad prompt block %s", out)
		}
		return "deny"
	}
	t.Fatalf("unknown shape %q", shape)
	return ""
}

func TestEventsThroughInstalledCommands(t *testing.T) {
	s := newSandbox(t)
	for _, args := range [][]string{{"install"}, {"install", "--claude"}} {
		if _, errOut, code := s.run("", args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	// Take the commands from the installed files, as the agents do.
	commandIn := func(path, key string) string {
		var cfg struct {
			Hooks map[string][]map[string]any `json:"hooks"`
		}
		if err := json.Unmarshal([]byte(s.read(path)), &cfg); err != nil {
			t.Fatal(err)
		}
		entry := cfg.Hooks[key][0]
		if inner, ok := entry["hooks"].([]any); ok {
			entry = inner[0].(map[string]any)
		}
		return entry["command"].(string)
	}
	cursorCmd := commandIn(filepath.Join(s.root, ".cursor", "hooks.json"), "beforeShellExecution")
	claudeCmd := commandIn(filepath.Join(s.root, ".claude", "settings.json"), "PreToolUse")

	denied := 0
	audited := 0
	for _, le := range loadEvents(t) {
		t.Run(le.ID, func(t *testing.T) {
			payload := string(le.Event)
			if le.Fixture != "" {
				payload = repoFile(t, "internal/hook/testdata/claude/"+le.Fixture)
				payload = strings.ReplaceAll(payload, "/home/dev/shop", s.root)
				payload = strings.ReplaceAll(payload, "/home/dev", s.home)
			}
			payload = strings.ReplaceAll(strings.ReplaceAll(payload, "{{root}}", s.root), "{{home}}", s.home)
			command, dir := cursorCmd, s.root // Cursor runs project hooks from the project root
			if le.Dialect == "claude" {
				command = claudeCmd
			}
			out, errOut, code := s.shell(dir, command, payload, "CLAUDE_PROJECT_DIR="+s.root)
			if code != 0 {
				t.Fatalf("exit %d; stderr %s; stdout %s", code, errOut, out)
			}
			got := decisionOf(t, le.Shape, out)
			if le.Expect != "any" && got != le.Expect {
				t.Errorf("decision %s, want %s (%s)", got, le.Expect, out)
			}
			if le.Shape != "empty" {
				audited++
			}
			if got == "deny" {
				denied++
			}
		})
	}

	// The audit log has one line per decision and none of the secrets.
	auditPath := filepath.Join(s.home, ".local", "state", "hookguard", "audit.jsonl")
	data := s.read(auditPath)
	if n := strings.Count(data, "\n"); n != audited {
		t.Errorf("%d audit lines, want %d", n, audited)
	}
	for _, secret := range []string{"TOPSECRETPROMPT", "PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAA", "flaky checkout"} {
		if strings.Contains(data, secret) {
			t.Errorf("audit log holds %q", secret)
		}
	}
	if strings.Contains(data, "ghp_0123456789abcdefghijklmnopqrstuvwxyz") {
		t.Errorf("audit log holds an unredacted GitHub token")
	}
	if fi, err := os.Stat(auditPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode: %v %v", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(filepath.Dir(auditPath)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode: %v %v", fi.Mode().Perm(), err)
	}

	// hookguard logs reads it back.
	out, errOut, code := s.run("", "logs")
	if code != 0 || !strings.HasPrefix(out, "TIME") || strings.Count(out, "\n") != audited+1 {
		t.Errorf("logs: exit %d, %d lines (want %d)\n%s%s", code, strings.Count(out, "\n"), audited+1, out, errOut)
	}
	out, _, _ = s.run("", "logs", "--json", "--denied", "--since", "1h")
	if n := strings.Count(out, "\n"); n != denied {
		t.Errorf("logs --denied: %d lines, want %d\n%s", n, denied, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" && !strings.Contains(line, `"decision":"deny"`) {
			t.Errorf("logs --denied printed %s", line)
		}
	}
	out, _, _ = s.run("", "logs", "-n", "2", "--json")
	if strings.Count(out, "\n") != 2 {
		t.Errorf("logs -n 2 printed %q", out)
	}
	if _, errOut, code := s.run("", "logs", "--since", "yesterday-ish"); code != 1 || !strings.HasPrefix(errOut, "hookguard: --since") {
		t.Errorf("bad --since: %d %q", code, errOut)
	}
	// HOOKGUARD_AUDIT=off writes nothing.
	before := s.read(auditPath)
	s.shell(s.root, cursorCmd, `{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/"}`, "HOOKGUARD_AUDIT=off")
	if s.read(auditPath) != before {
		t.Error("HOOKGUARD_AUDIT=off still audited")
	}
}

func TestDoctorSelfTest(t *testing.T) {
	s := newSandbox(t)
	if _, errOut, code := s.run("", "install"); code != 0 {
		t.Fatal(errOut)
	}
	checks, _, _ := s.doctor()
	if !find(checks, "selftest", "ok", "deny in") {
		t.Errorf("self-test did not see the deny sample denied:\n%s", dump(checks))
	}
	if find(checks, "selftest", "fail", "") {
		t.Errorf("self-test failed:\n%s", dump(checks))
	}
}

func TestDoctorOnBrokenSetups(t *testing.T) {
	entry := func(cmd string, extra string) string {
		return `{"version": 1, "hooks": {` +
			`"beforeShellExecution": [{"command": "` + cmd + `"` + extra + `}],` +
			`"beforeMCPExecution": [{"command": "` + cmd + `", "failClosed": true, "timeout": 15}],` +
			`"beforeReadFile": [{"command": "` + cmd + `", "failClosed": true, "timeout": 15}],` +
			`"beforeSubmitPrompt": [{"command": "` + cmd + `", "failClosed": true, "timeout": 15}]}}`
	}
	good := hookguardBin + " hook --dialect cursor"
	cases := []struct {
		name   string
		setup  func(s *sandbox)
		id     string
		status string
		msg    string
	}{
		{"not installed", func(s *sandbox) {}, "installed", "fail", "not installed"},
		{"broken json", func(s *sandbox) { s.write(".cursor/hooks.json", "{\n  \"version\": 1,\n  \"hooks\": {,}\n}\n") }, "hooks", "fail", "line 3, column 13"},
		{"wrong version", func(s *sandbox) {
			s.write(".cursor/hooks.json", strings.Replace(entry(good, `, "failClosed": true, "timeout": 15`), `"version": 1`, `"version": 2`, 1))
		}, "hooks", "fail", `"version" is 2; Cursor loads only version 1`},
		{"missing version", func(s *sandbox) {
			s.write(".cursor/hooks.json", strings.Replace(entry(good, `, "failClosed": true, "timeout": 15`), `"version": 1, `, ``, 1))
		}, "hooks", "fail", `"version" is missing`},
		{"fail open", func(s *sandbox) { s.write(".cursor/hooks.json", entry(good, `, "timeout": 15`)) }, "hooks", "fail", "failClosed is not true"},
		{"legacy fail_closed", func(s *sandbox) { s.write(".cursor/hooks.json", entry(good, `, "fail_closed": true, "timeout": 15`)) }, "hooks", "fail", "failClosed is not true"},
		{"short timeout", func(s *sandbox) { s.write(".cursor/hooks.json", entry(good, `, "failClosed": true, "timeout": 3`)) }, "hooks", "warn", "timeout 3s leaves the judge no room"},
		{"missing events", func(s *sandbox) {
			s.write(".cursor/hooks.json", `{"version":1,"hooks":{"beforeShellExecution":[{"command":"`+good+`","failClosed":true,"timeout":15}]}}`)
		}, "hooks", "fail", "missing for beforeMCPExecution, beforeReadFile, beforeSubmitPrompt"},
		{"hookguard second", func(s *sandbox) {
			s.write(".cursor/hooks.json", strings.Replace(entry(good, `, "failClosed": true, "timeout": 15`), `"beforeShellExecution": [`, `"beforeShellExecution": [{"command": "./first.sh"},`, 1))
		}, "hooks", "fail", "hookguard is hook 2 of 2"},
		{"misspelled event", func(s *sandbox) {
			s.write(".cursor/hooks.json", strings.Replace(entry(good, `, "failClosed": true, "timeout": 15`), `"beforeShellExecution"`, `"BeforeShellExecution"`, 1))
		}, "hooks", "warn", `did you mean`},
		{"binary gone", func(s *sandbox) {
			s.write(".cursor/hooks.json", entry("/nonexistent/bin/hookguard hook", `, "failClosed": true, "timeout": 15`))
		}, "binary", "fail", "does not exist"},
		{"relative binary", func(s *sandbox) {
			s.write(".cursor/hooks.json", entry("./bin/hookguard hook", `, "failClosed": true, "timeout": 15`))
		}, "binary", "fail", "does not exist"},
		{"claude missing matcher", func(s *sandbox) {
			s.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+hookguardBin+` hook --dialect claude"}]}]}}`)
		}, "hooks", "fail", "missing for PreToolUse Read, PreToolUse Write, PreToolUse Edit, PreToolUse mcp__*, UserPromptSubmit"},
		{"state dir open to others", func(s *sandbox) {
			s.run("", "install")
			dir := filepath.Join(s.home, ".local", "state", "hookguard")
			os.MkdirAll(dir, 0o755)
			os.Chmod(dir, 0o755)
		}, "state", "fail", "mode 0755"},
		{"audit log open to others", func(s *sandbox) {
			s.run("", "install")
			dir := filepath.Join(s.home, ".local", "state", "hookguard")
			os.MkdirAll(dir, 0o700)
			os.WriteFile(filepath.Join(dir, "audit.jsonl"), nil, 0o644)
			os.Chmod(filepath.Join(dir, "audit.jsonl"), 0o644)
		}, "state", "fail", "lets other users read the audit log"},
		{"judge unreachable", func(s *sandbox) {
			s.run("", "install")
			l, _ := net.Listen("tcp", "127.0.0.1:0")
			addr := l.Addr().String()
			l.Close()
			s.env = removeEnv(s.env, "HOOKGUARD_JUDGE")
			s.setenv("HOOKGUARD_JUDGE_URL=http://" + addr + "/v1")
		}, "judge", "fail", "does not answer"},
		{"judge key rejected", func(s *sandbox) {
			s.run("", "install")
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
			s.t.Cleanup(srv.Close)
			s.env = removeEnv(s.env, "HOOKGUARD_JUDGE")
			s.setenv("OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_API_KEY=sk-wrong")
		}, "judge", "fail", "rejects the key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			c.setup(s)
			checks, ok, code := s.doctor("--no-selftest")
			if !find(checks, c.id, c.status, c.msg) {
				t.Errorf("no %s %s %q:\n%s", c.status, c.id, c.msg, dump(checks))
			}
			if c.status == "fail" && (ok || code != 1) {
				t.Errorf("doctor ok=%v exit %d with a failure", ok, code)
			}
			for _, ch := range checks {
				if (ch.Status == "fail" || ch.Status == "warn") && ch.Fix == "" {
					t.Errorf("%s %s has no fix: %s", ch.Status, ch.ID, ch.Message)
				}
			}
		})
	}
}

func TestDoctorJudgeAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"judge-small","object":"model"}]}`)
	}))
	defer srv.Close()
	s := newSandbox(t)
	s.env = removeEnv(s.env, "HOOKGUARD_JUDGE")
	s.setenv("HOOKGUARD_JUDGE_URL="+srv.URL+"/v1", "HOOKGUARD_JUDGE_KEY=sk-test", "HOOKGUARD_JUDGE_MODEL=judge-small")
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "judge", "ok", "answers in") {
		t.Errorf("judge check:\n%s", dump(checks))
	}
}

func removeEnv(env []string, key string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestDoctorAndHookAgreeOnPolicyEndpoint: with the endpoint only in the
// policy (judge.url without /v1, judge.model), doctor checks that endpoint
// and the hook judges with it; neither looks only at the environment.
func TestDoctorAndHookAgreeOnPolicyEndpoint(t *testing.T) {
	var chats atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"policy-model","object":"model"}]}`)
		case "/v1/chat/completions":
			chats.Add(1)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"decision\":\"deny\",\"risk\":\"high\",\"reason\":\"policy endpoint says no\"}"},"finish_reason":"stop"}]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	s := newSandbox(t)
	s.env = removeEnv(s.env, "HOOKGUARD_JUDGE")
	s.write("~/.config/hookguard/policy.yaml", "version: 1\njudge:\n  url: "+srv.URL+"\n  model: policy-model\n")
	s.setenv("HOOKGUARD_STATE_DIR="+filepath.Join(s.home, "state"), "HOOKGUARD_JUDGE_SERVER=off")
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "judge", "ok", "answers in") {
		t.Fatalf("doctor does not check the policy's endpoint:\n%s", dump(checks))
	}
	ev := `{"hook_event_name":"beforeShellExecution","command":"./tools/sync-fixtures.sh --all","cwd":"` + s.root + `","workspace_roots":["` + s.root + `"]}`
	out, _, code := s.run(ev, "hook")
	if code != 0 || !strings.Contains(out, `"deny"`) || !strings.Contains(out, "policy endpoint says no") || chats.Load() != 1 {
		t.Fatalf("the hook did not judge with the policy's endpoint: code %d, %d calls, %s", code, chats.Load(), out)
	}
}

// TestInstallUnderAnyName: a binary renamed, moved or reached through a link
// still recognizes its own entries: doctor finds them, reinstalling from a
// new path replaces the entry instead of adding a second, and uninstall
// removes it. Cursor project and user scope, and Claude Code.
func TestInstallUnderAnyName(t *testing.T) {
	for _, scope := range [][]string{nil, {"--user"}, {"--claude"}} {
		t.Run(strings.Join(append([]string{"scope"}, scope...), " "), func(t *testing.T) {
			s := newSandbox(t)
			bin1 := filepath.Join(s.home, "bin", "hookguard-3cf09ac")
			bin2 := filepath.Join(s.home, "opt", "hg", "guard")
			link := filepath.Join(s.home, "bin", "hg-current")
			for _, p := range []string{bin1, bin2} {
				os.MkdirAll(filepath.Dir(p), 0o755)
				data, err := os.ReadFile(hookguardBin)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(bin2, link); err != nil {
				t.Fatal(err)
			}
			run := func(bin string, args ...string) (string, int) {
				cmd := exec.Command(bin, append(args, scope...)...)
				cmd.Dir, cmd.Env = s.root, s.env
				out, err := cmd.CombinedOutput()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
				return string(out), code
			}
			if out, code := run(bin1, "install"); code != 0 {
				t.Fatalf("install: %d %s", code, out)
			}
			if out, code := run(bin1, "install"); code != 0 || !strings.Contains(out, "already installed") {
				t.Errorf("the renamed binary does not recognize its own entries: %d %s", code, out)
			}
			// Upgrade: the first binary is gone, a new one at another path (through a link) reinstalls.
			os.Remove(bin1)
			if out, code := run(link, "install"); code != 0 {
				t.Fatalf("reinstall: %d %s", code, out)
			}
			files := []string{filepath.Join(s.root, ".cursor", "hooks.json"), filepath.Join(s.home, ".cursor", "hooks.json"),
				filepath.Join(s.root, ".claude", "settings.json")}
			total := 0
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				total += strings.Count(string(data), " hook --dialect ")
				if strings.Contains(string(data), "hookguard-3cf09ac") {
					t.Errorf("%s still runs the removed binary:\n%s", f, data)
				}
			}
			if total == 0 {
				t.Fatal("no entries after reinstall")
			}
			// One entry per event: not a second set beside the first.
			if out, code := run(link, "install"); code != 0 || !strings.Contains(out, "already installed") {
				t.Errorf("after reinstall: %d %s", code, out)
			}
			if out, code := run(link, "uninstall"); code != 0 || !strings.Contains(out, "removed") {
				t.Errorf("uninstall: %d %s", code, out)
			}
			for _, f := range files {
				if data, err := os.ReadFile(f); err == nil && strings.Contains(string(data), " hook --dialect ") {
					t.Errorf("%s keeps an entry after uninstall:\n%s", f, data)
				}
			}
		})
	}
}

// TestCursorInstallGuardsEdits: a default Cursor install registers
// preToolUse, so the agent's own edit of .cursor/hooks.json is denied; an
// ask there (which Cursor would not enforce) becomes the configured answer;
// doctor warns about an install without it.
func TestCursorInstallGuardsEdits(t *testing.T) {
	s := newSandbox(t)
	if _, errOut, code := s.run("", "install"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	hooksPath := filepath.Join(s.root, ".cursor", "hooks.json")
	var cfg struct {
		Hooks map[string][]struct{ Command string } `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(s.read(hooksPath)), &cfg); err != nil || len(cfg.Hooks["preToolUse"]) == 0 {
		t.Fatalf("no preToolUse entry: %v\n%s", err, s.read(hooksPath))
	}
	command := cfg.Hooks["preToolUse"][0].Command
	edit := func(path string) map[string]any {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "preToolUse", "tool_name": "Write", "cwd": s.root,
			"workspace_roots": []string{s.root}, "tool_input": map[string]any{"file_path": path, "contents": "{}"}})
		out, errOut, code := s.shell(s.root, command, string(ev))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", command, code, errOut)
		}
		var ans map[string]any
		json.Unmarshal([]byte(out), &ans)
		return ans
	}
	if ans := edit(hooksPath); ans["permission"] != "deny" {
		t.Errorf("an edit of .cursor/hooks.json: %v", ans)
	}
	if ans := edit(filepath.Join(s.root, "CLAUDE.md")); ans["permission"] == "ask" {
		t.Errorf("an ask reached Cursor's preToolUse, which does not enforce it: %v", ans)
	}
	if ans := edit(filepath.Join(s.root, "src", "app.ts")); ans["permission"] != "allow" {
		t.Errorf("an ordinary edit: %v", ans)
	}
	// The terminal and MCP tools also reach hookguard through
	// beforeShellExecution and beforeMCPExecution, which can ask: there an
	// ask on preToolUse stays an ask (Cursor lets it through to the event
	// that asks) instead of blocking every command the user should be asked
	// about.
	call := func(tool string, input map[string]any) map[string]any {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "preToolUse", "tool_name": tool, "cwd": s.root,
			"workspace_roots": []string{s.root}, "tool_input": input})
		out, errOut, code := s.shell(s.root, command, string(ev))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", command, code, errOut)
		}
		var ans map[string]any
		json.Unmarshal([]byte(out), &ans)
		return ans
	}
	if ans := call("Shell", map[string]any{"command": "some-unknown-tool --sync"}); ans["permission"] != "ask" {
		t.Errorf("an unknown command on preToolUse: %v (want ask, left to beforeShellExecution)", ans)
	}
	if ans := call("MCP:create_pull_request", map[string]any{"repo": "web", "title": "Bump deps"}); ans["permission"] == "deny" {
		t.Errorf("an MCP call the rules cannot decide, on preToolUse: %v", ans)
	}
	s2 := newSandbox(t)
	if _, errOut, code := s2.run("", "install", "--no-tools"); code != 0 {
		t.Fatalf("install --no-tools: %s", errOut)
	}
	if checks, _, _ := s2.doctor("--no-selftest"); !find(checks, "hooks", "warn", "preToolUse is not guarded") {
		t.Errorf("doctor does not warn about unguarded edits:\n%s", dump(checks))
	}
}
