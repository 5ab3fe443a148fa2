package main

import (
	"io"
	"time"

	"github.com/hookguard/hookguard/guard"
	"github.com/hookguard/hookguard/hook"
)

// auditDecision appends the decision to the audit log. (Filled in by the
// integrations issue.)
func auditDecision(p *guard.Pipeline, ev *hook.Event, d guard.Decision, took time.Duration, stderr io.Writer) {
}
