// Package doctor checks that hookguard is wired in and working: the hooks
// files, the binary they run, the policy, the judge endpoint, the state
// directory, and a self-test that pipes sample events through the installed
// command. Every problem comes with a fix.
package doctor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hookguard/hookguard/internal/install"
	"github.com/hookguard/hookguard/judge"
)

// Status is a check's verdict.
type Status string

// The statuses. Only StatusFail makes doctor exit non-zero.
const (
	StatusOK   Status = "ok"
	StatusWarn Status = "warn"
	StatusFail Status = "fail"
	StatusSkip Status = "skip"
)

// Check is one finding.
type Check struct {
	// ID groups findings: hooks, installed, binary, policy, judge, state, selftest.
	ID string `json:"id"`
	// Subject is what was checked (a file, a command, an endpoint).
	Subject string `json:"subject,omitempty"`
	Status  Status `json:"status"`
	Message string `json:"message"`
	// Fix says how to resolve a warn or fail.
	Fix string `json:"fix,omitempty"`
}

// Report is the outcome of a doctor run.
type Report struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Options say what to check.
type Options struct {
	// ProjectRoot is the project whose hooks files are checked.
	ProjectRoot string
	// Home is the user's home directory.
	Home string
	// Self is the running hookguard binary.
	Self string
	// StateDir is hookguard's state directory.
	StateDir string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Policy loads the policy and runs its rules' examples. It returns a
	// summary, or an error that says what is wrong. Nil skips the check.
	Policy func() (string, error)
	// Judge resolves the judge configuration as the hook does (the policy's
	// judge section under the environment); nil reads the environment only.
	Judge func() (judge.Config, bool, error)
	// HTTP is the client for the judge check (a 5 s timeout when nil).
	HTTP *http.Client
	// NoSelfTest skips running the installed commands.
	NoSelfTest bool
	// SelfTestTimeout bounds each self-test run (10 s when zero).
	SelfTestTimeout time.Duration
}

func (o *Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

// Run performs every check.
func Run(ctx context.Context, o Options) *Report {
	r := &Report{}
	add := func(c ...Check) { r.Checks = append(r.Checks, c...) }

	targets := []install.Target{
		install.CursorTarget(install.Project, o.ProjectRoot, o.Home),
		install.CursorTarget(install.User, o.ProjectRoot, o.Home),
		install.ClaudeTarget(install.Project, o.ProjectRoot, o.Home),
		install.ClaudeTarget(install.User, o.ProjectRoot, o.Home),
	}
	var installed []installedCommand
	for _, t := range targets {
		if t.Scope == install.Project && install.SamePath(t.Path, targets[1].Path) && t.Agent == install.Cursor {
			continue // the project is the home directory: same file as the user one
		}
		checks, cmds := checkTarget(ctx, &o, t)
		add(checks...)
		installed = append(installed, cmds...)
	}
	if len(installed) == 0 {
		add(Check{ID: "installed", Status: StatusFail,
			Message: "hookguard is not installed in any Cursor or Claude Code hooks file, so nothing is guarded",
			Fix:     "run `hookguard install` in the project (or `hookguard install --user`); for Claude Code add --claude"})
	}
	add(checkPolicy(&o))
	add(checkJudge(ctx, &o))
	add(checkState(&o)...)
	if !o.NoSelfTest {
		add(selfTest(ctx, &o, installed)...)
	}
	r.OK = true
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			r.OK = false
		}
	}
	return r
}

// Text writes the report for people: one line per check, its fix below.
func (r *Report) Text(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range r.Checks {
		label := strings.ToUpper(string(c.Status))
		if c.Status == StatusOK || c.Status == StatusSkip {
			label = string(c.Status)
		}
		subject := c.ID
		if c.Subject != "" {
			subject += " " + c.Subject
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", label, subject, c.Message)
		if c.Fix != "" && (c.Status == StatusFail || c.Status == StatusWarn) {
			fmt.Fprintf(tw, "\t\tfix: %s\n", c.Fix)
		}
	}
	tw.Flush()
	fails, warns := 0, 0
	for _, c := range r.Checks {
		switch c.Status {
		case StatusFail:
			fails++
		case StatusWarn:
			warns++
		}
	}
	switch {
	case fails > 0:
		fmt.Fprintf(w, "\n%d problem(s), %d warning(s): hookguard is not guarding reliably\n", fails, warns)
	case warns > 0:
		fmt.Fprintf(w, "\nno problems, %d warning(s)\n", warns)
	default:
		fmt.Fprintln(w, "\nall checks passed")
	}
}
