package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/audit"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/judgeserver"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

// Load builds the pipeline for one event: the effective policy for the
// event's workspace, and the judge when one is configured.
func Load(userPolicy string, ev *hook.Event, stderr io.Writer) (*Pipeline, error) {
	pol, err := rules.Load(rules.LoadOptions{UserPath: userPolicy, ProjectRoots: ev.WorkspaceRoots,
		Warn: func(s string) {
			if stderr != nil {
				fmt.Fprintln(stderr, "hookguard: "+s)
			}
		}})
	if err != nil {
		return nil, err
	}
	return &Pipeline{Policy: pol, Home: homeDir(), Judge: NewJudger(pol)}, nil
}

// NewJudger returns the judge for pol, or nil when none is configured
// (no endpoint, HOOKGUARD_JUDGE=off or judge.disabled). Escalations go to the
// judge server over its unix socket, which is started on demand; when it
// cannot be reached in a few hundred milliseconds the event is judged
// in-process (the persistent cache is still used).
//
// HOOKGUARD_JUDGE_SERVER=off always judges in-process; HOOKGUARD_JUDGE_WAIT
// changes how long a hook waits for the server; HOOKGUARD_DEBUG=1 prints the
// judge's diagnostics to stderr.
func NewJudger(pol *rules.Policy) Judger {
	cfg, ok, err := JudgeConfig(pol, os.Getenv)
	if err != nil {
		return brokenJudger{why: text.OneLine(err.Error()), fallback: pol.Judge.Fallback}
	}
	if !ok {
		return nil
	}
	c := &judgeserver.Client{
		Config:  cfg,
		Redact:  pol.Redact,
		NoSpawn: strings.EqualFold(os.Getenv("HOOKGUARD_JUDGE_SERVER"), "off"),
	}
	if w := os.Getenv("HOOKGUARD_JUDGE_WAIT"); w != "" {
		if d, err := time.ParseDuration(w); err == nil {
			c.Wait = d
		}
	}
	if os.Getenv("HOOKGUARD_DEBUG") != "" {
		c.Logf = func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "hookguard: "+format+"\n", args...)
		}
	}
	return c
}

// brokenJudger answers every escalation with the fallback when the judge's
// configuration cannot be used, and says why.
type brokenJudger struct {
	why      string
	fallback hook.Decision
}

func (b brokenJudger) Decide(context.Context, judge.Input) hook.Result {
	return judge.Fallback(b.fallback, "the judge is misconfigured: "+b.why)
}

func (brokenJudger) RememberIntent(context.Context, *hook.Event) {}

// Audit appends the decision to the audit log in the state directory.
// It runs after the answer is on stdout; a failure is one line on stderr and
// never changes the decision. HOOKGUARD_AUDIT=off turns it off. p may be nil
// (a decision reached before a policy was loaded): nothing is redacted then
// beyond what the record leaves out.
func Audit(p *Pipeline, ev *hook.Event, d Decision, took time.Duration, stderr io.Writer) {
	if !audit.Enabled() {
		return
	}
	dir := statedir.Dir(nil)
	var pol *rules.Policy
	if p != nil && p.Policy != nil {
		pol = p.Policy
	} else if def, derr := rules.ParseDefault(); derr == nil {
		// The user's policy did not load: the default detectors still redact.
		pol = def
	} else {
		return // never log unredacted text
	}
	logged := ev
	if ev != nil && ev.Command != "" {
		cp := *ev
		cp.Command = pol.RedactCommand(ev.Command)
		logged = &cp
	}
	redact := pol.Redact
	if ev != nil {
		redact = pol.RedactorFor(ev.Command, ev.Prompt, ev.Content, string(ev.ToolInput))
	}
	rec := audit.NewRecord(logged, d.Result, took, time.Now(), redact)
	if p != nil && p.Policy != nil {
		rec.Policy = p.Policy.Hash
	}
	log := &audit.Log{Dir: dir}
	if err := log.Append(rec); err != nil {
		fmt.Fprintf(stderr, "hookguard: audit: %s\n", text.OneLine(err.Error()))
	}
}

// homeDir is the user's home, or "" when it cannot be found.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
