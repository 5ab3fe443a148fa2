// Package cache keeps model verdicts so that the same event is judged once: an
// in-memory LRU in front of a persistent bbolt store in the user's state
// directory. Every entry carries its own expiry (the TTL depends on the
// decision), and only real model verdicts are ever stored.
package cache

import (
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Entry is one cached verdict.
type Entry struct {
	Decision      string    `json:"decision"`
	Risk          string    `json:"risk"`
	Reason        string    `json:"reason"`
	PromptVersion string    `json:"prompt_version"`
	Model         string    `json:"model"`
	Created       time.Time `json:"created"`
	Expires       time.Time `json:"expires"`
}

// Expired reports whether e is past its expiry at now.
func (e Entry) Expired(now time.Time) bool { return !now.Before(e.Expires) }

// Cache stores verdicts by key. Implementations are safe for concurrent use.
type Cache interface {
	// Get returns the live entry for key.
	Get(key string) (Entry, bool)
	// Put stores e under key; an already expired entry is ignored.
	Put(key string, e Entry)
	// Stats reports sizes and hit counts.
	Stats() Stats
}

// Stats describe a cache's use since it was created.
type Stats struct {
	Hits       uint64 `json:"hits"`
	Misses     uint64 `json:"misses"`
	MemEntries int    `json:"mem_entries"`
	// StoreEntries is the number of entries on disk, -1 when unknown.
	StoreEntries int    `json:"store_entries"`
	StorePath    string `json:"store_path,omitempty"`
	LastError    string `json:"last_error,omitempty"`
}

// HitRate is hits over lookups, 0 when there were none.
func (s Stats) HitRate() float64 {
	if n := s.Hits + s.Misses; n > 0 {
		return float64(s.Hits) / float64(n)
	}
	return 0
}

// Memory is a bounded in-memory LRU with per-entry expiry. It uses the plain
// golang-lru cache rather than the expirable one, which has a single TTL per
// cache and starts a goroutine that never exits.
type Memory struct {
	lru    *lru.Cache[string, Entry]
	now    func() time.Time
	hits   atomic.Uint64
	misses atomic.Uint64
}

// NewMemory returns an LRU holding up to size entries (minimum 1). now may be
// nil for time.Now.
func NewMemory(size int, now func() time.Time) *Memory {
	if size < 1 {
		size = 1
	}
	if now == nil {
		now = time.Now
	}
	c, _ := lru.New[string, Entry](size) // only fails for size <= 0
	return &Memory{lru: c, now: now}
}

// Get implements Cache.
func (m *Memory) Get(key string) (Entry, bool) {
	e, ok := m.lru.Get(key)
	if ok && e.Expired(m.now()) {
		m.lru.Remove(key)
		ok = false
	}
	if ok {
		m.hits.Add(1)
	} else {
		m.misses.Add(1)
	}
	return e, ok
}

// Put implements Cache.
func (m *Memory) Put(key string, e Entry) {
	if e.Expired(m.now()) {
		return
	}
	m.lru.Add(key, e)
}

// Len is the number of entries held, expired ones included until looked up.
func (m *Memory) Len() int { return m.lru.Len() }

// Stats implements Cache.
func (m *Memory) Stats() Stats {
	return Stats{Hits: m.hits.Load(), Misses: m.misses.Load(), MemEntries: m.lru.Len(), StoreEntries: -1}
}

// Tiered is a Memory in front of a Store.
type Tiered struct {
	mem   *Memory
	store *Store

	hits    atomic.Uint64
	misses  atomic.Uint64
	mu      sync.Mutex
	lastErr string
}

// NewTiered combines mem and store; store may be nil for memory only.
func NewTiered(mem *Memory, store *Store) *Tiered { return &Tiered{mem: mem, store: store} }

// Get implements Cache: memory first, then the store (which refills memory).
func (t *Tiered) Get(key string) (Entry, bool) {
	if e, ok := t.mem.Get(key); ok {
		t.hits.Add(1)
		return e, true
	}
	if t.store != nil {
		e, ok, err := t.store.Get(key)
		if err != nil {
			t.setErr(err)
		}
		if ok {
			t.mem.Put(key, e)
			t.hits.Add(1)
			return e, true
		}
	}
	t.misses.Add(1)
	return Entry{}, false
}

// Put implements Cache.
func (t *Tiered) Put(key string, e Entry) {
	t.mem.Put(key, e)
	if t.store != nil {
		if err := t.store.Put(key, e); err != nil {
			t.setErr(err)
		}
	}
}

func (t *Tiered) setErr(err error) {
	t.mu.Lock()
	t.lastErr = err.Error()
	t.mu.Unlock()
}

// Stats implements Cache. Counting the store's entries opens it.
func (t *Tiered) Stats() Stats {
	s := Stats{Hits: t.hits.Load(), Misses: t.misses.Load(), MemEntries: t.mem.Len(), StoreEntries: -1}
	if t.store != nil {
		s.StorePath = t.store.Path()
		if n, err := t.store.Len(); err == nil {
			s.StoreEntries = n
		} else {
			t.setErr(err)
		}
	}
	t.mu.Lock()
	s.LastError = t.lastErr
	t.mu.Unlock()
	return s
}
