package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyFile copies an executable.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// runProgram runs bin with env and stdin.
func runProgram(t *testing.T, bin string, env []string, stdin []byte, args ...string) runOut {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s %v: %v", bin, args, err)
	}
	return runOut{out.String(), errb.String(), code}
}

// residentSockets are the resident evaluators' sockets in a state dir.
func residentSockets(state string) []string {
	m, _ := filepath.Glob(filepath.Join(state, "resident-*.sock"))
	return m
}

// serverOp sends one request line to a socket and returns the answer line.
func serverOp(t *testing.T, sock, line string) map[string]any {
	t.Helper()
	conn, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, line+"\n"); err != nil {
		t.Fatal(err)
	}
	b, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestThinClientAnswersLikeHookguard checks the contract of
// cmd/hookguard-hook: with no resident evaluator it runs hookguard itself
// (which starts one), then the evaluator answers; every answer (stdout, exit
// code) is the one `hookguard hook` gives, and an upgraded hookguard binary
// retires the old evaluator without a wrong answer in between.
func TestThinClientAnswersLikeHookguard(t *testing.T) {
	dir := t.TempDir()
	full, client := filepath.Join(dir, "hookguard"), filepath.Join(dir, "hookguard-hook")
	copyFile(t, hookguardBin, full)
	copyFile(t, hookClientBin, client)
	env := append(isolatedEnv(t), "HOOKGUARD_SERVE_IDLE=5s")
	state := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOOKGUARD_STATE_DIR="); ok {
			state = v
		}
	}
	t.Cleanup(func() {
		// An evaluator the last round started may still be coming up: look
		// for a second, stopping each one found.
		for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			for _, sock := range residentSockets(state) {
				conn, err := net.DialTimeout("unix", sock, time.Second)
				if err == nil {
					_, _ = io.WriteString(conn, `{"op":"shutdown"}`+"\n")
					_, _ = bufio.NewReader(conn).ReadBytes('\n')
					conn.Close()
				}
			}
		}
	})
	event := func(fields map[string]any) []byte {
		ev := map[string]any{"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
			"workspace_roots": []string{"/home/dev/project"}, "cwd": "/home/dev/project"}
		for k, v := range fields {
			ev[k] = v
		}
		b, _ := json.Marshal(ev)
		return b
	}
	events := map[string][]byte{
		"routine shell": event(map[string]any{"hook_event_name": "beforeShellExecution", "command": "git status"}),
		"dangerous shell": event(map[string]any{"hook_event_name": "beforeShellExecution",
			"command": "rm -rf ~/"}),
		"prompt":      event(map[string]any{"hook_event_name": "beforeSubmitPrompt", "prompt": "rename the handler"}),
		"secret read": event(map[string]any{"hook_event_name": "beforeReadFile", "file_path": "/home/dev/.ssh/id_rsa"}),
		"not json":    []byte("this is not an event"),
	}
	want := map[string]runOut{}
	for name, data := range events {
		want[name] = runProgram(t, full, env, data, "hook", "--dialect", "cursor")
	}
	if want["dangerous shell"].code != 0 || !strings.Contains(want["dangerous shell"].stdout, `"deny"`) || want["not json"].code != 2 {
		t.Fatalf("hookguard's own answers are not what this test expects: %+v", want)
	}
	check := func(round string) {
		t.Helper()
		for name, data := range events {
			got := runProgram(t, client, env, data, "hook", "--dialect", "cursor")
			if got.stdout != want[name].stdout || got.code != want[name].code {
				t.Errorf("%s, %s: thin client gave %q (exit %d), hookguard %q (exit %d)", round, name, got.stdout, got.code,
					want[name].stdout, want[name].code)
			}
		}
	}
	// No evaluator yet: hookguard answers, and starts one.
	check("no evaluator")
	deadline := time.Now().Add(10 * time.Second)
	for len(residentSockets(state)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no resident evaluator was started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	check("evaluator running")
	socks := residentSockets(state)
	if len(socks) != 1 {
		t.Fatalf("resident sockets: %v", socks)
	}
	st := serverOp(t, socks[0], `{"op":"status"}`)
	status, _ := st["status"].(map[string]any)
	if n, _ := status["requests"].(float64); n < float64(len(events)) {
		t.Fatalf("the evaluator answered %v requests, want at least %d: %v", status["requests"], len(events), st)
	}
	// Other commands go to hookguard itself.
	if got := runProgram(t, client, env, nil, "version"); got.code != 0 || got.stdout == "" {
		t.Errorf("hookguard-hook version: %+v", got)
	}
	// An upgraded hookguard (another modification time) retires the
	// evaluator; the answer comes from the new binary meanwhile.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(full, later, later); err != nil {
		t.Fatal(err)
	}
	check("after an upgrade")
}

// TestThinClientFailsClosed: without hookguard beside it, the thin client
// denies with exit 2 and says why, never allows.
func TestThinClientFailsClosed(t *testing.T) {
	dir := t.TempDir()
	client := filepath.Join(dir, "hookguard-hook")
	copyFile(t, hookClientBin, client)
	got := runProgram(t, client, isolatedEnv(t), []byte(`{"hook_event_name":"beforeShellExecution","command":"ls"}`), "hook", "--dialect", "cursor")
	var ans map[string]any
	if err := json.Unmarshal([]byte(got.stdout), &ans); err != nil || ans["permission"] != "deny" || got.code != 2 ||
		!strings.Contains(got.stderr, "hookguard") {
		t.Fatalf("got %+v", got)
	}
}

// TestInstallPrefersTheThinClient: with hookguard-hook beside hookguard,
// install writes the thin client into the hooks (unless --no-client), doctor
// counts it as this hookguard's, and uninstall removes it.
func TestInstallPrefersTheThinClient(t *testing.T) {
	s := newSandbox(t)
	dir := t.TempDir()
	s.bin = filepath.Join(dir, "hookguard")
	copyFile(t, hookguardBin, s.bin)
	copyFile(t, hookClientBin, filepath.Join(dir, "hookguard-hook"))
	hooks := filepath.Join(s.root, ".cursor", "hooks.json")
	out, errOut, code := s.run("", "install")
	if code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	if got := s.read(hooks); !strings.Contains(got, filepath.Join(dir, "hookguard-hook")+" hook --dialect cursor") ||
		!strings.Contains(out, "thin client") {
		t.Fatalf("install did not use the thin client:\n%s\n%s", out, got)
	}
	checks, _, _ := s.doctor("--no-selftest")
	if !find(checks, "hooks", "ok", "hookguard on") {
		t.Errorf("doctor does not find the entries:\n%s", dump(checks))
	}
	for _, c := range checks {
		if c.ID == "binary" && c.Status != "ok" {
			t.Errorf("doctor on the thin client: %+v", c)
		}
	}
	// --no-client replaces the entries with hookguard itself, not beside them.
	if _, errOut, code := s.run("", "install", "--no-client"); code != 0 {
		t.Fatalf("install --no-client: %s", errOut)
	}
	got := s.read(hooks)
	if strings.Contains(got, "hookguard-hook") || !strings.Contains(got, s.bin+" hook --dialect cursor") {
		t.Fatalf("install --no-client:\n%s", got)
	}
	if _, errOut, code := s.run("", "install"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	if _, errOut, code := s.run("", "uninstall"); code != 0 {
		t.Fatalf("uninstall: %s", errOut)
	}
	if _, err := os.Stat(hooks); err == nil && strings.Contains(s.read(hooks), "hookguard") {
		t.Fatalf("uninstall left entries:\n%s", s.read(hooks))
	}
}

// TestThinClientRelativeSettings: a policy path relative to the hook's
// working directory is read by hookguard itself there, never by an
// evaluator running elsewhere.
func TestThinClientRelativeSettings(t *testing.T) {
	dir := t.TempDir()
	full, client := filepath.Join(dir, "hookguard"), filepath.Join(dir, "hookguard-hook")
	copyFile(t, hookguardBin, full)
	copyFile(t, hookClientBin, client)
	work := t.TempDir()
	policy := "version: 1\nrules:\n  - id: no-make\n    kinds: [shell]\n    decision: deny\n    programs: [make]\n    reason: no make here\n"
	if err := os.WriteFile(filepath.Join(work, "p.yaml"), []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(isolatedEnv(t), "HOOKGUARD_POLICY=p.yaml")
	ev := []byte(`{"hook_event_name":"beforeShellExecution","command":"make test","cwd":"/w","workspace_roots":["/w"]}`)
	run := func(bin string) runOut {
		cmd := exec.Command(bin, "hook", "--dialect", "cursor")
		cmd.Dir, cmd.Env, cmd.Stdin = work, env, bytes.NewReader(ev)
		var out bytes.Buffer
		cmd.Stdout = &out
		_ = cmd.Run()
		return runOut{stdout: out.String(), code: cmd.ProcessState.ExitCode()}
	}
	want, got := run(full), run(client)
	if !strings.Contains(want.stdout, "no make here") || got != want {
		t.Fatalf("thin client %+v, hookguard %+v", got, want)
	}
	if socks := residentSockets(filepath.Join(strings.TrimPrefix(env[len(env)-2], "HOOKGUARD_STATE_DIR="))); len(socks) != 0 {
		t.Fatalf("an evaluator was started: %v", socks)
	}
}
