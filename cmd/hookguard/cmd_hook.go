package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/internal/text"
)

func init() {
	register(command{name: "hook", summary: "answer one hook event read from stdin (what hooks.json runs)", run: runHook})
}

// runHook is the contract other tools rely on: one event in, one JSON object
// out. Any failure is a deny with exit 2; nothing but that object goes to stdout.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := newFlags("hook", "hook [--dialect cursor|claude] [--policy FILE] < event.json", stderr)
	dialect := fs.String("dialect", "", "hook dialect: cursor or claude (default: detect from the event)")
	policyPath := fs.String("policy", "", "user policy file (default $HOOKGUARD_POLICY or ~/.config/hookguard/policy.yaml)")
	if perr := fs.Parse(args); perr != nil {
		if errors.Is(perr, flag.ErrHelp) {
			return perr // a person asked for the usage: no answer on stdout
		}
		return unreadable(stdout, "bad hookguard flags", perr.Error())
	}
	switch hook.Dialect(*dialect) {
	case "", hook.Cursor, hook.Claude:
	default:
		// A misspelt dialect must not decode Claude events as unknown Cursor
		// events, which answer {} (allow).
		return unreadable(stdout, "bad hookguard flags", fmt.Sprintf("unknown dialect %q (use cursor or claude)", *dialect))
	}
	// One event, then the process ends: the collector runs only when the
	// heap nears hookMemoryLimit, not each time the heap doubles from 4 MB
	// (an event of megabytes otherwise pays several collections, with
	// every goroutine stopped, for memory the exit frees anyway).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(hookMemoryLimit))
	start := time.Now()
	written := false // an answer is on stdout: never write a second one
	defer func() {
		if r := recover(); r != nil {
			e := unreadable(io.Discard, "internal error", fmt.Sprint(r))
			if !written {
				writeUnreadable(stdout, "internal error")
			}
			err = e
		}
	}()
	data, rerr := hook.ReadInput(stdin)
	if rerr != nil {
		auditUnreadable(rerr.Error(), "", start, stderr)
		return unreadable(stdout, rerr.Error(), "")
	}
	ev, derr := hook.Decode(data, hook.Dialect(*dialect))
	if derr != nil {
		auditUnreadable("invalid event", derr.Error(), start, stderr)
		return unreadable(stdout, "invalid event", derr.Error())
	}
	if ev.Kind == hook.KindObserve {
		if werr := (hook.Response{}).Write(stdout); werr != nil {
			return &exitError{code: 2, msg: werr.Error()}
		}
		return nil
	}
	pipe, lerr := loadPipeline(*policyPath, ev, stderr)
	if lerr != nil {
		// A broken policy must not silently drop the guard: deny and say why.
		res := hook.Result{Decision: hook.Deny, Source: hook.SourceError, Reason: "hookguard could not load its policy: " + text.OneLine(lerr.Error())}
		_ = writeDecision(stdout, ev, res)
		written = true
		pipeline.Audit(nil, ev, pipeline.Decision{Result: res}, time.Since(start), stderr)
		return &exitError{code: 2, msg: res.Reason + "; the action was blocked. " + doNotRetry}
	}
	ctx := context.Background()
	d := pipe.Decide(ctx, ev)
	werr := writeDecision(stdout, ev, d.Result)
	written = true
	if werr != nil {
		return &exitError{code: 2, msg: werr.Error()}
	}
	pipeline.Audit(pipe, ev, d, time.Since(start), stderr)
	startResidentIfAsked(stderr)
	return nil
}

// hookMemoryLimit is the heap a hook process may reach before its
// collector runs (issue 12's bound is 100 MB for any input under the cap).
const hookMemoryLimit = 64 << 20

func writeDecision(w io.Writer, ev *hook.Event, res hook.Result) error {
	return hook.Respond(ev, res.Decision, pipeline.Messages(ev, res)).Write(w)
}

func writeUnreadable(w io.Writer, reason string) {
	_ = hook.DenyUnreadable(reason).Write(w)
}

// doNotRetry is the advice of a blocked hook call on stderr, which is all
// Claude Code shows of an exit 2.
const doNotRetry = "Do not retry the same action; tell the user hookguard blocked it."

// unreadable writes the deny for an event hookguard could not read and
// returns the exit 2 whose stderr says the same, with the advice and the
// detail.
func unreadable(stdout io.Writer, reason, detail string) error {
	writeUnreadable(stdout, reason)
	msg := "could not read the event (" + reason + "); the action was blocked. " + doNotRetry
	if detail != "" && detail != reason {
		msg += " Detail: " + text.OneLine(detail)
	}
	return &exitError{code: 2, msg: msg}
}

// auditUnreadable records an event that could not be read, so a client
// sending a payload hookguard does not understand shows in the log as the
// denies it causes.
func auditUnreadable(reason, detail string, start time.Time, stderr io.Writer) {
	msg := "could not read the event (" + reason + ")"
	if detail != "" && detail != reason {
		msg += ": " + text.OneLine(detail)
	}
	res := hook.Result{Decision: hook.Deny, Source: hook.SourceError, Reason: msg}
	pipeline.Audit(nil, &hook.Event{Name: "unreadable"}, pipeline.Decision{Result: res}, time.Since(start), stderr)
}

// homeDir is the user's home, or "" when it cannot be found.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
