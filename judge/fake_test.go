package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/prompts"
)

// fakeModel is an OpenAI-compatible chat completions server for tests.
type fakeModel struct {
	srv    *httptest.Server
	calls  atomic.Int32
	mu     sync.Mutex
	bodies []map[string]any
	// reply answers call n (1-based) with the decoded request body.
	reply func(w http.ResponseWriter, r *http.Request, body map[string]any, n int)
}

func newFakeModel(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, body map[string]any, n int)) *fakeModel {
	t.Helper()
	f := &fakeModel{reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(f.calls.Add(1))
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		f.reply(w, r, body, n)
	}))
	t.Cleanup(f.srv.CloseClientConnections)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) URL() string { return f.srv.URL + "/v1" }

func (f *fakeModel) body(i int) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[i]
}

// answer writes a chat completion whose content is content.
func answer(w http.ResponseWriter, content, finish string) {
	if finish == "" {
		finish = "stop"
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion", "model": "m",
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content},
			"finish_reason": finish,
		}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	})
}

func verdictJSON(d, risk, reason string) string {
	return fmt.Sprintf(`{"decision":%q,"risk":%q,"reason":%q}`, d, risk, reason)
}

func replyVerdict(d, risk, reason string) func(http.ResponseWriter, *http.Request, map[string]any, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		answer(w, verdictJSON(d, risk, reason), "")
	}
}

func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error"}}`, msg)
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestJudge(t *testing.T, f *fakeModel, mod func(*Config)) *Judge {
	t.Helper()
	cfg := Config{BaseURL: f.URL(), Model: "test-model", Timeout: 2 * time.Second, NoCache: true}
	if mod != nil {
		mod(&cfg)
	}
	j, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func shellReq(cmd string) Input {
	return Input{
		EventName: "beforeShellExecution", Kind: hook.KindShell,
		Command: cmd, Cwd: "/tmp/p", WorkspaceRoots: []string{"/tmp/p"},
		Escalations: []string{"deploy script"},
		Parts:       []prompts.Part{{Text: cmd, Decision: string(hook.Judge)}},
		PolicyHash:  "p1",
	}
}
