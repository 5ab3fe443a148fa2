package evals

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// fakeOpenAI answers chat completions with the request's model and a usage block.
func fakeOpenAI(t *testing.T, hits *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"x","object":"chat.completion","model":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"{\"decision\":\"deny\",\"risk\":\"high\",\"reason\":\"%d bytes\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":7,"total_tokens":%d}}`,
			len(body), len(body), len(body)+7)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func post(t *testing.T, d Doer, ctx context.Context, url, body string) (string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := d.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return string(data), nil
}

func TestCassetteRoundTrip(t *testing.T) {
	var hits atomic.Int64
	srv := fakeOpenAI(t, &hits)
	rec := NewCassette()
	meter := &Meter{Next: srv.Client(), PromptVersion: "p1", Record: rec}
	bodyA := `{"model":"m1","messages":[{"role":"user","content":"rm -rf /"}]}`
	bodyB := `{"model":"m1","messages":[{"role":"user","content":"rm -rf / again"}],"response_format":{"type":"json_object"}}`

	use0 := &JudgeUse{}
	ctx0 := WithTrial(context.Background(), "case-1", 0, use0)
	liveA, err := post(t, meter, ctx0, srv.URL, bodyA)
	if err != nil {
		t.Fatal(err)
	}
	liveB, _ := post(t, meter, ctx0, srv.URL, bodyB) // a second call in the same trial
	use1 := &JudgeUse{}
	if _, err := post(t, meter, WithTrial(context.Background(), "case-1", 1, use1), srv.URL, bodyA); err != nil {
		t.Fatal(err)
	}
	if use0.Calls != 2 || use0.InputTokens != len(bodyA)+len(bodyB) || use0.OutputTokens != 14 || len(use0.LatencyMS) != 2 {
		t.Errorf("metered use = %+v", use0)
	}
	if id, rep, ok := TrialOf(ctx0); !ok || id != "case-1" || rep != 0 {
		t.Errorf("TrialOf = %q %d %v", id, rep, ok)
	}

	path := filepath.Join(t.TempDir(), "cassette.jsonl")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	cas, err := LoadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	if cas.Len() != 3 || fmt.Sprint(cas.PromptVersions()) != "[p1]" {
		t.Fatalf("cassette has %d calls for %v, want 3 for [p1]", cas.Len(), cas.PromptVersions())
	}
	before := hits.Load()
	replay := &Replay{Cassette: cas, PromptVersion: "p1"}

	// The same trial's calls come back even in another order.
	ruse := &JudgeUse{}
	rctx := WithTrial(context.Background(), "case-1", 0, ruse)
	gotB, err := post(t, replay, rctx, "http://offline.invalid", bodyB)
	if err != nil || gotB != liveB {
		t.Errorf("replayed B = %q, %v, want %q", gotB, err, liveB)
	}
	gotA, err := post(t, replay, rctx, "http://offline.invalid", bodyA)
	if err != nil || gotA != liveA {
		t.Errorf("replayed A = %q, %v, want %q", gotA, err, liveA)
	}
	if ruse.Calls != 2 || ruse.InputTokens != use0.InputTokens || ruse.Misses != 0 || ruse.Changed != 0 {
		t.Errorf("replayed use = %+v, want the recorded tokens", ruse)
	}
	if hits.Load() != before {
		t.Error("replay reached the server")
	}

	// A changed request is still answered, and counted.
	cuse := &JudgeUse{}
	if _, err := post(t, replay, WithTrial(context.Background(), "case-1", 1, cuse), "http://offline.invalid", `{"model":"m1","messages":[]}`); err != nil || cuse.Changed != 1 {
		t.Errorf("changed request: %v, use %+v", err, cuse)
	}
	// Another case, repeat or prompt version is a miss.
	for _, tc := range []struct {
		id  string
		rep int
		pv  string
	}{{"case-2", 0, "p1"}, {"case-1", 2, "p1"}, {"case-1", 0, "p2"}} {
		muse := &JudgeUse{}
		r := &Replay{Cassette: cas, PromptVersion: tc.pv}
		_, err := post(t, r, WithTrial(context.Background(), tc.id, tc.rep, muse), "http://offline.invalid", bodyA)
		if !errors.Is(err, ErrCassetteMiss) || muse.Misses != 1 {
			t.Errorf("%s repeat %d prompt %s: err %v, use %+v, want a miss", tc.id, tc.rep, tc.pv, err, muse)
		}
	}
}
