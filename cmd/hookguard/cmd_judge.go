package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hookguard/hookguard/cache"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/judgeserver"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

func init() {
	register(command{name: "judge", summary: "judge server status, test and stop (judge status|test|stop)", run: runJudge})
}

func runJudge(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: hookguard judge status [--json] | judge test [--command CMD] [--intent TEXT] | judge stop")
		if len(args) == 0 {
			return &exitError{code: 2}
		}
		return nil
	}
	switch args[0] {
	case "status":
		return runJudgeStatus(args[1:], stdout, stderr)
	case "test":
		return runJudgeTest(args[1:], stdout, stderr)
	case "stop":
		return runJudgeStop(args[1:], stdout, stderr)
	}
	return &exitError{code: 2, msg: fmt.Sprintf("unknown judge command %q (status, test, stop)", args[0])}
}

// judgeConfig loads the policy for the current directory and resolves the judge.
func judgeConfig(policyPath string) (*rules.Policy, judge.Config, bool, error) {
	wd, _ := os.Getwd()
	pol, err := rules.Load(rules.LoadOptions{UserPath: policyPath, ProjectRoots: []string{wd}})
	if err != nil {
		return nil, judge.Config{}, false, fmt.Errorf("load policy: %w", err)
	}
	cfg, ok, err := pipeline.JudgeConfig(pol, os.Getenv)
	if err != nil {
		return pol, cfg, false, err
	}
	if !ok {
		cfg.StateDir = statedir.Dir(os.Getenv)
	}
	return pol, cfg, ok, nil
}

func runJudgeStatus(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("judge status", "judge status [--json] [--policy FILE]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	policyPath := fs.String("policy", "", "user policy file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, cfg, ok, cerr := judgeConfig(*policyPath)
	c := &judgeserver.Client{Config: cfg}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	st, serr := c.Status(ctx)
	if *asJSON {
		out := map[string]any{"configured": ok, "state_dir": cfg.StateDir, "server": st}
		if ok {
			out["endpoint"], out["model"], out["timeout"], out["fallback"] = cfg.BaseURL, cfg.Model, cfg.Timeout.String(), cfg.Fallback
		}
		if cerr != nil {
			out["config_error"] = cerr.Error()
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	switch {
	case cerr != nil:
		w("judge:      misconfigured: %s", text.OneLine(cerr.Error()))
	case !ok:
		w("judge:      off (set HOOKGUARD_JUDGE_URL or judge.url; see docs/judge.md)")
	default:
		key := "no key"
		if cfg.APIKey != "" {
			key = "key set"
		}
		w("endpoint:   %s (model %s, %s)", cfg.BaseURL, cfg.Model, key)
		w("budget:     %s per judgment, fallback %s", cfg.Timeout, cfg.Fallback)
	}
	w("state dir:  %s", cfg.StateDir)
	if serr != nil {
		w("server:     not running (%s)", text.OneLine(serr.Error()))
		if store, err := cache.OpenStore(cfg.StateDir, nil); err == nil {
			if n, err := store.Len(); err == nil {
				w("cache:      %d verdicts on disk", n)
			}
		}
		return nil
	}
	w("server:     pid %d, up %s, %d requests, %d conversations remembered", st.PID, st.Uptime, st.Requests, st.Conversations)
	if len(st.Judges) == 0 {
		w("judges:     none yet")
	}
	for _, j := range st.Judges {
		w("")
		w("judge:      %s at %s (prompt %s, %s answers)", j.Model, j.Endpoint, j.PromptVersion, j.AnswerMode)
		br := j.Breaker
		if j.OpenUntil != nil {
			br += " until " + j.OpenUntil.Format(time.TimeOnly)
		}
		if j.BreakerWhy != "" {
			br += " (" + j.BreakerWhy + ")"
		}
		w("breaker:    %s; %d consecutive failures, opened %d times", br, j.ConsecutiveFailures, j.Opens)
		w("calls:      %d judgments, %d model calls, %d fallbacks", j.Requests, j.ModelCalls, j.Fallbacks)
		if c := j.Cache; c != nil {
			w("cache:      %d in memory, %d on disk, hit rate %.0f%% (%d hits, %d misses)", c.MemEntries, c.StoreEntries, 100*c.HitRate(), c.Hits, c.Misses)
		}
		for _, e := range j.LastErrors {
			w("error:      %s %s", e.Time.Format(time.TimeOnly), e.Message)
		}
	}
	return nil
}

func runJudgeTest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("judge test", "judge test [--command CMD] [--intent TEXT] [--policy FILE]", stderr)
	command := fs.String("command", "./deploy.sh staging", "shell command to judge")
	intent := fs.String("intent", "", "the user's request to pass along")
	policyPath := fs.String("policy", "", "user policy file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	pol, cfg, ok, err := judgeConfig(*policyPath)
	if err != nil {
		return err
	}
	if !ok {
		return &exitError{code: 1, msg: "no judge configured (set HOOKGUARD_JUDGE_URL or judge.url; see docs/judge.md)"}
	}
	cfg.NoCache = true
	cfg.Redact = pol.Redact
	j, err := judge.New(cfg)
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	ev := &hook.Event{Dialect: hook.Cursor, Name: "beforeShellExecution", Kind: hook.KindShell, Command: *command, Cwd: wd, WorkspaceRoots: []string{wd}}
	out := pol.Evaluate(ev, rules.Context{Cwd: wd, WorkspaceRoots: ev.WorkspaceRoots, Home: homeDir()})
	start := time.Now()
	pipe := &pipeline.Pipeline{Policy: pol, Home: homeDir(), Judge: j}
	res := pipe.AskJudge(context.Background(), ev, out, *intent)
	fmt.Fprintf(stdout, "%s → %s (%s", strings.TrimSpace(*command), res.Decision, res.Source)
	if res.Risk != "" {
		fmt.Fprintf(stdout, ", risk %s", res.Risk)
	}
	fmt.Fprintf(stdout, ", %s, prompt %s)\n  %s\n", time.Since(start).Round(time.Millisecond), j.PromptVersion(), res.Reason)
	if res.Source == hook.SourceFallback {
		return &exitError{code: 1}
	}
	return nil
}

func runJudgeStop(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("judge stop", "judge stop", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c := &judgeserver.Client{Config: judge.Config{StateDir: statedir.Dir(os.Getenv)}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := c.Shutdown(ctx); err != nil {
		fmt.Fprintln(stdout, "no judge server running")
		return nil
	}
	fmt.Fprintln(stdout, "judge server stopped")
	return nil
}
