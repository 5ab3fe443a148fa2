package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
		writeUnreadable(stdout, "bad hookguard flags")
		return &exitError{code: 2, msg: text.OneLine(perr.Error())}
	}
	switch hook.Dialect(*dialect) {
	case "", hook.Cursor, hook.Claude:
	default:
		// A misspelt dialect must not decode Claude events as unknown Cursor
		// events, which answer {} (allow).
		writeUnreadable(stdout, "bad hookguard flags")
		return &exitError{code: 2, msg: fmt.Sprintf("unknown dialect %q (use cursor or claude)", *dialect)}
	}
	start := time.Now()
	written := false // an answer is on stdout: never write a second one
	defer func() {
		if r := recover(); r != nil {
			if !written {
				writeUnreadable(stdout, "internal error")
			}
			err = &exitError{code: 2, msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	data, rerr := hook.ReadInput(stdin)
	if rerr != nil {
		writeUnreadable(stdout, rerr.Error())
		return &exitError{code: 2, msg: rerr.Error()}
	}
	ev, derr := hook.Decode(data, hook.Dialect(*dialect))
	if derr != nil {
		writeUnreadable(stdout, "invalid event")
		return &exitError{code: 2, msg: derr.Error()}
	}
	if ev.Kind == hook.KindObserve {
		if werr := (hook.Response{}).Write(stdout); werr != nil {
			return &exitError{code: 2, msg: werr.Error()}
		}
		return nil
	}
	pipe, lerr := pipeline.Load(*policyPath, ev, stderr)
	if lerr != nil {
		// A broken policy must not silently drop the guard: deny and say why.
		res := hook.Result{Decision: hook.Deny, Source: hook.SourceError, Reason: "hookguard could not load its policy: " + text.OneLine(lerr.Error())}
		_ = writeDecision(stdout, ev, res)
		written = true
		pipeline.Audit(nil, ev, pipeline.Decision{Result: res}, time.Since(start), stderr)
		return &exitError{code: 2, msg: text.OneLine(lerr.Error())}
	}
	ctx := context.Background()
	d := pipe.Decide(ctx, ev)
	werr := writeDecision(stdout, ev, d.Result)
	written = true
	if werr != nil {
		return &exitError{code: 2, msg: werr.Error()}
	}
	pipeline.Audit(pipe, ev, d, time.Since(start), stderr)
	return nil
}

func writeDecision(w io.Writer, ev *hook.Event, res hook.Result) error {
	return hook.Respond(ev, res.Decision, pipeline.Messages(ev, res)).Write(w)
}

func writeUnreadable(w io.Writer, reason string) {
	_ = hook.DenyUnreadable(reason).Write(w)
}

// homeDir is the user's home, or "" when it cannot be found.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
