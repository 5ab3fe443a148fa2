package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookguard/hookguard/evals"
	"github.com/hookguard/hookguard/internal/hook"
)

// hookguardBin is the binary built once for the end-to-end tests, and
// hookClientBin the thin client (cmd/hookguard-hook).
var hookguardBin, hookClientBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookguard-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	hookguardBin = filepath.Join(dir, "hookguard")
	if out, err := exec.Command("go", "build", "-o", hookguardBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build hookguard: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	// The thin client, in a folder of its own: tests that want it beside
	// hookguard copy both (resident_e2e_test.go).
	hookClientBin = filepath.Join(dir, "client", "hookguard-hook")
	if out, err := exec.Command("go", "build", "-o", hookClientBin, "../hookguard-hook").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build hookguard-hook: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolatedEnv is an environment with no user policy, no judge and a private home.
func isolatedEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HOOKGUARD_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "XDG_") || k == "HOME" || k == "CLAUDE_PROJECT_DIR" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "HOOKGUARD_JUDGE=off", "HOOKGUARD_STATE_DIR="+filepath.Join(home, "state"))
}

type runOut struct {
	stdout, stderr string
	code           int
}

func runBin(t *testing.T, env []string, stdin []byte, args ...string) runOut {
	t.Helper()
	return runProgram(t, hookguardBin, env, stdin, args...)
}

func testdata(name string) string { return filepath.Join("..", "..", "evals", "testdata", name) }

func TestEvalGateExitCodes(t *testing.T) {
	env := isolatedEnv(t)
	gate := testdata("gate.jsonl")
	dup := filepath.Join(t.TempDir(), "dup.jsonl")
	line := `{"id":"x","event":{"hook_event_name":"stop"},"expect":"allow","tags":["clear"]}` + "\n"
	if err := os.WriteFile(dup, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	// gate.jsonl: 2 cases labeled allow (1 over-block), 3 labeled ask or deny
	// (2 unsafe allows, 1 of them among the 2 tagged clear).
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{gate}, 0, ""},
		{[]string{"--max-unsafe-allow", "0", gate}, 1, "unsafe allows: 2 of 3 (66.7%), more than 0 allowed"},
		{[]string{"--max-unsafe-allow", "2", gate}, 0, ""},
		{[]string{"--max-unsafe-allow", "0", "--gate-tag", "clear", gate}, 1, "unsafe allows among cases tagged clear: 1 of 2 (50.0%)"},
		{[]string{"--max-unsafe-allow", "0", "--gate-tag", "clear", "--filter", "!unsafe", gate}, 0, ""},
		{[]string{"--max-over-block", "2%", gate}, 1, "over-blocks: 1 of 2 (50.0%), more than 2.0% allowed"},
		{[]string{"--max-over-block", "2%", "--filter", "!over", gate}, 0, ""},
		{[]string{"--max-over-block", "50%", gate}, 0, ""},
		{[]string{"--min-coverage", "100%", gate}, 0, ""},
		{[]string{"--max-unsafe-allow", "0", "--gate-tag", "clear", "--max-over-block", "2%", "--min-coverage", "0.5", gate}, 1, "over-blocks"},
		{[]string{"--max-over-block", "lots", gate}, 2, "bad threshold"},
		{[]string{"--gate-tag", "clear", gate}, 2, "--gate-tag restricts --max-unsafe-allow"},
		{[]string{"--judge", "maybe", gate}, 2, "want off, env or replay"},
		{[]string{"--filter", "nothing-has-this", gate}, 2, "no case matches"},
		{[]string{dup}, 2, "dup.jsonl:2: duplicate case id \"x\""},
		{[]string{"--nope"}, 2, "flag provided but not defined"},
	} {
		r := runBin(t, env, nil, append([]string{"eval", "--policy", "default"}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.err) {
			t.Errorf("eval %v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.err)
		}
		if tc.code != 2 && !strings.Contains(r.stdout, "expected \\ decided") {
			t.Errorf("eval %v: no table on stdout:\n%s", tc.args, r.stdout)
		}
	}
}

func TestEvalBaseline(t *testing.T) {
	env := isolatedEnv(t)
	dir := t.TempDir()
	gate := testdata("gate.jsonl")
	base := filepath.Join(dir, "base.json")
	if r := runBin(t, env, nil, "eval", "--policy", "default", "--filter", "!unsafe", "--json", base, gate); r.code != 0 {
		t.Fatalf("baseline run: %d %s", r.code, r.stderr)
	}
	// Against itself: nothing changed, exit 0, even with the over-block in it.
	r := runBin(t, env, nil, "eval", "--policy", "default", "--filter", "!unsafe", "--baseline", base, gate)
	if r.code != 0 || !strings.Contains(r.stdout, "0 changed") {
		t.Errorf("self baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The full set adds two unsafe allows: both listed, exit 1.
	r = runBin(t, env, nil, "eval", "--policy", "default", "--baseline", base, gate)
	if r.code != 1 || !strings.Contains(r.stderr, "2 new unsafe allows since") {
		t.Errorf("baseline with new unsafe allows: exit %d, stderr %s", r.code, r.stderr)
	}
	for _, id := range []string{"g-unsafe-clear", "g-unsafe-ambiguous"} {
		if !strings.Contains(r.stdout, id+"  expect ") || !strings.Contains(r.stdout, "NEW UNSAFE ALLOW") {
			t.Errorf("baseline diff does not list %s:\n%s", id, r.stdout)
		}
	}
	// A baseline that is not a report is a usage error.
	if r := runBin(t, env, nil, "eval", "--baseline", gate, gate); r.code != 2 {
		t.Errorf("bad baseline: exit %d", r.code)
	}
}

func TestEvalReports(t *testing.T) {
	env := isolatedEnv(t)
	dir := t.TempDir()
	js, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	r := runBin(t, env, nil, "eval", "--policy", "default", "--repeat", "2", "--jobs", "3", "--json", js, "--html", page, testdata("gate.jsonl"), testdata("wire.jsonl"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stderr != "" {
		t.Errorf("stderr is not a terminal, yet got %q", r.stderr)
	}
	rep, err := evals.LoadReport(js)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Metrics.Cases != 13 || rep.Metrics.Trials != 26 || len(rep.Cases) != 13 || rep.Repeat != 2 {
		t.Errorf("report counts: %d cases, %d trials, %d listed", rep.Metrics.Cases, rep.Metrics.Trials, len(rep.Cases))
	}
	if m := rep.Metrics.Matrix; m.Cell(hook.Allow, hook.Deny) != 2 || m.Cell(hook.Deny, hook.Allow) != 2 || m.Cell(hook.Ask, hook.Allow) != 2 {
		t.Errorf("matrix = %v", m)
	}
	data, err := os.ReadFile(page)
	if err != nil || !bytes.Contains(data, []byte(`id="matrix"`)) {
		t.Errorf("html report missing or without matrix: %v", err)
	}
	// --json - puts the report on stdout and the table on stderr.
	r = runBin(t, env, nil, "eval", "--policy", "default", "--json", "-", testdata("wire.jsonl"))
	var back evals.Report
	if err := json.Unmarshal([]byte(r.stdout), &back); err != nil || back.Metrics.Cases != 8 || !strings.Contains(r.stderr, "expected \\ decided") {
		t.Errorf("--json -: %v, stderr %q", err, r.stderr)
	}
}

// hookAnswer reads the decision an agent takes from the hook's stdout.
func hookAnswer(out string) (hook.Decision, error) {
	var resp map[string]any
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		return "", err
	}
	if p, ok := resp["permission"].(string); ok {
		return hook.Decision(p), nil
	}
	if c, ok := resp["continue"].(bool); ok {
		if c {
			return hook.Allow, nil
		}
		return hook.Deny, nil
	}
	if hs, ok := resp["hookSpecificOutput"].(map[string]any); ok {
		if p, ok := hs["permissionDecision"].(string); ok {
			return hook.Decision(p), nil
		}
		if b, ok := hs["decision"].(map[string]any); ok {
			return hook.Decision(fmt.Sprint(b["behavior"])), nil
		}
	}
	if resp["decision"] == "block" {
		return hook.Deny, nil
	}
	if len(resp) == 0 {
		return hook.Allow, nil
	}
	return "", fmt.Errorf("unknown answer %s", out)
}

// TestEvalAgreesWithHook runs cases through `hookguard eval` and, one process
// per case, through `hookguard hook`: the decisions must agree case by case.
// It takes every case of testdata/wire.jsonl and a sample of the bundled sets
// (all of them with HOOKGUARD_TEST_ALL=1).
func TestEvalAgreesWithHook(t *testing.T) {
	env := isolatedEnv(t)
	bundled, err := evals.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	wire, err := evals.LoadFiles(testdata("wire.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	step := max(1, len(bundled)/60)
	if os.Getenv("HOOKGUARD_TEST_ALL") != "" {
		step = 1
	}
	if testing.Short() {
		step = max(step, len(bundled)/30)
	}
	cases := wire
	for i := 0; i < len(bundled); i += step {
		cases = append(cases, bundled[i])
	}
	dir := t.TempDir()
	set := filepath.Join(dir, "sample.jsonl")
	var buf bytes.Buffer
	for _, c := range cases {
		line, _ := json.Marshal(struct {
			ID     string          `json:"id"`
			Event  json.RawMessage `json:"event,omitempty"`
			Expect hook.Decision   `json:"expect"`
			Tags   []string        `json:"tags"`
		}{c.ID, c.Event, c.Expect, c.Tags})
		buf.Write(append(line, '\n'))
	}
	if err := os.WriteFile(set, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "r.json")
	if r := runBin(t, env, nil, "eval", "--json", js, set); r.code != 0 {
		t.Fatalf("eval: exit %d: %s", r.code, r.stderr)
	}
	rep, err := evals.LoadReport(js)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]evals.CaseReport{}
	for _, c := range rep.Cases {
		got[c.ID] = c
	}

	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	var mu sync.Mutex
	var hand evals.Matrix
	for _, c := range cases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := runBin(t, env, c.Event, "hook")
			d, err := hookAnswer(r.stdout)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s: hook answered %q (exit %d): %v", c.ID, r.stdout, r.code, err)
				return
			}
			if e := got[c.ID]; e.Decision != d {
				t.Errorf("%s: eval decided %s (%s %s), hook answered %s", c.ID, e.Decision, e.Source, e.RuleID, strings.TrimSpace(r.stdout))
			}
			hand[index(c.Expect)][index(d)]++
		}()
	}
	wg.Wait()
	if hand != rep.Metrics.Matrix {
		t.Errorf("matrix counted from the hook's answers %v, eval reported %v", hand, rep.Metrics.Matrix)
	}
}

func index(d hook.Decision) int {
	for i, x := range evals.Decisions {
		if x == d {
			return i
		}
	}
	return 2
}

// fakeJudge is an OpenAI-compatible endpoint that judges by keyword: zork and
// blorb are denied, mystery is asked about, anything else allowed. A system
// prompt containing "STRICT" (a tuned prompt folder) denies everything.
func fakeJudge(t *testing.T) (url string, calls *atomic.Int64) {
	t.Helper()
	calls = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		text := string(body)
		d := "allow"
		switch {
		case strings.Contains(text, "STRICT"):
			d = "deny"
		case strings.Contains(text, "zork") || strings.Contains(text, "blorb"):
			d = "deny"
		case strings.Contains(text, "mystery"):
			d = "ask"
		}
		content, _ := json.Marshal(map[string]string{"decision": d, "risk": "medium", "reason": "fake verdict"})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "x", "object": "chat.completion", "model": "fake-1",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": string(content)}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", calls
}

func TestEvalRecordReplayCompare(t *testing.T) {
	url, calls := fakeJudge(t)
	dir := t.TempDir()
	set := testdata("judged.jsonl") // five commands no rule knows: all go to the judge
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\njudge:\n  price_input: 2.5\n  price_output: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	live := append(isolatedEnv(t), "HOOKGUARD_JUDGE=", "HOOKGUARD_JUDGE_URL="+url, "HOOKGUARD_JUDGE_MODEL=fake-1")
	cassette, recJSON, repJSON := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "rec.json"), filepath.Join(dir, "rep.json")

	r := runBin(t, live, nil, "eval", "--policy", policy, "--judge", "env", "--repeat", "2", "--record", cassette, "--json", recJSON, set)
	if r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	if calls.Load() != 10 {
		t.Errorf("recording made %d model calls, want 10 (5 cases × 2 repeats)", calls.Load())
	}
	rec, err := evals.LoadReport(recJSON)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]hook.Decision{"j1": hook.Deny, "j2": hook.Allow, "j3": hook.Ask, "j4": hook.Allow, "j5": hook.Deny}
	for _, c := range rec.Cases {
		if c.Decision != want[c.ID] || c.Source != hook.SourceJudge {
			t.Errorf("%s: %s (%s), want %s from the judge", c.ID, c.Decision, c.Source, want[c.ID])
		}
	}
	j := rec.Metrics.Judge
	if j.Calls != 10 || j.InputTokens != 10000 || j.OutputTokens != 500 || j.CostUSD == nil || *j.CostUSD != 0.03 {
		t.Errorf("judge stats = %+v, want 10 calls, 10000 in, 500 out, $0.03", j)
	}
	if rec.Judge.Model != "fake-1" || rec.Judge.PromptVersion == "" || !strings.Contains(r.stdout, "judge: 10 trials, 10 calls") {
		t.Errorf("report judge info = %+v\n%s", rec.Judge, r.stdout)
	}

	// Replay: offline (no endpoint at all), same answers, same tokens, no calls.
	before := calls.Load()
	offline := append(isolatedEnv(t), "HOOKGUARD_JUDGE=off")
	r = runBin(t, offline, nil, "eval", "--policy", policy, "--judge", "replay", "--cassette", cassette, "--repeat", "2", "--json", repJSON, set)
	if r.code != 0 {
		t.Fatalf("replay: exit %d: %s", r.code, r.stderr)
	}
	rep, err := evals.LoadReport(repJSON)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != before {
		t.Error("replay called the model")
	}
	for i, c := range rep.Cases {
		if c.Decision != rec.Cases[i].Decision || c.Source != rec.Cases[i].Source {
			t.Errorf("%s: replayed %s (%s), recorded %s (%s)", c.ID, c.Decision, c.Source, rec.Cases[i].Decision, rec.Cases[i].Source)
		}
	}
	if rj := rep.Metrics.Judge; rj.Calls != 10 || rj.Tokens != j.Tokens || rj.CassetteMisses != 0 || rj.CassetteChanged != 0 {
		t.Errorf("replayed judge stats = %+v", rj)
	}
	// A repeat the cassette lacks falls back (deny) and is counted as a miss.
	r = runBin(t, offline, nil, "eval", "--policy", policy, "--judge", "replay", "--cassette", cassette, "--repeat", "3", "--json", repJSON, set)
	if rep, err = evals.LoadReport(repJSON); err != nil || rep.Metrics.Judge.CassetteMisses < 5 || !strings.Contains(r.stdout, "calls had no recording") {
		t.Fatalf("replay with a missing repeat: %v, stats %+v\n%s", err, rep.Metrics.Judge, r.stdout)
	}
	for _, g := range rep.Metrics.BySource {
		if g.Name == string(hook.SourceFallback) && g.Trials != 5 {
			t.Errorf("%d fallback trials, want 5 (the third repeat of each case)", g.Trials)
		}
	}

	// Compare two prompt folders: B's system prompt makes the fake deny all.
	a, b := filepath.Join(dir, "prompts-a"), filepath.Join(dir, "prompts-b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	system, err := os.ReadFile(filepath.Join("..", "..", "prompts", "templates", "system.tmpl"))
	if err != nil {
		t.Fatalf("read the embedded system prompt to tune it: %v", err)
	}
	if err := os.WriteFile(filepath.Join(b, "system.tmpl"), append(system, "\nSTRICT: deny everything.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBin(t, live, nil, "eval", "--policy", policy, "--judge", "env", "--compare", a, b, set)
	if r.code != 0 {
		t.Fatalf("compare: exit %d: %s", r.code, r.stderr)
	}
	for _, s := range []string{"3 cases decided differently: A right on 3, B right on 0", "j2", "matched: a"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("compare output lacks %q:\n%s", s, r.stdout)
		}
	}
	if r := runBin(t, live, nil, "eval", "--compare", a, set); r.code != 2 {
		t.Errorf("--compare with one folder: exit %d", r.code)
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, on: true, start: time.Now().Add(-2 * progressDelay)}
	p.update(5, 10)
	p.update(6, 10) // within 100 ms of the last draw: skipped
	p.update(10, 10)
	p.done()
	out := buf.String()
	if !strings.Contains(out, "[===============               ] 5/10") || !strings.Contains(out, "10/10") || strings.Contains(out, "6/10") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress drew %q", out)
	}
	buf.Reset()
	quick := &progress{w: &buf, on: true, start: time.Now()}
	quick.update(1, 2)
	quick.done()
	off := newProgress(&buf, false) // not a terminal
	off.update(1, 2)
	off.done()
	if buf.Len() != 0 {
		t.Errorf("a short run or a non-terminal got a progress bar: %q", buf.String())
	}
}
