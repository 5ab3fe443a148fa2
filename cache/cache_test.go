package cache

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func entry(now time.Time, ttl time.Duration) Entry {
	return Entry{Decision: "deny", Risk: "high", Reason: "r", PromptVersion: "pv", Created: now, Expires: now.Add(ttl)}
}

func TestMemoryTTLPerEntry(t *testing.T) {
	clk := &clock{t: time.Unix(1e9, 0)}
	m := NewMemory(10, clk.Now)
	m.Put("short", entry(clk.Now(), time.Minute))
	m.Put("long", entry(clk.Now(), time.Hour))
	clk.Add(2 * time.Minute)
	if _, ok := m.Get("short"); ok {
		t.Error("expired entry returned")
	}
	if _, ok := m.Get("long"); !ok {
		t.Error("live entry missing")
	}
	if s := m.Stats(); s.Hits != 1 || s.Misses != 1 {
		t.Errorf("stats %+v", s)
	}
	m.Put("dead", entry(clk.Now(), -time.Second))
	if m.Len() != 1 {
		t.Errorf("expired entry stored: len %d", m.Len())
	}
}

func TestMemoryBounded(t *testing.T) {
	m := NewMemory(2, nil)
	now := time.Now()
	for _, k := range []string{"a", "b", "c"} {
		m.Put(k, entry(now, time.Hour))
	}
	if _, ok := m.Get("a"); ok || m.Len() != 2 {
		t.Error("LRU did not evict the oldest")
	}
}

func TestStorePersistsWithModes(t *testing.T) {
	clk := &clock{t: time.Unix(1e9, 0)}
	dir := filepath.Join(t.TempDir(), "state")
	s, err := OpenStore(dir, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get("k"); ok || err != nil {
		t.Fatalf("empty store: %v %v", ok, err)
	}
	if err := s.Put("k", entry(clk.Now(), time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("old", entry(clk.Now(), time.Minute)); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(dir)
	if st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", st.Mode().Perm())
	}
	fst, _ := os.Stat(s.Path())
	if fst.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", fst.Mode().Perm())
	}
	s2, _ := OpenStore(dir, clk.Now)
	e, ok, err := s2.Get("k")
	if !ok || err != nil || e.Decision != "deny" || e.PromptVersion != "pv" {
		t.Fatalf("reopen: %+v %v %v", e, ok, err)
	}
	clk.Add(2 * time.Minute)
	if _, ok, _ := s2.Get("old"); ok {
		t.Error("expired entry returned")
	}
	if n, err := s2.Sweep(); n != 1 || err != nil {
		t.Errorf("sweep removed %d, %v", n, err)
	}
	if n, _ := s2.Len(); n != 1 {
		t.Errorf("len %d", n)
	}
}

func TestTieredRefillsMemory(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir, nil)
	now := time.Now()
	if err := s.Put("k", entry(now, time.Hour)); err != nil {
		t.Fatal(err)
	}
	mem := NewMemory(10, nil)
	tc := NewTiered(mem, s)
	if _, ok := tc.Get("k"); !ok {
		t.Fatal("store entry not found")
	}
	if mem.Len() != 1 {
		t.Error("memory not refilled")
	}
	if _, ok := tc.Get("nope"); ok {
		t.Fatal("phantom hit")
	}
	st := tc.Stats()
	if st.Hits != 1 || st.Misses != 1 || st.StoreEntries != 1 || st.HitRate() != 0.5 {
		t.Errorf("stats %+v", st)
	}
}

func TestStoreConcurrentProcessesShape(t *testing.T) {
	// Several handles on one file (as several processes would have) write and
	// read at once without errors.
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 8 {
		wg.Go(func() {
			s, _ := OpenStore(dir, nil)
			for j := range 5 {
				k := string(rune('a'+i)) + string(rune('0'+j))
				if err := s.Put(k, entry(time.Now(), time.Hour)); err != nil {
					errs <- err
				}
				if _, _, err := s.Get(k); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkStoreGet(b *testing.B) {
	s, _ := OpenStore(b.TempDir(), nil)
	_ = s.Put("k", entry(time.Now(), time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := s.Get("k"); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkMemoryGet(b *testing.B) {
	m := NewMemory(100, nil)
	m.Put("k", entry(time.Now(), time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		m.Get("k")
	}
}
