package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/install"
	"github.com/hookguard/hookguard/internal/text"
)

// installedCommand is one distinct hookguard command found in a hooks file.
type installedCommand struct {
	Target  install.Target
	Command string
	Dialect string
}

// minTimeout is the shortest hook timeout (seconds) that leaves the judge its
// budget; below it a slow judgment becomes a timeout.
const minTimeout = 10

func scopeFlag(t install.Target) string {
	var f []string
	if t.Scope == install.User {
		f = append(f, "--user")
	}
	if t.Agent == install.Claude {
		f = append(f, "--claude")
	}
	if len(f) == 0 {
		return ""
	}
	return " " + strings.Join(f, " ")
}

// checkTarget checks one hooks file and returns the hookguard commands in it.
func checkTarget(ctx context.Context, o *Options, t install.Target) ([]Check, []installedCommand) {
	subject := t.Path
	fail := func(msg, fix string) Check {
		return Check{ID: "hooks", Subject: subject, Status: StatusFail, Message: msg, Fix: fix}
	}
	warn := func(msg, fix string) Check {
		return Check{ID: "hooks", Subject: subject, Status: StatusWarn, Message: msg, Fix: fix}
	}
	cfg, err := install.Read(t)
	if err != nil {
		var se *install.SyntaxError
		if errors.As(err, &se) {
			return []Check{fail(fmt.Sprintf("not valid JSON at line %d, column %d: %s; %s ignores the whole file",
				se.Line, se.Column, se.Msg, agentName(t)),
				fmt.Sprintf("edit %s and fix line %d (a trailing comma or a missing quote is typical), then run `hookguard install%s`", t.Path, se.Line, scopeFlag(t)))}, nil
		}
		return []Check{fail(text.OneLine(err.Error()), "fix the file by hand; hookguard install leaves files it does not understand alone")}, nil
	}
	if !cfg.Exists {
		return []Check{{ID: "hooks", Subject: subject, Status: StatusSkip, Message: "no file"}}, nil
	}
	var out []Check
	if t.Agent == install.Cursor && cfg.Version != "1" {
		v := cfg.Version
		if v == "" {
			v = "missing"
		}
		out = append(out, fail(fmt.Sprintf(`"version" is %s; Cursor loads only version 1`, v), `set "version": 1 at the top level (hookguard install does this)`))
	}
	for _, ev := range cfg.Events {
		if want := install.MisspelledEvent(t.Agent, ev); want != "" {
			out = append(out, warn(fmt.Sprintf("event %q is not a %s event, so its hooks never run (did you mean %q? event names are case-sensitive)", ev, agentName(t), want),
				fmt.Sprintf("rename %q to %q", ev, want)))
		}
	}
	entries := cfg.Hookguard()
	if len(entries) == 0 {
		out = append(out, Check{ID: "hooks", Subject: subject, Status: StatusSkip, Message: "hookguard is not installed in this file"})
		return out, nil
	}
	have := map[string]bool{}
	for _, e := range entries {
		key := e.Event
		if t.Agent == install.Claude && e.Matcher != "" {
			key += ":" + e.Matcher
		}
		have[key] = true
	}
	var missing []string
	if t.Agent == install.Cursor {
		for _, ev := range install.CursorEvents {
			if !have[ev] {
				missing = append(missing, ev)
			}
		}
	} else {
		for _, probe := range []struct{ tool, label string }{{"Bash", "Bash"}, {"Read", "Read"}, {"Write", "Write"}, {"Edit", "Edit"}, {"mcp__server__tool", "mcp__*"}} {
			if !claudeCovers(entries, probe.tool) {
				missing = append(missing, "PreToolUse "+probe.label)
			}
		}
		if !have["UserPromptSubmit"] {
			missing = append(missing, "UserPromptSubmit")
		}
	}
	if len(missing) > 0 {
		out = append(out, fail("hookguard is missing for "+strings.Join(missing, ", "), fmt.Sprintf("run `hookguard install%s`", scopeFlag(t))))
	}
	if t.Agent == install.Cursor && !have[install.CursorToolEvent] {
		out = append(out, warn("preToolUse is not guarded, so the agent's own edit tool can rewrite .cursor/hooks.json, shell start-up files or .git/hooks unchecked",
			fmt.Sprintf("run `hookguard install%s` (it adds preToolUse unless --no-tools)", scopeFlag(t))))
	}

	var cmds []installedCommand
	seenCmd := map[string]bool{}
	for _, e := range entries {
		where := e.Event
		if e.Matcher != "" {
			where += " (" + e.Matcher + ")"
		}
		if t.Agent == install.Cursor {
			if e.FailClosed == nil || !*e.FailClosed {
				out = append(out, fail(where+": failClosed is not true, so a crash or timeout lets the action through",
					fmt.Sprintf(`set "failClosed": true on the entry, or run `+"`hookguard install%s`", scopeFlag(t))))
			}
			for _, k := range e.Keys {
				if k == "fail_closed" || k == "failclosed" || k == "timeout_ms" || k == "timeoutMs" {
					out = append(out, warn(fmt.Sprintf("%s: %q is not a Cursor field and is ignored", where, k), fmt.Sprintf("run `hookguard install%s` to rewrite the entry", scopeFlag(t))))
				}
			}
			if e.Index > 0 {
				out = append(out, fail(fmt.Sprintf("%s: hookguard is hook %d of %d; some Cursor versions run only the first hook of an event, so hookguard may never run", where, e.Index+1, e.Count),
					fmt.Sprintf("run `hookguard install%s` (it puts hookguard first)", scopeFlag(t))))
			} else if e.Count > 1 {
				out = append(out, warn(fmt.Sprintf("%s: %d other hook(s) after hookguard; some Cursor versions run only the first hook of an event, so they may never run", where, e.Count-1),
					"if those hooks matter, combine them into one script or move them to an event of their own"))
			}
		}
		switch {
		case e.Timeout == 0 && t.Agent == install.Cursor:
			out = append(out, warn(where+": no timeout set; a slow judgment may hit Cursor's default", fmt.Sprintf(`set "timeout": %d`, install.CursorTimeout)))
		case e.Timeout > 0 && e.Timeout < minTimeout:
			out = append(out, warn(fmt.Sprintf("%s: timeout %gs leaves the judge no room (it may take ~8s)", where, e.Timeout), fmt.Sprintf(`set "timeout": %d or more`, install.CursorTimeout)))
		}
		if !seenCmd[e.Command] {
			seenCmd[e.Command] = true
			dialect := "cursor"
			if t.Agent == install.Claude {
				dialect = "claude"
			}
			if args := install.CommandArgs(e.Command); slices.Contains(args, "--dialect") {
				if i := slices.Index(args, "--dialect"); i+1 < len(args) {
					dialect = args[i+1]
				}
			}
			cmds = append(cmds, installedCommand{Target: t, Command: e.Command, Dialect: dialect})
			out = append(out, checkBinary(ctx, o, t, e.Command)...)
		}
	}
	if t.Agent == install.Claude {
		out = append(out, Check{ID: "hooks", Subject: subject, Status: StatusOK,
			Message: "note: Claude Code has no failClosed; hookguard itself exits 2 (block) on any internal error, but a hook that cannot start or times out lets the action through"})
	}
	if !hasProblem(out, "hooks") {
		var events []string
		for _, e := range entries {
			if !slices.Contains(events, e.Event) {
				events = append(events, e.Event)
			}
		}
		msg := fmt.Sprintf("hookguard on %s", strings.Join(events, ", "))
		if t.Agent == install.Cursor {
			msg += ", failClosed"
		}
		out = append([]Check{{ID: "hooks", Subject: subject, Status: StatusOK, Message: msg}}, out...)
	}
	return out, cmds
}

// claudeCovers reports whether one of the entries' matchers selects tool.
func claudeCovers(entries []install.Entry, tool string) bool {
	for _, e := range entries {
		if e.Event != "PreToolUse" {
			continue
		}
		if e.Matcher == "" || e.Matcher == "*" || matcherMatches(e.Matcher, tool) {
			return true
		}
	}
	return false
}

// resolveProgram finds the file a hook command runs, the way the agent would:
// relative paths from the target's base directory, bare names on PATH.
func resolveProgram(t install.Target, command, home string) (string, error) {
	prog := install.CommandProgram(command)
	switch {
	case prog == "":
		return "", errors.New("empty command")
	case strings.HasPrefix(prog, "~/"):
		prog = filepath.Join(home, prog[2:])
	case strings.HasPrefix(prog, "$CLAUDE_PROJECT_DIR/"):
		prog = filepath.Join(t.BaseDir, strings.TrimPrefix(prog, "$CLAUDE_PROJECT_DIR/"))
	case !strings.ContainsAny(prog, `/\`):
		p, err := exec.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("%s is not on PATH", prog)
		}
		return p, nil
	case !filepath.IsAbs(prog):
		prog = filepath.Join(t.BaseDir, prog)
	}
	return prog, nil
}

// checkBinary checks that a hook command's program exists, is executable and
// runs (`hookguard version`).
func checkBinary(ctx context.Context, o *Options, t install.Target, command string) []Check {
	prog, err := resolveProgram(t, command, o.Home)
	fix := fmt.Sprintf("build or install hookguard (in a clone of its repository: CGO_ENABLED=0 go install ./cmd/hookguard, which puts it in $(go env GOPATH)/bin), then run `hookguard install%s` from it so the entry gets its absolute path", scopeFlag(t))
	if err != nil {
		return []Check{{ID: "binary", Subject: command, Status: StatusFail, Message: err.Error(), Fix: fix}}
	}
	fi, err := os.Stat(prog)
	switch {
	case err != nil:
		return []Check{{ID: "binary", Subject: prog, Status: StatusFail, Message: "does not exist (the hook cannot start" + failNote(t) + ")", Fix: fix}}
	case fi.IsDir():
		return []Check{{ID: "binary", Subject: prog, Status: StatusFail, Message: "is a directory", Fix: fix}}
	case fi.Mode().Perm()&0o111 == 0:
		return []Check{{ID: "binary", Subject: prog, Status: StatusFail, Message: "is not executable", Fix: "chmod +x " + prog}}
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	outb, err := exec.CommandContext(cctx, prog, "version").CombinedOutput()
	if err != nil {
		return []Check{{ID: "binary", Subject: prog, Status: StatusFail, Message: "does not run: " + text.OneLine(err.Error()+" "+string(outb)), Fix: fix}}
	}
	var out []Check
	ver := strings.TrimSpace(string(outb))
	out = append(out, Check{ID: "binary", Subject: prog, Status: StatusOK, Message: "runs (" + ver + ")"})
	if o.Self != "" && !install.SamePath(prog, o.Self) && !install.SamePath(prog, install.ThinClientBeside(o.Self)) {
		out = append(out, Check{ID: "binary", Subject: prog, Status: StatusWarn,
			Message: "is not the hookguard running this doctor (" + o.Self + "); the two may behave differently",
			Fix:     fmt.Sprintf("run `hookguard install%s` from the binary you mean to use", scopeFlag(t))})
	}
	return out
}

func failNote(t install.Target) string {
	if t.Agent == install.Cursor {
		return "; with failClosed every guarded action is blocked"
	}
	return "; Claude Code then lets every action through"
}

func agentName(t install.Target) string {
	if t.Agent == install.Claude {
		return "Claude Code"
	}
	return "Cursor"
}

// hasProblem reports whether checks hold a warn or fail with the given id.
func hasProblem(checks []Check, id string) bool {
	for _, c := range checks {
		if c.ID == id && (c.Status == StatusWarn || c.Status == StatusFail) {
			return true
		}
	}
	return false
}
