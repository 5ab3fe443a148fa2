package judge

import (
	"strings"
	"sync"
	"time"

	"github.com/hookguard/hookguard/internal/text"
)

// Intents remembers the user's recent requests per conversation, in memory
// only, each for a limited time.
type Intents struct {
	mu  sync.Mutex
	ttl time.Duration
	now func() time.Time
	m   map[string][]intent
}

type intent struct {
	text string
	at   time.Time
}

// IntentTTL is how long a user request is remembered.
const IntentTTL = 30 * time.Minute

// maxConversations bounds the memory; the stalest conversation goes first.
const (
	maxConversations = 1000
	intentsPerConv   = 3
)

// NewIntents returns an empty memory whose entries live for ttl.
func NewIntents(ttl time.Duration, now func() time.Time) *Intents {
	if now == nil {
		now = time.Now
	}
	return &Intents{ttl: ttl, now: now, m: map[string][]intent{}}
}

// Remember records text as the latest request in conversation conv.
func (s *Intents) Remember(conv, text string) {
	if conv == "" || strings.TrimSpace(text) == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if _, ok := s.m[conv]; !ok && len(s.m) >= maxConversations {
		s.evictLocked(now)
	}
	list := append(s.live(s.m[conv], now), intent{text: text, at: now})
	if len(list) > intentsPerConv {
		list = list[len(list)-intentsPerConv:]
	}
	s.m[conv] = list
}

// Get returns the conversation's live requests, oldest first, newest last.
func (s *Intents) Get(conv string) string {
	if conv == "" {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.live(s.m[conv], s.now())
	if len(list) == 0 {
		delete(s.m, conv)
		return ""
	}
	s.m[conv] = list
	texts := make([]string, len(list))
	for i, it := range list {
		texts[i] = it.text
	}
	return text.Truncate(strings.Join(texts, "\n---\n"), MaxIntent)
}

// Len is the number of conversations remembered.
func (s *Intents) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

func (s *Intents) live(list []intent, now time.Time) []intent {
	out := list[:0:0]
	for _, it := range list {
		if now.Sub(it.at) < s.ttl {
			out = append(out, it)
		}
	}
	return out
}

func (s *Intents) evictLocked(now time.Time) {
	var oldest string
	var at time.Time
	for k, list := range s.m {
		if live := s.live(list, now); len(live) == 0 {
			delete(s.m, k)
			continue
		}
		if last := list[len(list)-1].at; oldest == "" || last.Before(at) {
			oldest, at = k, last
		}
	}
	if len(s.m) >= maxConversations && oldest != "" {
		delete(s.m, oldest)
	}
}
