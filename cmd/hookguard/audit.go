package main

import (
	"fmt"
	"io"
	"time"

	"github.com/hookguard/hookguard/internal/audit"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/rules"
)

// auditDecision appends the decision to the audit log in the state directory.
// It runs after the answer is on stdout; a failure is one line on stderr and
// never changes the decision. HOOKGUARD_AUDIT=off turns it off. p may be nil
// (a decision reached before a policy was loaded): nothing is redacted then
// beyond what the record leaves out.
func auditDecision(p *pipeline.Pipeline, ev *hook.Event, d pipeline.Decision, took time.Duration, stderr io.Writer) {
	if !audit.Enabled() {
		return
	}
	dir, err := audit.StateDir()
	if err != nil {
		fmt.Fprintf(stderr, "hookguard: audit: %s\n", oneLine(err.Error()))
		return
	}
	var redact func(string) string
	if p != nil && p.Policy != nil {
		redact = p.Policy.Redact
	} else if def, derr := rules.ParseDefault(); derr == nil {
		// The user's policy did not load: the default detectors still redact.
		redact = def.Redact
	} else {
		return // never log unredacted text
	}
	rec := audit.NewRecord(ev, d.Result, took, time.Now(), redact)
	if p != nil && p.Policy != nil {
		rec.Policy = p.Policy.Hash
	}
	log := &audit.Log{Dir: dir}
	if err := log.Append(rec); err != nil {
		fmt.Fprintf(stderr, "hookguard: audit: %s\n", oneLine(err.Error()))
	}
}
