package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules"
	"github.com/hookguard/hookguard/rules/effects"
)

func init() {
	register(command{name: "policy", summary: "test policies (policy test [FILE…]) or print the effective one (policy show)", run: runPolicy})
}

func runPolicy(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: hookguard policy test [FILE…]   validate policies and run every rule's examples")
		fmt.Fprintln(stderr, "       hookguard policy show [--json] [--policy FILE] [--project DIR]   print the effective policy")
		if len(args) == 0 {
			return &exitError{code: 2}
		}
		return nil
	}
	switch args[0] {
	case "test":
		return runPolicyTest(args[1:], stdout, stderr)
	case "show":
		return runPolicyShow(args[1:], stdout, stderr)
	}
	return &exitError{code: 2, msg: fmt.Sprintf("unknown policy subcommand %q (use test or show)", args[0])}
}

// runPolicyTest checks the embedded default, then each FILE merged over it (so
// a user rule's examples run through the same pipeline it will live in).
func runPolicyTest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("policy test", "policy test [FILE…]", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	failed := 0
	check := func(name string, p *rules.Policy) {
		fails := p.CheckExamples(name == "default")
		n := 0
		for _, r := range p.Rules {
			n += len(r.Examples.Match) + len(r.Examples.NoMatch)
		}
		for _, f := range fails {
			fmt.Fprintf(stdout, "FAIL %s\n", f.Error())
		}
		status := "ok  "
		if len(fails) > 0 {
			status = "FAIL"
			failed++
		}
		fmt.Fprintf(stdout, "%s %s: %d rules, %d examples, %d failures\n", status, name, len(p.Rules), n, len(fails))
	}
	def, err := rules.ParseDefault()
	if err != nil {
		return err
	}
	check("default", def)
	reportSlow(stdout, "default", def)
	n, efails := def.CheckEffectsExamples()
	for _, f := range efails {
		fmt.Fprintf(stdout, "FAIL %s\n", f.Error())
	}
	status := "ok  "
	if len(efails) > 0 {
		status = "FAIL"
		failed++
	}
	fmt.Fprintf(stdout, "%s program table: %d programs, %d examples, %d failures\n", status, len(effects.Programs()), n, len(efails))
	for _, path := range fs.Args() {
		if _, err := rules.ParseFile(path); err != nil {
			fmt.Fprintf(stdout, "FAIL %s\n", text.OneLine(err.Error()))
			failed++
			continue
		}
		merged, err := rules.Load(rules.LoadOptions{UserPath: path, NoProject: true})
		if err != nil {
			fmt.Fprintf(stdout, "FAIL %s\n", text.OneLine(err.Error()))
			failed++
			continue
		}
		only := &rules.Policy{}
		for _, r := range merged.Rules {
			if r.Origin == path {
				only.Rules = append(only.Rules, r)
			}
		}
		fails := merged.CheckExamples(false)
		reportSlow(stdout, path, only)
		n := 0
		for _, f := range fails {
			if f.Origin == path {
				fmt.Fprintf(stdout, "FAIL %s\n", f.Error())
				n++
			}
		}
		status := "ok  "
		if n > 0 {
			status = "FAIL"
			failed++
		}
		fmt.Fprintf(stdout, "%s %s: %d rules, %d failures\n", status, path, len(only.Rules), n)
	}
	if failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d policy file(s) failed", failed)}
	}
	return nil
}

func runPolicyShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("policy show", "policy show [--json] [--policy FILE] [--project DIR]", stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of YAML")
	policyPath := fs.String("policy", "", "user policy file")
	project := fs.String("project", "", "workspace root whose .cursor/hookguard.yaml applies (default: the current directory)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	root := *project
	if root == "" {
		root, _ = os.Getwd()
	}
	p, err := rules.Load(rules.LoadOptions{UserPath: *policyPath, ProjectRoots: []string{root},
		Warn: func(s string) { fmt.Fprintln(stderr, "hookguard: "+s) }})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	fmt.Fprintf(stdout, "# effective policy %s from %v\n", p.Hash, p.Sources)
	enc := yaml.NewEncoder(stdout)
	enc.SetIndent(2)
	defer enc.Close()
	return enc.Encode(p)
}

// slowPatternLimit is how long one pattern may take on one of its rule's
// examples before policy test names it.
const slowPatternLimit = time.Millisecond

// reportSlow names the patterns of p slower than slowPatternLimit on their
// own rule's examples: a warning (the hook has a match timeout), not a
// failure.
func reportSlow(w io.Writer, name string, p *rules.Policy) {
	slow := p.SlowPatterns(slowPatternLimit)
	for _, s := range slow {
		fmt.Fprintf(w, "SLOW %s: rule %s pattern %d took %s on its example %q\n", name, s.RuleID, s.Pattern+1,
			s.Took.Round(10*time.Microsecond), text.Truncate(s.Example, 60))
	}
	if len(slow) > 0 {
		fmt.Fprintf(w, "warn %s: %d pattern runs slower than %s on their own examples\n", name, len(slow), slowPatternLimit)
	}
}
