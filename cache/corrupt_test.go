package cache

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDamagedStoreIsMovedAside: a store file with damaged pages (bbolt
// panics on them) is moved aside on first use and replaced; nothing panics.
func TestDamagedStoreIsMovedAside(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Decision: "ask", Reason: "r", Expires: time.Now().Add(time.Hour)}
	for i := 0; i < 300; i++ {
		if err := s.Put(strings.Repeat("k", 40)+string(rune('a'+i%26))+strings.Repeat("x", i), e); err != nil {
			t.Fatal(err)
		}
	}
	// Damage every page after the meta pages with garbage.
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for i := 4 * 4096; i < len(data); i++ {
		data[i] = byte(i*7 + 13)
	}
	if err := os.WriteFile(s.Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
	var got error
	for i := 0; i < 300 && got == nil; i++ {
		_, _, got = s.Get(strings.Repeat("k", 40) + string(rune('a'+i%26)) + strings.Repeat("x", i))
	}
	if got == nil {
		_, got = s.Len()
	}
	if got == nil {
		_, got = s.Sweep()
	}
	if !errors.Is(got, ErrCorrupt) {
		t.Fatalf("damaged store not detected: %v", got)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, StoreFile+".corrupt-*"))
	if len(aside) != 1 {
		t.Fatalf("damaged file not moved aside: %v", aside)
	}
	if err := s.Put("fresh", e); err != nil {
		t.Fatalf("a new store was not started: %v", err)
	}
	if got, ok, err := s.Get("fresh"); err != nil || !ok || got.Decision != "ask" {
		t.Fatalf("fresh entry: %+v %v %v", got, ok, err)
	}
}
