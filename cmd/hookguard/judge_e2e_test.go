package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hookguardBinary is the binary TestMain built for the end-to-end tests.
func hookguardBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: runs the built binary")
	}
	return hookguardBin
}

// ambiguousEvent is a command no rule knows, which the rules send to the judge.
const ambiguousEvent = `{"hook_event_name":"beforeShellExecution","command":"./tools/sync-fixtures.sh --all","cwd":"/tmp/p","workspace_roots":["/tmp/p"]}`

// model is an OpenAI-compatible endpoint that counts its requests.
type model struct {
	calls atomic.Int32
	url   string
}

func newModel(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *model {
	m := &model{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.calls.Add(1)
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(srv.CloseClientConnections)
	m.url = srv.URL + "/v1"
	return m
}

func verdict(w http.ResponseWriter, decision string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"{\"decision\":\"%s\",\"risk\":\"medium\",\"reason\":\"staging deploy\"}"},"finish_reason":"stop"}],"usage":{"total_tokens":9}}`, decision)
}

// judgeEnv is a clean environment pointing the judge at url with its own state dir.
func judgeEnv(t *testing.T, url string, extra ...string) []string {
	state := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"HOOKGUARD_STATE_DIR=" + state,
		"HOOKGUARD_JUDGE_URL=" + url,
		"HOOKGUARD_JUDGE_MODEL=test-model",
		"HOOKGUARD_SERVE_IDLE=20s",
		"HOOKGUARD_JUDGE_WAIT=2s", // generous: the race detector slows the server's start
	}
	env = append(env, extra...)
	t.Cleanup(func() {
		cmd := exec.Command(hookguardBin, "judge", "stop")
		cmd.Env = env
		_ = cmd.Run()
	})
	return env
}

type hookRun struct {
	resp map[string]any
	took time.Duration
	err  string
}

func runHookProcess(t *testing.T, env []string, event string) hookRun {
	t.Helper()
	cmd := exec.Command(hookguardBinary(t), "hook")
	cmd.Env = env
	cmd.Stdin = strings.NewReader(event)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		t.Fatalf("hook: %v\nstderr: %s", err, stderr.String())
	}
	var resp map[string]any
	dec := json.NewDecoder(&stdout)
	if err := dec.Decode(&resp); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	if dec.More() {
		t.Fatal("stdout holds more than one JSON object")
	}
	return hookRun{resp: resp, took: took, err: stderr.String()}
}

// TestJudgeE2EBreakerOpenAnswersFast: with the endpoint hanging, the first
// hooks wait out the judge's budget and fall back to deny; once the breaker in
// the judge server opens, later hook processes answer the fallback at once.
func TestJudgeE2EBreakerOpenAnswersFast(t *testing.T) {
	release := make(chan struct{})
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) })
	env := judgeEnv(t, m.url, "HOOKGUARD_JUDGE_TIMEOUT=300ms")
	for i := range 3 {
		r := runHookProcess(t, env, ambiguousEvent)
		if r.resp["permission"] != "deny" {
			t.Fatalf("hang %d: %v", i, r.resp)
		}
	}
	calls := m.calls.Load()
	var took []time.Duration
	for i := range 5 {
		r := runHookProcess(t, env, ambiguousEvent)
		msg, _ := r.resp["user_message"].(string)
		if r.resp["permission"] != "deny" || !strings.Contains(msg, "circuit breaker is open") {
			t.Fatalf("run %d after the breaker opened: %v", i, r.resp)
		}
		took = append(took, r.took)
	}
	if m.calls.Load() != calls {
		t.Errorf("the open breaker let %d calls through", m.calls.Load()-calls)
	}
	slices.Sort(took)
	median, slowest := took[len(took)/2], took[len(took)-1]
	t.Logf("breaker-open hook processes: median %s, slowest %s", median, slowest)
	// The median carries the claim: an open breaker answers without waiting
	// for the model, so below the 300 ms judge timeout set above. (A fixed
	// 100 ms bar failed at 100.6 ms under -race on a loaded two-core
	// machine: the bar must separate "waited" from "did not wait", not
	// measure speed; the benchmarks do that.) One process delayed by a busy
	// CI machine must not fail the build, but seconds would mean the budget
	// was waited out.
	if median >= 250*time.Millisecond {
		t.Errorf("breaker-open answers took a median %s (want < 250ms, under the 300ms judge timeout)", median)
	}
	if slowest > time.Second {
		t.Errorf("a breaker-open answer took %s: the judge budget was waited out", slowest)
	}
}

// TestJudgeE2ESameEventOnce: two hook processes sending the same ambiguous
// event at once reach the model once; a third is answered from the cache.
func TestJudgeE2ESameEventOnce(t *testing.T) {
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		verdict(w, "ask")
	})
	env := judgeEnv(t, m.url)
	var wg sync.WaitGroup
	runs := make([]hookRun, 2)
	for i := range runs {
		wg.Go(func() { runs[i] = runHookProcess(t, env, ambiguousEvent) })
	}
	wg.Wait()
	for _, r := range runs {
		if r.resp["permission"] != "ask" {
			t.Fatalf("%v\n%s", r.resp, r.err)
		}
	}
	if n := m.calls.Load(); n != 1 {
		t.Fatalf("the model was asked %d times for one event", n)
	}
	r := runHookProcess(t, env, ambiguousEvent)
	if r.resp["permission"] != "ask" || m.calls.Load() != 1 {
		t.Fatalf("third run: %v after %d calls", r.resp, m.calls.Load())
	}
	t.Logf("cache-hit hook process: %s", r.took)
}

// TestJudgeE2EInProcess: with the server off, the judge runs in the hook and
// the persistent cache still spares the second call.
func TestJudgeE2EInProcess(t *testing.T) {
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) { verdict(w, "deny") })
	env := judgeEnv(t, m.url, "HOOKGUARD_JUDGE_SERVER=off")
	for range 2 {
		if r := runHookProcess(t, env, ambiguousEvent); r.resp["permission"] != "deny" {
			t.Fatalf("%v", r.resp)
		}
	}
	if m.calls.Load() != 1 {
		t.Fatalf("%d model calls", m.calls.Load())
	}
}

// TestJudgeE2EServerErrorsNeverAllow: whatever the endpoint does wrong, the
// hook never answers allow.
func TestJudgeE2EServerErrorsNeverAllow(t *testing.T) {
	var n atomic.Int32
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 3 {
		case 0:
			w.WriteHeader(500)
		case 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"message":{"content":"allow"},"finish_reason":"stop"}]}`)
		}
	})
	env := judgeEnv(t, m.url, "HOOKGUARD_JUDGE_TIMEOUT=1s")
	for i := range 4 {
		r := runHookProcess(t, env, ambiguousEvent)
		if r.resp["permission"] == "allow" {
			t.Fatalf("run %d: a failure became an allow: %v", i, r.resp)
		}
	}
}
