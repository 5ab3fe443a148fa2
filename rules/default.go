package rules

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"sort"
)

//go:generate go run ./internal/gendefault

// DefaultDir is the folder (beside this file) that holds the default policy
// as written: 00-settings.yaml, then one file per family of rules.
const DefaultDir = "default"

// ParseDefaultSources parses the default policy's YAML files from fsys (the
// folder DefaultDir) in name order and merges them: settings and judge from
// the files that set them, rules in file order. It also returns the files'
// bytes as read, for the generated copy's hash. Only the generator and the
// test that keeps the generated copy identical call it: hook processes use
// default_gen.go and never parse YAML.
func ParseDefaultSources(fsys fs.FS) (*Policy, []byte, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, nil, fmt.Errorf("default policy: %w", err)
	}
	if len(names) == 0 {
		return nil, nil, errors.New("default policy: no .yaml files")
	}
	sort.Strings(names)
	merged := &Policy{Version: 1}
	var all bytes.Buffer
	seen := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, fmt.Errorf("default policy: %w", err)
		}
		fmt.Fprintf(&all, "# %s\n", name)
		all.Write(data)
		p, err := parsePolicy(data, path.Join(DefaultDir, name))
		if err != nil {
			return nil, nil, err
		}
		if !reflect.DeepEqual(p.Settings, Settings{}) {
			merged.Settings = p.Settings
		}
		if !reflect.DeepEqual(p.Judge, JudgeConfig{}) {
			merged.Judge = p.Judge
		}
		merged.MCP.AllowedServers = append(merged.MCP.AllowedServers, p.MCP.AllowedServers...)
		for _, r := range p.Rules {
			if prev, dup := seen[r.ID]; dup {
				return nil, nil, &PolicyError{File: path.Join(DefaultDir, name), Rule: r.ID, Field: "id", Msg: "duplicate rule id (also in " + prev + ")"}
			}
			seen[r.ID] = name
			r.Origin = "default"
			merged.Rules = append(merged.Rules, r)
		}
	}
	return merged, all.Bytes(), nil
}

// PrepareForEmbedding computes what the generated default policy stores so
// that hook processes need not: each rule's literal prefilter.
func (p *Policy) PrepareForEmbedding() {
	for _, r := range p.Rules {
		if usesVars(r.Patterns) {
			// Depends on the settings a user policy may change: derived at run time.
			r.Prefilter = nil
			continue
		}
		r.Prefilter = rulePrefilter(r.Patterns)
		if r.Prefilter == nil {
			r.Prefilter = [][][]string{}
		}
	}
}

// defaultPolicy returns a fresh copy of the default policy without parsing YAML.
func defaultPolicy() (*Policy, error) {
	p := generatedDefault()
	for _, r := range p.Rules {
		r.Origin = "default"
	}
	return p, nil
}
