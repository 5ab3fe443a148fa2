package judgeserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
)

// DefaultWait is how long a hook waits for a server (including starting one)
// before it judges in-process.
const DefaultWait = 400 * time.Millisecond

// Client sends escalated events to the judge server and implements
// pipeline.Judger. When no server answers it starts one (detached) and, if that
// does not answer within Wait, judges in-process with the persistent cache.
type Client struct {
	// Config is the resolved judge configuration; Config.StateDir locates the server.
	Config judge.Config
	// Redact removes secrets from user requests before they leave the process.
	Redact func(string) string
	// Exe is the binary started as `Exe serve`; "" uses os.Executable.
	Exe string
	// Wait bounds reaching the server (default DefaultWait).
	Wait time.Duration
	// NoSpawn never starts a server (HOOKGUARD_JUDGE_SERVER=off judges in-process).
	NoSpawn bool
	// Logf receives diagnostics; nil discards them.
	Logf func(format string, args ...any)

	once      sync.Once
	local     *judge.Judge
	lerr      error
	buildOnce sync.Once
	build     string
}

func (c *Client) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

func (c *Client) wait() time.Duration {
	if c.Wait > 0 {
		return c.Wait
	}
	return DefaultWait
}

// Decide implements pipeline.Judger: in is judged by the server, or
// in-process when the server cannot be reached.
func (c *Client) Decide(ctx context.Context, in judge.Input) hook.Result {
	if c.NoSpawn || !serverSupported {
		return c.judgeLocal(ctx, in, "")
	}
	conn, err := c.connect(ctx, true)
	if err != nil {
		c.logf("judge server unreachable (%v); judging in-process", err)
		return c.judgeLocal(ctx, in, err.Error())
	}
	defer conn.Close()
	cfg := c.Config.WithDefaults()
	// The server spends at most the judge's budget; allow for the hop.
	resp, err := c.roundTrip(conn, request{Request: resident.Request{Op: OpJudge}, Config: wireConfig(cfg), Input: &in}, cfg.Timeout+time.Second)
	if err != nil {
		c.logf("judge server: %v", err)
		fb := cfg.Fallback
		if in.Fallback != "" {
			fb = in.Fallback
		}
		return judge.Fallback(fb, "the judge server failed: "+text.OneLine(err.Error()))
	}
	if resp.Error != "" || resp.Result == nil {
		c.logf("judge server: %s; judging in-process", resp.Error)
		return c.judgeLocal(ctx, in, resp.Error)
	}
	return *resp.Result
}

// RememberIntent implements pipeline.Judger: the user's prompt (redacted) goes to
// the server, which keeps it for later judgments in the same conversation.
func (c *Client) RememberIntent(ctx context.Context, ev *hook.Event) {
	if ev == nil || ev.ConversationID == "" || strings.TrimSpace(ev.Prompt) == "" || c.NoSpawn || !serverSupported {
		return
	}
	prompt := ev.Prompt
	if c.Redact != nil {
		prompt = c.Redact(text.Truncate(prompt, 8000))
	}
	conn, err := c.connect(ctx, true)
	if err != nil {
		c.logf("judge server unreachable, user request not remembered: %v", err)
		return
	}
	defer conn.Close()
	if _, err := c.roundTrip(conn, request{Request: resident.Request{Op: OpIntent}, Conversation: ev.ConversationID, Text: text.Truncate(prompt, 2000)}, time.Second); err != nil {
		c.logf("remember user request: %v", err)
	}
}

// Status asks a running server for its status; it never starts one.
func (c *Client) Status(ctx context.Context) (*Status, error) {
	conn, err := c.connect(ctx, false)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	resp, err := c.roundTrip(conn, request{Request: resident.Request{Op: OpStatus}}, 3*time.Second)
	if err != nil {
		return nil, err
	}
	if resp.Error != "" || resp.Status == nil {
		return nil, fmt.Errorf("judge server: %s", resp.Error)
	}
	return resp.Status, nil
}

// Shutdown asks a running server to exit.
func (c *Client) Shutdown(ctx context.Context) error {
	conn, err := c.connect(ctx, false)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = c.roundTrip(conn, request{Request: resident.Request{Op: OpShutdown}}, 3*time.Second)
	return err
}

// Local returns the in-process judge used when the server cannot be reached.
func (c *Client) Local() (*judge.Judge, error) {
	c.once.Do(func() {
		cfg := c.Config
		cfg.Redact = c.Redact
		cfg.Logf = c.Logf
		c.local, c.lerr = judge.New(cfg)
	})
	return c.local, c.lerr
}

func (c *Client) judgeLocal(ctx context.Context, in judge.Input, why string) hook.Result {
	j, err := c.Local()
	if err != nil {
		return judge.Fallback(c.Config.Fallback, "the judge is misconfigured: "+text.OneLine(err.Error()))
	}
	_ = why
	return j.Decide(ctx, in)
}

// connect dials the server; with spawn it starts one when none answers and
// waits for it, all within Wait.
func (c *Client) connect(ctx context.Context, spawn bool) (*net.UnixConn, error) {
	if !serverSupported {
		return nil, errNoServer
	}
	// Only a state directory and socket that are ours: another local user
	// could otherwise answer for us (and read the request).
	if err := statedir.Ensure(c.Config.StateDir); err != nil {
		return nil, err
	}
	sock := SocketPath(c.Config.StateDir)
	if err := statedir.CheckFile(sock); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(c.wait())
	conn, err := dial(sock, time.Until(deadline))
	if err == nil || !spawn {
		return conn, err
	}
	if serr := c.spawn(); serr != nil {
		return nil, serr
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
		conn, err = dial(sock, time.Until(deadline))
		if err == nil {
			return conn, nil
		}
		if errors.Is(err, statedir.ErrUntrusted) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no judge server within %s: %w", c.wait(), err)
		}
	}
}

func dial(sock string, d time.Duration) (*net.UnixConn, error) {
	if d <= 0 {
		d = time.Millisecond
	}
	conn, err := net.DialTimeout("unix", sock, d)
	if err != nil {
		return nil, err
	}
	uc := conn.(*net.UnixConn)
	// The server must run as this user: check before sending anything.
	if uid, err := peerUID(uc); err != nil || uid != os.Getuid() {
		uc.Close()
		if err == nil {
			err = fmt.Errorf("%w: the judge server runs as uid %d, not as this user (%d)", statedir.ErrUntrusted, uid, os.Getuid())
		}
		return nil, err
	}
	return uc, nil
}

// Start starts `exe serve ARGS` detached for the state directory dir; it
// does not wait for the server, and a second server for the same socket
// finds the lock taken and exits. The thin hook client's fallback calls it
// (with --resident), so that the next event finds a resident evaluator.
func Start(dir, exe string, args ...string) error {
	if !serverSupported {
		return errNoServer
	}
	c := &Client{Config: judge.Config{StateDir: dir}, Exe: exe}
	return c.spawn(args...)
}

// spawn starts `hookguard serve` detached (its own session, no terminal),
// logging to the state directory. A second server started at the same time
// finds the lock taken and exits.
func (c *Client) spawn(args ...string) error {
	exe := c.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("start judge server: %w", err)
		}
	}
	if err := statedir.Ensure(c.Config.StateDir); err != nil {
		return fmt.Errorf("start judge server: %w", err)
	}
	logf, err := os.OpenFile(filepath.Join(c.Config.StateDir, LogFile), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("start judge server: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, append([]string{"serve"}, args...)...)
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOOKGUARD_START_RESIDENT=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOOKGUARD_STATE_DIR="+c.Config.StateDir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = "/"
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start judge server: %w", err)
	}
	return cmd.Process.Release()
}

func (c *Client) roundTrip(conn *net.UnixConn, req request, timeout time.Duration) (*response, error) {
	c.buildOnce.Do(func() {
		if c.build == "" {
			c.build = Build()
		}
	})
	req.Build = c.build
	_ = conn.SetDeadline(time.Now().Add(timeout))
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("send request: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, errors.New("no answer in time")
		}
		return nil, fmt.Errorf("read answer: %w", err)
	}
	var resp response
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("decode answer: %w", err)
	}
	return &resp, nil
}

// wireConfig is the part of a configuration that travels to the server.
func wireConfig(c judge.Config) judge.Config {
	// The key stays in this process: the server reads its own environment
	// (it was started with ours) and must hold the same key.
	return judge.Config{
		BaseURL: c.BaseURL, Model: c.Model, KeyDigest: judge.KeyDigest(c.APIKey), Timeout: c.Timeout,
		MaxTokens: c.MaxTokens, PromptsDir: c.PromptsDir, Fallback: c.Fallback,
		TTL: c.TTL, Breaker: c.Breaker,
	}
}
