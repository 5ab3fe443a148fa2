package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/install"
	"github.com/hookguard/hookguard/internal/statedir"
)

func init() {
	register(command{name: "install", summary: "add hookguard to Cursor's hooks.json (or Claude Code's settings with --claude)", run: runInstall})
	register(command{name: "uninstall", summary: "remove hookguard's entries from the hooks file", run: runUninstall})
}

// targetFlags are the flags install and uninstall share.
type targetFlags struct {
	user, claude, dryRun bool
	project              string
}

func (tf *targetFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&tf.user, "user", false, "use the user file (~/.cursor/hooks.json or ~/.claude/settings.json) instead of the project's")
	fs.BoolVar(&tf.claude, "claude", false, "Claude Code (.claude/settings.json) instead of Cursor (.cursor/hooks.json)")
	fs.BoolVar(&tf.dryRun, "dry-run", false, "print the change as a diff and write nothing")
	fs.StringVar(&tf.project, "project", "", "project root (default: the enclosing git repository, else the current directory)")
}

func (tf *targetFlags) target() (install.Target, error) {
	home := homeDir()
	if home == "" && tf.user {
		return install.Target{}, errors.New("cannot find the home directory for --user")
	}
	scope := install.Project
	root := ""
	if tf.user {
		scope = install.User
	} else {
		var err error
		if root, err = projectRoot(tf.project); err != nil {
			return install.Target{}, err
		}
		if home != "" && install.SamePath(root, home) {
			return install.Target{}, errors.New("the project root is your home directory, where the project file would be the user file: pass --user, or run from (or --project) a project")
		}
	}
	if tf.claude {
		return install.ClaudeTarget(scope, root, home), nil
	}
	return install.CursorTarget(scope, root, home), nil
}

// projectRoot is the explicit root, else the nearest enclosing directory with
// a .git, else the current directory. The walk stops below the home
// directory, so ~/.cursor is never mistaken for a project's .cursor.
func projectRoot(explicit string) (string, error) {
	if explicit != "" {
		abs, err := filepath.Abs(explicit)
		if err != nil {
			return "", fmt.Errorf("project root: %w", err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("project root %s is not a directory", abs)
		}
		return abs, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("project root: %w", err)
	}
	home := homeDir()
	for dir := cwd; ; dir = filepath.Dir(dir) {
		if home != "" && install.SamePath(dir, home) {
			break
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return cwd, nil
}

// selfBinary is the absolute, symlink-resolved path of the running binary. A
// binary built by `go run` lives in a temporary directory that is deleted on
// exit, so it is refused.
func selfBinary(explicit string) (string, error) {
	p := explicit
	if p == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("find the hookguard binary: %w (pass --bin)", err)
		}
		p = exe
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("find the hookguard binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("hookguard binary %s: %w", abs, err)
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("hookguard binary %s is not an executable file", abs)
	}
	if explicit == "" && strings.Contains(abs, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("hookguard is running from a temporary `go run` build (%s); install it first (in the clone: CGO_ENABLED=0 go install ./cmd/hookguard, into $(go env GOPATH)/bin) or pass --bin", abs)
	}
	return abs, nil
}

// planError explains a file that install will not touch.
func planError(t install.Target, err error) error {
	var se *install.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s is not valid JSON at line %d, column %d: %s; fix it by hand, nothing was changed", se.Path, se.Line, se.Column, se.Msg)
	}
	return fmt.Errorf("%s; nothing was changed", strings.TrimSuffix(err.Error(), "."))
}

func runInstall(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("install", "install [--claude] [--user] [--no-tools] [--no-client] [--dry-run] [--project DIR] [--bin PATH] [--timeout SECONDS]", stderr)
	var tf targetFlags
	tf.register(fs)
	fs.Bool("tools", true, "guard Cursor's generic preToolUse event (the default; kept for old scripts)")
	noTools := fs.Bool("no-tools", false, "leave out Cursor's generic preToolUse event, which guards the agent's own file edits and deletes")
	bin := fs.String("bin", "", "hookguard binary the hooks run (default: this one)")
	noClient := fs.Bool("no-client", false, "run hookguard itself for every event even when the thin client hookguard-hook is installed beside it")
	timeout := fs.Int("timeout", 0, fmt.Sprintf("hook timeout in seconds (default %d for Cursor, %d for Claude Code)", install.CursorTimeout, install.ClaudeTimeout))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("install takes no arguments (got %q)", fs.Arg(0))
	}
	if *noTools && tf.claude {
		return errors.New("--no-tools is for Cursor; Claude Code's PreToolUse covers its tools")
	}
	t, err := tf.target()
	if err != nil {
		return err
	}
	binary, err := selfBinary(*bin)
	if err != nil {
		return err
	}
	// The thin client beside hookguard answers through the resident
	// evaluator: the same answers, a fraction of the start-up time.
	hookBinary := binary
	if c := install.ThinClientBeside(binary); c != "" && !*noClient {
		hookBinary = c
	}
	plan, err := install.PlanInstall(t, install.Options{Binary: hookBinary, NoTools: *noTools, Timeout: *timeout})
	if err != nil {
		return planError(t, err)
	}
	if tf.dryRun {
		if !plan.Changed() {
			fmt.Fprintf(stdout, "%s: hookguard is already installed, nothing to change\n", t.Path)
			return nil
		}
		fmt.Fprint(stdout, plan.Diff())
		return nil
	}
	if !plan.Changed() {
		fmt.Fprintf(stdout, "hookguard is already installed in %s (nothing changed)\n", t.Path)
		return nil
	}
	plan.BackupDir = filepath.Join(statedir.Dir(nil), "backups")
	backup, err := plan.Apply(time.Now())
	if err != nil {
		return err
	}
	verb := "installed hookguard in"
	if !plan.Exists {
		verb = "created"
	}
	fmt.Fprintf(stdout, "%s %s\n", verb, t.Path)
	fmt.Fprintf(stdout, "  runs: %s\n", install.HookCommand(hookBinary, string(t.Agent)))
	if hookBinary != binary {
		fmt.Fprintf(stdout, "  (the thin client: it hands each event to a resident hookguard serve --resident and runs %s itself when none answers)\n", binary)
	}
	if backup != "" {
		fmt.Fprintf(stdout, "  previous file saved as %s\n", backup)
	}
	if t.Agent == install.Cursor {
		fmt.Fprintln(stdout, "  restart Cursor (or reload the window); project hooks run only in a trusted workspace")
	} else {
		fmt.Fprintln(stdout, "  Claude Code reads hooks at session start: restart running sessions (check with /hooks)")
	}
	if t.Scope == install.Project {
		fmt.Fprintln(stdout, "  the file holds this machine's absolute path to hookguard; teammates run `hookguard install` themselves, or use --user")
	}
	fmt.Fprintln(stdout, "next: hookguard doctor")
	return nil
}

func runUninstall(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("uninstall", "uninstall [--claude] [--user] [--dry-run] [--project DIR]", stderr)
	var tf targetFlags
	tf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("uninstall takes no arguments (got %q)", fs.Arg(0))
	}
	t, err := tf.target()
	if err != nil {
		return err
	}
	plan, err := install.PlanUninstall(t)
	if err != nil {
		return planError(t, err)
	}
	if !plan.Changed() {
		if !plan.Exists {
			fmt.Fprintf(stdout, "%s does not exist, nothing to remove\n", t.Path)
		} else {
			fmt.Fprintf(stdout, "hookguard is not in %s, nothing to remove\n", t.Path)
		}
		return nil
	}
	if tf.dryRun {
		fmt.Fprint(stdout, plan.Diff())
		return nil
	}
	plan.BackupDir = filepath.Join(statedir.Dir(nil), "backups")
	backup, err := plan.Apply(time.Now())
	if err != nil {
		return err
	}
	if plan.Remove {
		fmt.Fprintf(stdout, "removed %s (it held only hookguard)\n", t.Path)
	} else {
		fmt.Fprintf(stdout, "removed hookguard from %s; other hooks are untouched\n", t.Path)
	}
	if backup != "" {
		fmt.Fprintf(stdout, "  previous file saved as %s\n", backup)
	}
	return nil
}
