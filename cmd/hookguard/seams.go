package main

import (
	"io"
	"time"

	"github.com/hookguard/hookguard/guard"
	"github.com/hookguard/hookguard/hook"
	"github.com/hookguard/hookguard/rules"
)

// loadPipeline builds the pipeline for one event: the effective policy for the
// event's workspace, and the judge when one is configured.
func loadPipeline(userPolicy string, ev *hook.Event) (*guard.Pipeline, error) {
	pol, err := rules.Load(rules.LoadOptions{UserPath: userPolicy, ProjectRoots: ev.WorkspaceRoots})
	if err != nil {
		return nil, err
	}
	return &guard.Pipeline{Policy: pol, Home: homeDir(), Judge: newJudger(pol)}, nil
}

// newJudger returns the judge for pol, or nil when none is configured.
// (Filled in by the judge issue.)
func newJudger(pol *rules.Policy) guard.Judger { return nil }

// auditDecision appends the decision to the audit log. (Filled in by the
// integrations issue.)
func auditDecision(p *guard.Pipeline, ev *hook.Event, d guard.Decision, took time.Duration, stderr io.Writer) {
}
