package main

import (
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/rules"
)

// loadPipeline builds the pipeline for one event: the effective policy for the
// event's workspace, and the judge when one is configured.
func loadPipeline(userPolicy string, ev *hook.Event) (*pipeline.Pipeline, error) {
	pol, err := rules.Load(rules.LoadOptions{UserPath: userPolicy, ProjectRoots: ev.WorkspaceRoots})
	if err != nil {
		return nil, err
	}
	return &pipeline.Pipeline{Policy: pol, Home: homeDir(), Judge: newJudger(pol)}, nil
}
