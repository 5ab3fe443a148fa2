package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
)

func init() {
	register(command{name: "check", summary: "explain the decision for a command or an event file", run: runCheck})
	register(command{name: "explain", summary: "the same as check: the decision, the rules that fired and the effects of each simple command", run: runCheck})
}

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("check", "check [--json] [--cwd DIR] [--policy FILE] 'COMMAND' | check --event FILE", stderr)
	eventFile := fs.String("event", "", "read a whole hook event (JSON) from FILE (- for stdin)")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	cwd := fs.String("cwd", "", "working directory of the command (default: the current directory)")
	policyPath := fs.String("policy", "", "user policy file")
	withJudge := fs.Bool("judge", false, "ask the configured judge for escalations (default: rules only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var ev *hook.Event
	switch {
	case *eventFile != "":
		var data []byte
		var err error
		if *eventFile == "-" {
			data, err = hook.ReadInput(os.Stdin)
		} else {
			data, err = os.ReadFile(*eventFile)
		}
		if err != nil {
			return fmt.Errorf("read event: %w", err)
		}
		if ev, err = hook.Decode(data, ""); err != nil {
			return err
		}
	case fs.NArg() > 0:
		dir := *cwd
		if dir == "" {
			dir, _ = os.Getwd()
		}
		ev = &hook.Event{Dialect: hook.Cursor, Name: "beforeShellExecution", Kind: hook.KindShell,
			Command: strings.Join(fs.Args(), " "), Cwd: dir, WorkspaceRoots: []string{dir}}
	default:
		fs.Usage()
		return &exitError{code: 2}
	}
	pipe, err := pipeline.Load(*policyPath, ev, stderr)
	if err != nil {
		return err
	}
	if !*withJudge {
		pipe.Judge = nil
	}
	pipe.Explain = true
	d := pipe.Decide(context.Background(), ev)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	printExplanation(stdout, ev, d, pipe.Policy.Redact)
	return nil
}

// printExplanation prints a decision for people. Every piece of event text
// goes through redact first, as it would before reaching a log.
func printExplanation(w io.Writer, ev *hook.Event, d pipeline.Decision, redact func(string) string) {
	fmt.Fprintf(w, "decision: %s", d.Decision)
	if d.RuleID != "" {
		fmt.Fprintf(w, " (rule %s)", d.RuleID)
	} else {
		fmt.Fprintf(w, " (%s)", d.Source)
	}
	fmt.Fprintln(w)
	if d.Reason != "" {
		fmt.Fprintf(w, "reason:   %s\n", redact(d.Reason))
	}
	if d.Advice != "" {
		fmt.Fprintf(w, "advice:   %s\n", d.Advice)
	}
	out := d.Outcome
	if out == nil {
		return
	}
	if out.ParseError != "" {
		fmt.Fprintf(w, "parse:    %s\n", out.ParseError)
	}
	if len(out.Parts) > 0 {
		fmt.Fprintln(w, "parts:")
		for _, p := range out.Parts {
			extra := ""
			if p.Via != "" {
				extra += " via " + p.Via
			}
			if len(p.Wrappers) > 0 {
				extra += " unwrapped " + strings.Join(p.Wrappers, ",")
			}
			if p.Cwd != "" && ev.Kind == hook.KindShell {
				extra += " in " + p.Cwd
			}
			rules := ""
			if len(p.RuleIDs) > 0 {
				rules = " [" + strings.Join(p.RuleIDs, ", ") + "]"
			}
			fmt.Fprintf(w, "  %-5s %s%s%s\n", p.Decision, redact(p.Text), rules, extra)
			if p.Effects != nil {
				fmt.Fprintf(w, "        effects: %s\n", redact(p.Effects.String()))
			}
			if v := p.EffectsVerdict; v != nil {
				why := ""
				if len(v.Reasons) > 0 {
					why = ": " + strings.Join(v.Reasons, "; ")
				}
				fmt.Fprintf(w, "        effects decide %s%s\n", v.Decision, redact(why))
			}
		}
	}
	if len(out.Matches) > 0 {
		fmt.Fprintln(w, "rules fired:")
		for _, m := range out.Matches {
			fmt.Fprintf(w, "  %-5s %s: %s\n", m.Decision, m.RuleID, m.Reason)
		}
	}
	for _, e := range out.Escalations {
		fmt.Fprintf(w, "escalation: %s\n", redact(e))
	}
}
