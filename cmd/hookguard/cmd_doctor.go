package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookguard/hookguard/internal/doctor"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

func init() {
	register(command{name: "doctor", summary: "check that hookguard is installed, configured and answering", run: runDoctor})
}

func runDoctor(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("doctor", "doctor [--json] [--project DIR] [--policy FILE] [--no-selftest]", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	project := fs.String("project", "", "project root (default: the enclosing git repository, else the current directory)")
	policyPath := fs.String("policy", "", "user policy file (default $HOOKGUARD_POLICY or ~/.config/hookguard/policy.yaml)")
	noSelfTest := fs.Bool("no-selftest", false, "do not run the installed hook commands")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("doctor takes no arguments (got %q)", fs.Arg(0))
	}
	root, err := projectRoot(*project)
	if err != nil {
		return err
	}
	self, _ := selfBinary("")
	state := statedir.Dir(nil)
	rep := doctor.Run(context.Background(), doctor.Options{
		ProjectRoot: root,
		Home:        homeDir(),
		Self:        self,
		StateDir:    state,
		Policy:      doctorPolicy(*policyPath, root),
		Judge:       doctorJudge(*policyPath, root),
		NoSelfTest:  *noSelfTest,
	})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "hookguard doctor (project %s)\n\n", root)
		rep.Text(stdout)
	}
	if !rep.OK {
		return &exitError{code: 1}
	}
	return nil
}

// doctorJudge resolves the judge endpoint with the same function the hook
// uses, from the project's effective policy and the environment.
func doctorJudge(userPath, root string) func() (judge.Config, bool, error) {
	return func() (judge.Config, bool, error) {
		pol, err := rules.Load(rules.LoadOptions{UserPath: userPath, ProjectRoots: []string{root}})
		if err != nil {
			pol = nil // the policy check reports it; the environment still counts
		}
		return pipeline.JudgeConfig(pol, os.Getenv)
	}
}

// doctorPolicy loads the effective policy for the project, as the hook would,
// and runs every rule's examples.
func doctorPolicy(userPath, root string) func() (string, error) {
	return func() (string, error) {
		var warnings []string
		pol, err := rules.Load(rules.LoadOptions{UserPath: userPath, ProjectRoots: []string{root}, Warn: func(s string) { warnings = append(warnings, s) }})
		if err != nil {
			return "", fmt.Errorf("the policy does not load: %w", err)
		}
		summary := fmt.Sprintf("%d rules from %s", len(pol.Rules), strings.Join(pol.Sources, ", "))
		if len(warnings) > 0 {
			summary += "; ignored: " + strings.Join(warnings, "; ")
		}
		checked, failures, ran := runRuleExamples(pol)
		switch {
		case !ran:
			return summary + "; rule examples not run", nil
		case len(failures) > 0:
			return "", fmt.Errorf("%d of %d rule examples fail: %s", len(failures), checked, strings.Join(failures, "; "))
		}
		return fmt.Sprintf("%s; %d rule examples pass", summary, checked), nil
	}
}

// runRuleExamples runs every rule's own match/no_match examples (what
// `hookguard policy test` runs) and returns how many it checked and a line per
// failure.
func runRuleExamples(pol *rules.Policy) (checked int, failures []string, ran bool) {
	for _, r := range pol.Rules {
		if !r.Disabled {
			checked += len(r.Examples.Match) + len(r.Examples.NoMatch)
		}
	}
	for _, f := range pol.CheckExamples(false) {
		failures = append(failures, f.Error())
	}
	return checked, failures, true
}
