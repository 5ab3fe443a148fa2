package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/testutil"
)

// hkEnv isolates an in-process run: a private home and XDG dirs, no user
// policy, no judge, no audit log. It returns the home and a workspace root.
func hkEnv(t *testing.T) (home, root string) {
	t.Helper()
	home = t.TempDir()
	root = filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, k := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(k, filepath.Join(home, strings.ToLower(k)))
	}
	t.Setenv("HOOKGUARD_STATE_DIR", filepath.Join(home, "state"))
	t.Setenv("HOOKGUARD_AUDIT", "off")
	t.Setenv("HOOKGUARD_JUDGE", "off")
	t.Setenv("HOOKGUARD_JUDGE_SERVER", "off")
	for _, k := range []string{"HOOKGUARD_POLICY", "HOOKGUARD_JUDGE_URL", "HOOKGUARD_JUDGE_MODEL", "HOOKGUARD_JUDGE_KEY",
		"OPENAI_BASE_URL", "OPENAI_API_KEY", "CLAUDE_PROJECT_DIR", "HOOKGUARD_DEBUG"} {
		t.Setenv(k, "")
	}
	return home, root
}

type hkResult struct {
	code           int
	stdout, stderr string
	answer         map[string]any
}

// hkRun runs hookguard in-process and checks the one rule that holds for every
// `hookguard hook` run: stdout is exactly one JSON object and a newline.
func hkRun(t *testing.T, stdin io.Reader, args ...string) hkResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, stdin, &out, &errb)
	r := hkResult{code: code, stdout: out.String(), stderr: errb.String()}
	if len(args) > 0 && args[0] == "hook" {
		if !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 {
			t.Fatalf("stdout is not one line: %q (stderr %q)", r.stdout, r.stderr)
		}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		if err := dec.Decode(&r.answer); err != nil || r.answer == nil {
			t.Fatalf("stdout is not a JSON object: %q (%v)", r.stdout, err)
		}
		if dec.More() {
			t.Fatalf("stdout holds more than one JSON value: %q", r.stdout)
		}
	}
	return r
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestHookEvents runs labeled events through `hookguard hook` in-process.
func TestHookEvents(t *testing.T) {
	type row struct {
		ID    string          `json:"id"`
		Args  []string        `json:"args"`
		Event json.RawMessage `json:"event"`
		// Want holds permission (allow|ask|deny) or continue (bool); {} for observe events.
		Want map[string]any `json:"want"`
		// Rule, when set, must be named in both messages.
		Rule string `json:"rule"`
		// Secret must appear nowhere in stdout or stderr.
		Secret string `json:"secret"`
		// Message must appear in the user message.
		Message string `json:"message"`
	}
	for _, c := range testutil.ReadJSONL[row](t, filepath.Join("testdata", "hook", "events.jsonl")) {
		t.Run(c.ID, func(t *testing.T) {
			home, root := hkEnv(t)
			event := strings.NewReplacer("{{ROOT}}", root, "{{HOME}}", home).Replace(string(c.Event))
			r := hkRun(t, strings.NewReader(event), append([]string{"hook"}, c.Args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d, want 0 (stderr %q)", r.code, r.stderr)
			}
			a := r.answer
			if len(c.Want) == 0 {
				if len(a) != 0 {
					t.Fatalf("answer %s, want {}", r.stdout)
				}
				return
			}
			for k, v := range c.Want {
				if a[k] != v {
					t.Errorf("%s = %v, want %v (answer %s)", k, a[k], v, r.stdout)
				}
			}
			user, _ := a["user_message"].(string)
			agent, _ := a["agent_message"].(string)
			blocked := a["permission"] == "deny" || a["permission"] == "ask" || a["continue"] == false
			var allowed []string
			ev, _ := hook.Decode([]byte(event), "")
			switch {
			case ev.Name == "beforeReadFile" || ev.Name == "beforeTabFileRead":
				allowed = []string{"permission"}
			case ev.Kind == hook.KindPrompt:
				allowed = []string{"continue", "user_message"}
				if blocked && user == "" {
					t.Errorf("a blocked prompt says nothing to the user: %s", r.stdout)
				}
			default:
				allowed = []string{"agent_message", "permission", "user_message"}
				if blocked && (user == "" || agent == "") {
					t.Errorf("a %v answer without both messages: %s", a["permission"], r.stdout)
				}
			}
			for _, k := range keys(a) {
				if !slices.Contains(allowed, k) {
					t.Errorf("field %q does not belong in a %s answer: %s", k, ev.Name, r.stdout)
				}
			}
			if !blocked && (user != "" || agent != "") {
				t.Errorf("an allow carries messages: %s", r.stdout)
			}
			if c.Rule != "" {
				if !strings.Contains(user, c.Rule) {
					t.Errorf("user message %q does not name rule %s", user, c.Rule)
				}
				if agent != "" && !strings.Contains(agent, c.Rule) {
					t.Errorf("agent message %q does not name rule %s", agent, c.Rule)
				}
			}
			if a["permission"] == "deny" && agent != "" && !strings.Contains(agent, "Do not retry") {
				t.Errorf("deny does not tell the agent not to retry: %q", agent)
			}
			if c.Message != "" && !strings.Contains(user, c.Message) {
				t.Errorf("user message %q does not mention %q", user, c.Message)
			}
			if c.Secret != "" {
				if strings.Contains(r.stdout, c.Secret) || strings.Contains(r.stderr, c.Secret) {
					t.Errorf("the secret is echoed:\nstdout %s\nstderr %s", r.stdout, r.stderr)
				}
				// Nor a long enough piece of it to be useful.
				if piece := c.Secret[4:16]; strings.Contains(r.stdout, piece) {
					t.Errorf("part of the secret (%s) is echoed: %s", piece, r.stdout)
				}
			}
		})
	}
}

// hkWantUnreadable checks the deny for input hookguard could not use.
func hkWantUnreadable(t *testing.T, r hkResult) {
	t.Helper()
	if r.code != 2 {
		t.Errorf("exit %d, want 2 (stderr %q)", r.code, r.stderr)
	}
	if r.answer["permission"] != "deny" || r.answer["continue"] != false {
		t.Errorf("answer %s is not a deny for every event shape", r.stdout)
	}
	if msg, _ := r.answer["user_message"].(string); !strings.Contains(msg, "could not read the event") {
		t.Errorf("user message %q does not say the event could not be read", msg)
	}
	if strings.TrimSpace(r.stderr) == "" {
		t.Errorf("no diagnostic on stderr")
	}
	// Claude Code shows only stderr on exit 2: it says the same, with the advice.
	if !strings.Contains(r.stderr, "could not read the event") || !strings.Contains(r.stderr, "Do not retry") {
		t.Errorf("stderr %q lacks the message and the advice", r.stderr)
	}
	// The last line is hookguard's own one-line diagnostic (a bad flag
	// prints the usage before it).
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "hookguard: ") {
		t.Errorf("stderr does not end with a hookguard: line: %q", r.stderr)
	}
}

func TestHookBadInput(t *testing.T) {
	type row struct {
		ID    string   `json:"id"`
		Args  []string `json:"args"`
		Stdin string   `json:"stdin"`
	}
	for _, c := range testutil.ReadJSONL[row](t, filepath.Join("testdata", "hook", "bad_input.jsonl")) {
		t.Run(c.ID, func(t *testing.T) {
			hkEnv(t)
			r := hkRun(t, strings.NewReader(c.Stdin), append([]string{"hook"}, c.Args...)...)
			hkWantUnreadable(t, r)
		})
	}
}

// TestUnreadableEventIsAudited: an event hookguard cannot read is denied and
// shows in the audit log, so a client sending an unknown payload is visible.
func TestUnreadableEventIsAudited(t *testing.T) {
	home, _ := hkEnv(t)
	t.Setenv("HOOKGUARD_AUDIT", "")
	r := hkRun(t, strings.NewReader("not json"), "hook")
	hkWantUnreadable(t, r)
	b, err := os.ReadFile(filepath.Join(home, "state", "audit.jsonl"))
	if err != nil {
		t.Fatalf("no audit log: %v", err)
	}
	var rec struct{ Event, Decision, Source, Reason string }
	if err := json.Unmarshal(bytes.TrimSpace(b), &rec); err != nil {
		t.Fatalf("audit line %q: %v", b, err)
	}
	if rec.Event != "unreadable" || rec.Decision != "deny" || rec.Source != "error" || !strings.Contains(rec.Reason, "invalid event") {
		t.Errorf("audit record = %+v", rec)
	}
}

func TestHookOversizedInput(t *testing.T) {
	hkEnv(t)
	head := `{"hook_event_name":"beforeReadFile","file_path":"/w/big.log","content":"`
	body := strings.Repeat("x", hook.MaxEventBytes-len(head)-1)
	// One byte over the cap: the closing brace never fits.
	over := head + body + `"}`
	if len(over) != hook.MaxEventBytes+1 {
		t.Fatalf("built %d bytes", len(over))
	}
	hkWantUnreadable(t, hkRun(t, strings.NewReader(over), "hook"))

	// Exactly at the cap is still an event.
	at := head + body[1:] + `"}`
	if len(at) != hook.MaxEventBytes {
		t.Fatalf("built %d bytes", len(at))
	}
	r := hkRun(t, strings.NewReader(at), "hook")
	if r.code != 0 || r.answer["permission"] != "allow" {
		t.Errorf("an event of exactly the cap: exit %d, %s", r.code, r.stdout)
	}
}

// panicReader panics on the first read: an internal failure inside the hook.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("injected failure") }

func TestHookPanicIsDeny(t *testing.T) {
	hkEnv(t)
	r := hkRun(t, panicReader{}, "hook")
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	if r.answer["permission"] != "deny" || r.answer["continue"] != false {
		t.Errorf("answer %s, want a deny", r.stdout)
	}
	if !strings.Contains(r.stderr, "injected failure") {
		t.Errorf("stderr %q does not say what failed", r.stderr)
	}
}

// A policy that fails to load must not drop the guard: the event is denied in
// its own shape, with exit 2, whatever the action was.
func TestHookBrokenPolicy(t *testing.T) {
	events := map[string]string{
		"shell":  `{"hook_event_name":"beforeShellExecution","command":"git status","cwd":"{{ROOT}}","workspace_roots":["{{ROOT}}"]}`,
		"prompt": `{"hook_event_name":"beforeSubmitPrompt","prompt":"hello","workspace_roots":["{{ROOT}}"]}`,
		"read":   `{"hook_event_name":"beforeReadFile","file_path":"{{ROOT}}/main.go","content":"package main","workspace_roots":["{{ROOT}}"]}`,
		"mcp":    `{"hook_event_name":"beforeMCPExecution","tool_name":"get_issue","tool_input":"{}","mcp_server_name":"github","workspace_roots":["{{ROOT}}"]}`,
	}
	broken, _ := filepath.Abs(filepath.Join("testdata", "policies", "broken-yaml.yaml"))
	badRule, _ := filepath.Abs(filepath.Join("testdata", "policies", "bad-decision.yaml"))
	setups := []struct {
		name string
		// setup returns the extra hook arguments; root is the workspace.
		setup func(t *testing.T, home, root string) []string
		// mention must appear on stderr.
		mention string
	}{
		{"flag-invalid-yaml", func(*testing.T, string, string) []string { return []string{"--policy", broken} }, "broken-yaml.yaml"},
		{"flag-bad-decision", func(*testing.T, string, string) []string { return []string{"--policy", badRule} }, "team-block-psql"},
		{"flag-missing-file", func(_ *testing.T, home, _ string) []string {
			return []string{"--policy", filepath.Join(home, "no-such-policy.yaml")}
		}, "no-such-policy.yaml"},
		{"env-invalid-yaml", func(t *testing.T, _, _ string) []string { t.Setenv("HOOKGUARD_POLICY", broken); return nil }, "broken-yaml.yaml"},
		{"xdg-user-policy-invalid", func(t *testing.T, home, _ string) []string {
			dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hookguard")
			testutil.CopyFile(t, badRule, filepath.Join(dir, "policy.yaml"))
			return nil
		}, "decision"},
	}
	for _, s := range setups {
		for kind, event := range events {
			t.Run(s.name+"/"+kind, func(t *testing.T) {
				home, root := hkEnv(t)
				args := append([]string{"hook"}, s.setup(t, home, root)...)
				r := hkRun(t, strings.NewReader(strings.ReplaceAll(event, "{{ROOT}}", root)), args...)
				if r.code != 2 {
					t.Errorf("exit %d, want 2 (stdout %s, stderr %q)", r.code, r.stdout, r.stderr)
				}
				switch kind {
				case "prompt":
					if r.answer["continue"] != false {
						t.Errorf("answer %s, want continue false", r.stdout)
					}
				default:
					if r.answer["permission"] != "deny" {
						t.Errorf("answer %s, want a deny", r.stdout)
					}
				}
				if msg, _ := r.answer["user_message"].(string); kind != "read" && !strings.Contains(msg, "policy") {
					t.Errorf("user message %q does not say the policy failed", msg)
				}
				if !strings.Contains(r.stderr, s.mention) {
					t.Errorf("stderr %q does not mention %q", r.stderr, s.mention)
				}
			})
		}
	}
}

// TestHookBrokenProjectPolicy: a repository's policy file cannot make every
// event fail: a broken or loosening one is reported on stderr and the rest of
// the policy decides.
func TestHookBrokenProjectPolicy(t *testing.T) {
	broken, _ := filepath.Abs(filepath.Join("testdata", "policies", "broken-yaml.yaml"))
	for name, content := range map[string]string{
		"invalid-yaml": "",
		"loosening":    "version: 1\nsettings:\n  unjudged: allow\n  defaults: {shell: allow}\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, root := hkEnv(t)
			dst := filepath.Join(root, ".cursor", "hookguard.yaml")
			if content == "" {
				testutil.CopyFile(t, broken, dst)
			} else {
				os.MkdirAll(filepath.Dir(dst), 0o755)
				os.WriteFile(dst, []byte(content), 0o644)
			}
			ev := strings.ReplaceAll(`{"hook_event_name":"beforeShellExecution","command":"git status","cwd":"{{ROOT}}","workspace_roots":["{{ROOT}}"]}`, "{{ROOT}}", root)
			r := hkRun(t, strings.NewReader(ev), "hook")
			if r.code != 0 || r.answer["permission"] != "allow" {
				t.Errorf("routine command: exit %d, %s (stderr %q)", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, "hookguard.yaml") {
				t.Errorf("stderr %q does not report the project file", r.stderr)
			}
			ev = strings.ReplaceAll(`{"hook_event_name":"beforeShellExecution","command":"rm -rf ~","cwd":"{{ROOT}}","workspace_roots":["{{ROOT}}"]}`, "{{ROOT}}", root)
			if r := hkRun(t, strings.NewReader(ev), "hook"); r.answer["permission"] != "deny" {
				t.Errorf("the rest of the policy is not in force: %s", r.stdout)
			}
		})
	}
}

// A valid user policy takes effect in the hook: its rule denies by id.
func TestHookUserPolicyRule(t *testing.T) {
	_, root := hkEnv(t)
	team, _ := filepath.Abs(filepath.Join("testdata", "policies", "team.yaml"))
	ev := `{"hook_event_name":"beforeShellExecution","command":"psql 'host=db.prod.internal dbname=app' -c 'select 1'","cwd":"` + root + `","workspace_roots":["` + root + `"]}`
	r := hkRun(t, strings.NewReader(ev), "hook", "--policy", team)
	if r.code != 0 || r.answer["permission"] != "deny" {
		t.Fatalf("exit %d, answer %s", r.code, r.stdout)
	}
	for _, k := range []string{"user_message", "agent_message"} {
		if s, _ := r.answer[k].(string); !strings.Contains(s, "team-no-prod-psql") {
			t.Errorf("%s %q does not name the rule", k, s)
		}
	}
	if s, _ := r.answer["agent_message"].(string); !strings.Contains(s, "host=db.staging") {
		t.Errorf("agent message %q does not carry the rule's advice", s)
	}
}

func TestCheckCLI(t *testing.T) {
	team, _ := filepath.Abs(filepath.Join("testdata", "policies", "team.yaml"))
	broken, _ := filepath.Abs(filepath.Join("testdata", "policies", "broken-yaml.yaml"))
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
		stderr   string
	}{
		{"deny-names-rule", []string{"check", "git push --force origin main"}, 0, []string{"decision: deny", "git-push-force"}, ""},
		{"allow", []string{"check", "git status"}, 0, []string{"decision: allow"}, ""},
		{"ask", []string{"check", "npm publish"}, 0, []string{"decision: ask", "publish-package"}, ""},
		{"split-and-unwrap", []string{"check", "cd /tmp && sudo /bin/rm -rf /"}, 0, []string{"decision: deny", "fs-rm-recursive-critical", "unwrapped sudo"}, ""},
		{"json", []string{"check", "--json", "git reset --hard"}, 0, []string{`"decision": "deny"`, `"rule_id": "git-reset-hard"`}, ""},
		{"user-policy", []string{"check", "--policy", team, "psql 'host=db.prod.internal'"}, 0, []string{"decision: deny", "team-no-prod-psql"}, ""},
		{"broken-policy", []string{"check", "--policy", broken, "ls"}, 1, nil, "broken-yaml.yaml"},
		{"no-command", []string{"check"}, 2, nil, "usage"},
		{"bad-flag", []string{"check", "--bogus", "ls"}, 2, nil, "bogus"},
		{"help", []string{"check", "--help"}, 0, nil, "usage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, root := hkEnv(t)
			t.Chdir(root)
			r := hkRun(t, strings.NewReader(""), c.args...)
			if r.code != c.code {
				t.Errorf("exit %d, want %d (stdout %q, stderr %q)", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.contains {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout does not contain %q:\n%s", s, r.stdout)
				}
			}
			if c.stderr != "" && !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, c.stderr)
			}
		})
	}
}

func TestCheckEventFile(t *testing.T) {
	_, root := hkEnv(t)
	file := filepath.Join(root, "event.json")
	ev := `{"hook_event_name":"beforeMCPExecution","tool_name":"delete_repository","tool_input":"{\"repo\":\"shop\"}","mcp_server_name":"github","workspace_roots":["` + root + `"]}`
	if err := os.WriteFile(file, []byte(ev), 0o644); err != nil {
		t.Fatal(err)
	}
	r := hkRun(t, nil, "check", "--event", file)
	if r.code != 0 || !strings.Contains(r.stdout, "decision: deny") || !strings.Contains(r.stdout, "mcp-destructive-tool") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = hkRun(t, nil, "check", "--event", filepath.Join(root, "missing.json"))
	if r.code != 1 || !strings.Contains(r.stderr, "missing.json") {
		t.Errorf("missing event file: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestPolicyCLI(t *testing.T) {
	slow, _ := filepath.Abs(filepath.Join("testdata", "policies", "slow-pattern.yaml"))
	team, _ := filepath.Abs(filepath.Join("testdata", "policies", "team.yaml"))
	failing, _ := filepath.Abs(filepath.Join("testdata", "policies", "failing-examples.yaml"))
	badRule, _ := filepath.Abs(filepath.Join("testdata", "policies", "bad-decision.yaml"))
	broken, _ := filepath.Abs(filepath.Join("testdata", "policies", "broken-yaml.yaml"))
	cases := []struct {
		name        string
		args        []string
		code        int
		contains    []string
		notContains []string
	}{
		// policy test checks every default example first (slow under -race), so
		// the files share runs: one good file next to each kind of failure.
		{"test-user-file", []string{"policy", "test", team, slow}, 0, []string{"ok   default:", "ok   " + team + ": 1 rules, 0 failures",
			"SLOW " + slow + ": rule team-slow-pattern pattern 1 took", "warn " + slow + ": 1 pattern runs slower than 1ms"}, []string{"FAIL", "SLOW " + team}},
		{"test-failures", []string{"policy", "test", team, failing, badRule, broken, "/nonexistent/policy.yaml"}, 1, []string{
			"ok   default:", "ok   " + team,
			"FAIL " + failing, "team-wrong-examples",
			"team-block-psql: decision",
			"FAIL policy " + broken,
			"/nonexistent/policy.yaml"}, nil},
		{"show", []string{"policy", "show"}, 0, []string{"# effective policy", "id: git-push-force", "id: fs-rm-recursive-critical"}, nil},
		{"show-user", []string{"policy", "show", "--policy", team}, 0, []string{"id: team-no-prod-psql", team}, nil},
		{"show-json", []string{"policy", "show", "--json"}, 0, []string{`"id": "remote-code-pipe"`}, nil},
		{"show-broken", []string{"policy", "show", "--policy", broken}, 1, nil, nil},
		{"no-subcommand", []string{"policy"}, 2, nil, nil},
		{"unknown-subcommand", []string{"policy", "lint"}, 2, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, root := hkEnv(t)
			t.Chdir(root)
			r := hkRun(t, nil, c.args...)
			if r.code != c.code {
				t.Errorf("exit %d, want %d (stdout %.500q, stderr %q)", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.contains {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout does not contain %q:\n%.2000s", s, r.stdout)
				}
			}
			for _, s := range c.notContains {
				if strings.Contains(r.stdout, s) {
					t.Errorf("stdout contains %q:\n%.2000s", s, r.stdout)
				}
			}
		})
	}
}

// A project policy that tries to loosen the guard is reported by policy show.
func TestPolicyShowProjectWarning(t *testing.T) {
	_, root := hkEnv(t)
	if err := os.MkdirAll(filepath.Join(root, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	proj := "version: 1\ndisable: [git-push-force]\n"
	if err := os.WriteFile(filepath.Join(root, ".cursor", "hookguard.yaml"), []byte(proj), 0o644); err != nil {
		t.Fatal(err)
	}
	r := hkRun(t, nil, "policy", "show", "--project", root)
	if r.code != 0 || !strings.Contains(r.stderr, "cannot disable") || !strings.Contains(r.stdout, "id: git-push-force") {
		t.Errorf("exit %d\nstderr %q", r.code, r.stderr)
	}
}

// TestHelpCommand: hookguard help CMD prints that command's usage.
func TestHelpCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "check"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String()+out.String(), "check") || strings.Contains(errb.String(), "commands:") {
		t.Fatalf("help check printed: %s%s", out.String(), errb.String())
	}
}
