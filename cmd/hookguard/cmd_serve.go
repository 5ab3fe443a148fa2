package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hookguard/hookguard/internal/judgeserver"
	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/internal/statedir"
)

func init() {
	register(command{name: "serve", summary: "run the judge server and resident evaluator (started on demand by hook; exits when idle)", run: runServe})
}

func runServe(args []string, _ io.Reader, _, stderr io.Writer) error {
	fs := newFlags("serve", "serve [--resident] [--idle 10m] [--dir STATE_DIR]", stderr)
	idleDefault := 10 * time.Minute
	if v := os.Getenv("HOOKGUARD_SERVE_IDLE"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			idleDefault = d
		}
	}
	idle := fs.Duration("idle", idleDefault, "exit after this long without a request ($HOOKGUARD_SERVE_IDLE)")
	dir := fs.String("dir", statedir.Dir(os.Getenv), "state directory (socket, cache)")
	quiet := fs.Bool("quiet", false, "no log lines")
	residentMode := fs.Bool("resident", false, "run the resident evaluator for this environment (what hookguard-hook talks to) instead of the judge server")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s hookguard serve: %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, a...))
	}
	if *quiet {
		logf = nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := &judgeserver.Server{Dir: *dir, Idle: *idle, Build: judgeserver.Build(), Logf: logf}
	if *residentMode {
		// Whole hook events for the thin client (hookguard-hook), answered
		// from policies compiled once and kept; one evaluator per environment.
		cache := &pipelineCache{}
		loadPipeline = cache.load
		inResidentServer = true
		s.Env = resident.EnvDigest(os.Environ())
		s.Name = resident.Name(s.Env)
		s.Hook = residentHook
	}
	err := s.Serve(ctx)
	if errors.Is(err, judgeserver.ErrRunning) {
		fmt.Fprintln(stderr, "hookguard serve: a server of this kind is already running for", *dir)
		return nil
	}
	return err
}
