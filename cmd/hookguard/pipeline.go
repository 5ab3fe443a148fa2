package main

import (
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
