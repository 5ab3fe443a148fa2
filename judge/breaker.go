package judge

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
)

// BreakerSettings tune the circuit breaker in front of the model.
type BreakerSettings struct {
	// Failures is how many consecutive failures open the breaker (default 3).
	Failures int
	// Cooldown is how long it stays open before one probe may pass (default 30s).
	Cooldown time.Duration
}

// Breaker states as reported by Status.
const (
	StateClosed   = "closed"
	StateOpen     = "open"
	StateHalfOpen = "half-open"
)

// errBreakerOpen is returned by allow while the breaker is open.
var errBreakerOpen = errors.New("circuit breaker is open")

// breaker guards the model endpoint. gobreaker counts the failures while the
// circuit is closed and decides when to trip; the open and half-open phases are
// timed here against an injectable clock, because gobreaker reads time.Now
// directly (so its cool-down cannot be tested without sleeping) and has no way
// to hold the circuit open for a server's Retry-After.
type breaker struct {
	mu        sync.Mutex
	settings  BreakerSettings
	now       func() time.Time
	cb        *gobreaker.CircuitBreaker[struct{}]
	openUntil time.Time // zero while closed
	probing   bool
	opens     int
	why       string // what opened it
}

func newBreaker(s BreakerSettings, now func() time.Time) *breaker {
	if s.Failures <= 0 {
		s.Failures = 3
	}
	if s.Cooldown <= 0 {
		s.Cooldown = 30 * time.Second
	}
	b := &breaker{settings: s, now: now}
	b.cb = b.newCounter()
	return b
}

func (b *breaker) newCounter() *gobreaker.CircuitBreaker[struct{}] {
	n := uint32(b.settings.Failures)
	return gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name: "judge",
		// The open phase is ours; gobreaker's own timeout must never end it.
		Timeout:     100 * 365 * 24 * time.Hour,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= n },
		IsExcluded:  func(err error) bool { return errors.Is(err, context.Canceled) },
	})
}

// allow says whether a call may go to the model now. probe is set when the
// call is the single half-open probe; its outcome decides the next state.
func (b *breaker) allow() (probe bool, wait time.Duration, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openUntil.IsZero() {
		return false, 0, nil
	}
	now := b.now()
	if now.Before(b.openUntil) {
		return false, b.openUntil.Sub(now), errBreakerOpen
	}
	if b.probing {
		return false, 0, errBreakerOpen
	}
	b.probing = true
	return true, 0, nil
}

// done records a call's outcome. err nil is a success; a cancellation counts
// as neither. holdFor > 0 (a Retry-After) opens the circuit for at least that.
func (b *breaker) done(probe bool, err error, holdFor time.Duration, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if probe {
		b.probing = false
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	if err == nil {
		if probe || !b.openUntil.IsZero() {
			b.openUntil = time.Time{}
			b.cb = b.newCounter()
		}
		_, _ = b.cb.Execute(func() (struct{}, error) { return struct{}{}, nil })
		return
	}
	if probe {
		b.open(now, holdFor, why)
		return
	}
	_, _ = b.cb.Execute(func() (struct{}, error) { return struct{}{}, err })
	if b.cb.State() == gobreaker.StateOpen || holdFor > 0 {
		b.open(now, holdFor, why)
	}
}

func (b *breaker) open(now time.Time, holdFor time.Duration, why string) {
	d := b.settings.Cooldown
	if holdFor > d {
		d = holdFor
	}
	until := now.Add(d)
	if until.After(b.openUntil) {
		b.openUntil = until
	}
	b.opens++
	b.why = why
}

type breakerStatus struct {
	State               string
	ConsecutiveFailures int
	OpenUntil           time.Time
	Opens               int
	Why                 string
}

func (b *breaker) status() breakerStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := breakerStatus{State: StateClosed, ConsecutiveFailures: int(b.cb.Counts().ConsecutiveFailures), Opens: b.opens}
	if !b.openUntil.IsZero() {
		s.State, s.OpenUntil, s.Why = StateOpen, b.openUntil, b.why
		if !b.now().Before(b.openUntil) {
			s.State = StateHalfOpen
		}
	}
	return s
}
