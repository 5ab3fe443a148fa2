package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/judgeserver"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

// newJudger returns the judge for pol, or nil when none is configured
// (no endpoint, HOOKGUARD_JUDGE=off or judge.disabled). Escalations go to the
// judge server over its unix socket, which is started on demand; when it
// cannot be reached in a few hundred milliseconds the event is judged
// in-process (the persistent cache is still used).
//
// HOOKGUARD_JUDGE_SERVER=off always judges in-process; HOOKGUARD_JUDGE_WAIT
// changes how long a hook waits for the server; HOOKGUARD_DEBUG=1 prints the
// judge's diagnostics to stderr.
func newJudger(pol *rules.Policy) pipeline.Judger {
	cfg, ok, err := judge.FromPolicy(pol, os.Getenv)
	if err != nil {
		return brokenJudger{why: oneLine(err.Error()), fallback: pol.Judge.Fallback}
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

func (b brokenJudger) Judge(context.Context, judge.Request) hook.Result {
	return judge.Fallback(b.fallback, "the judge is misconfigured: "+b.why)
}

func (brokenJudger) RememberIntent(context.Context, *hook.Event) {}
