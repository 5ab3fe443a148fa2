package judgeserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/judge"
)

func fakeModel(t *testing.T, delay time.Duration, calls *atomic.Int32, seen *[]string, mu *sync.Mutex) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var body struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		if seen != nil && len(body.Messages) == 2 {
			mu.Lock()
			*seen = append(*seen, body.Messages[1].Content)
			mu.Unlock()
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"decision\":\"ask\",\"risk\":\"medium\",\"reason\":\"deploys\"}"},"finish_reason":"stop"}],"usage":{"total_tokens":9}}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func startServer(t *testing.T, dir string, idle time.Duration) (*Server, chan error) {
	t.Helper()
	s := &Server{Dir: dir, Idle: idle, Build: "test"}
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background()) }()
	deadline := time.Now().Add(2 * time.Second)
	for {
		if _, err := os.Stat(SocketPath(dir)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Cleanup(s.Shutdown)
	return s, done
}

func client(dir, url string) *Client {
	c := &Client{Config: judge.Config{BaseURL: url, Model: "m", Timeout: 2 * time.Second, StateDir: dir}, Exe: "/nonexistent"}
	c.build = "test"
	return c
}

func req(cmd, conv string) judge.Input {
	return judge.Input{EventName: "beforeShellExecution", Kind: hook.KindShell, Command: cmd, ConversationID: conv, Cwd: "/w"}
}

func TestServerSharesOneModelCall(t *testing.T) {
	var calls atomic.Int32
	// The model answers slowly enough that all six clients arrive while its
	// one call is in flight, even on a loaded machine (-race, every package
	// at once): 200 ms was not always enough.
	url := fakeModel(t, time.Second, &calls, nil, nil)
	dir := t.TempDir()
	startServer(t, dir, time.Minute)
	var wg sync.WaitGroup
	results := make([]hook.Result, 6)
	for i := range results {
		wg.Go(func() { results[i] = client(dir, url).Decide(context.Background(), req("./deploy.sh staging", "")) })
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("%d model calls for one event from 6 clients", calls.Load())
	}
	for _, r := range results {
		if r.Decision != hook.Ask {
			t.Fatalf("%+v", r)
		}
	}
	st, err := client(dir, url).Status(context.Background())
	if err != nil || len(st.Judges) != 1 || st.Judges[0].ModelCalls != 1 {
		t.Fatalf("status %+v %v", st, err)
	}
	// Socket and state dir are private.
	if fi, _ := os.Stat(SocketPath(dir)); fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", fi.Mode().Perm())
	}
}

func TestServerRemembersIntent(t *testing.T) {
	var calls atomic.Int32
	var seen []string
	var mu sync.Mutex
	url := fakeModel(t, 0, &calls, &seen, &mu)
	dir := t.TempDir()
	startServer(t, dir, time.Minute)
	c := client(dir, url)
	c.Redact = func(s string) string { return s }
	c.RememberIntent(context.Background(), &hook.Event{Kind: hook.KindPrompt, ConversationID: "conv1", Prompt: "ship it to staging please"})
	client(dir, url).Decide(context.Background(), req("./deploy.sh staging", "conv1"))
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || !contains(seen[0], "ship it to staging please") {
		t.Fatalf("intent not passed to the model: %q", seen)
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestSecondServerRefused(t *testing.T) {
	dir := t.TempDir()
	startServer(t, dir, time.Minute)
	err := (&Server{Dir: dir, Idle: time.Minute}).Serve(context.Background())
	if err != ErrRunning {
		t.Fatalf("second server: %v", err)
	}
}

func TestIdleExit(t *testing.T) {
	dir := t.TempDir()
	_, done := startServer(t, dir, 100*time.Millisecond)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("server did not exit when idle")
	}
	if _, err := os.Stat(SocketPath(dir)); !os.IsNotExist(err) {
		t.Error("socket left behind")
	}
}

func TestStaleBuildExits(t *testing.T) {
	dir := t.TempDir()
	_, done := startServer(t, dir, time.Minute)
	c := client(dir, "http://127.0.0.1:1/v1")
	c.build = "other"
	c.NoSpawn = false
	c.Wait = 50 * time.Millisecond
	// The stale server exits; the client judges in-process (endpoint down: fallback).
	res := c.Decide(context.Background(), req("x", ""))
	if res.Source != hook.SourceFallback {
		t.Fatalf("%+v", res)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("stale server kept running")
	}
}

func TestUnreachableServerJudgesInProcess(t *testing.T) {
	var calls atomic.Int32
	url := fakeModel(t, 0, &calls, nil, nil)
	dir := filepath.Join(t.TempDir(), "state")
	c := client(dir, url)
	c.Wait = 30 * time.Millisecond
	start := time.Now()
	res := c.Decide(context.Background(), req("./deploy.sh staging", ""))
	if res.Source != hook.SourceJudge || calls.Load() != 1 {
		t.Fatalf("%+v after %d calls", res, calls.Load())
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %s", took)
	}
	// The persistent cache is shared with the next process.
	c2 := client(dir, url)
	c2.Wait = 30 * time.Millisecond
	if res := c2.Decide(context.Background(), req("./deploy.sh staging", "")); res.Source != hook.SourceCache {
		t.Fatalf("%+v", res)
	}
}
