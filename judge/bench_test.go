package judge

import (
	"context"
	"testing"

	"github.com/hookguard/hookguard/cache"
	"github.com/hookguard/hookguard/internal/hook"
)

func BenchmarkKey(b *testing.B) {
	req := shellReq("./deploy.sh staging --verbose && echo done")
	b.ReportAllocs()
	for b.Loop() {
		_ = Key(req, "pv", "m", "http://x/v1")
	}
}

func BenchmarkRender(b *testing.B) {
	j, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", NoCache: true})
	if err != nil {
		b.Fatal(err)
	}
	in := shellReq("./deploy.sh staging")
	set := j.promptSet()
	b.ReportAllocs()
	for b.Loop() {
		n, _ := newNonce(in)
		if _, _, err := set.Render(systemData(in, n), eventData(in, n)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecideCacheHit(b *testing.B) {
	t := &testing.T{}
	f := newFakeModel(t, replyVerdict("ask", "medium", "ok"))
	defer f.srv.Close()
	j, err := New(Config{BaseURL: f.URL(), Cache: cache.NewMemory(100, nil)})
	if err != nil {
		b.Fatal(err)
	}
	req := shellReq("./deploy.sh staging")
	j.Decide(context.Background(), req)
	b.ReportAllocs()
	for b.Loop() {
		if res := j.Decide(context.Background(), req); res.Source != hook.SourceCache {
			b.Fatal(res)
		}
	}
}
