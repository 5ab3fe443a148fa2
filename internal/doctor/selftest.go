package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/hookguard/hookguard/internal/install"
	"github.com/hookguard/hookguard/internal/text"
)

// sample is one self-test event: a command and the answer it must get.
type sample struct {
	command string
	want    string // deny, or allow (allow also accepts ask, with a warning)
}

// Samples are what the self-test pipes through each installed command.
var samples = []sample{
	{command: "rm -rf /", want: "deny"},
	{command: "git status", want: "allow"},
}

// sampleEvent builds the event an agent would send for a shell command.
func sampleEvent(dialect, command, root string) []byte {
	var ev map[string]any
	if dialect == "claude" {
		ev = map[string]any{
			"session_id": "hookguard-doctor", "transcript_path": "", "cwd": root,
			"permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command, "description": "hookguard doctor self-test"},
			"tool_use_id": "toolu_doctor",
		}
	} else {
		ev = map[string]any{
			"conversation_id": "hookguard-doctor", "generation_id": "hookguard-doctor", "model": "doctor",
			"hook_event_name": "beforeShellExecution", "cursor_version": "doctor",
			"workspace_roots": []string{root}, "user_email": nil,
			"command": command, "cwd": root,
		}
	}
	data, _ := json.Marshal(ev)
	return data
}

// answerDecision reads the decision from one hook answer in a dialect.
func answerDecision(dialect string, out []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return "", fmt.Errorf("stdout is not one JSON object: %q", text.Truncate(string(out), 120))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("stdout has more than one JSON object: %q", text.Truncate(string(out), 120))
	}
	if dialect == "claude" {
		var h struct {
			HookSpecificOutput struct {
				PermissionDecision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		_ = json.Unmarshal(out, &h)
		if d := h.HookSpecificOutput.PermissionDecision; d != "" {
			return d, nil
		}
		return "allow", nil // no opinion: Claude Code's own permission flow decides
	}
	var p struct {
		Permission string `json:"permission"`
	}
	_ = json.Unmarshal(out, &p)
	if p.Permission == "" {
		return "", fmt.Errorf("answer has no permission: %s", text.Truncate(string(out), 120))
	}
	return p.Permission, nil
}

// runHookCommand runs a hook command the way the agent does: through the
// shell, from the hooks file's base directory, with the event on stdin.
func runHookCommand(ctx context.Context, o *Options, ic installedCommand, event []byte) (stdout, stderr []byte, code int, took time.Duration, err error) {
	timeout := o.SelfTestTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		args := install.CommandArgs(ic.Command)
		cmd = exec.CommandContext(cctx, args[0], args[1:]...)
	} else {
		cmd = exec.CommandContext(cctx, "/bin/sh", "-c", ic.Command)
	}
	cmd.Dir = ic.Target.BaseDir
	if fi, serr := os.Stat(cmd.Dir); serr != nil || !fi.IsDir() {
		cmd.Dir = o.ProjectRoot
	}
	// The self-test must not pollute the audit log or spend judge calls: the
	// samples are clear cases that the rules decide on their own.
	cmd.Env = append(os.Environ(), "HOOKGUARD_AUDIT=off", "HOOKGUARD_JUDGE=off", "CLAUDE_PROJECT_DIR="+o.ProjectRoot)
	cmd.Stdin = bytes.NewReader(event)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	err = cmd.Run()
	took = time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return so.Bytes(), se.Bytes(), ee.ExitCode(), took, nil
	}
	if cctx.Err() != nil {
		return so.Bytes(), se.Bytes(), -1, took, fmt.Errorf("timed out after %v", timeout)
	}
	return so.Bytes(), se.Bytes(), 0, took, err
}

func selfTest(ctx context.Context, o *Options, installed []installedCommand) []Check {
	var out []Check
	seen := map[string]bool{}
	for _, ic := range installed {
		if seen[ic.Command+"\x00"+ic.Dialect] {
			continue
		}
		seen[ic.Command+"\x00"+ic.Dialect] = true
		for _, s := range samples {
			subject := fmt.Sprintf("%s [%s] %q", ic.Command, ic.Dialect, s.command)
			stdout, stderr, code, took, err := runHookCommand(ctx, o, ic, sampleEvent(ic.Dialect, s.command, o.ProjectRoot))
			fix := "run the command by hand: echo '<event json>' | " + ic.Command + "; then `hookguard install" + scopeFlag(ic.Target) + "`"
			if err != nil {
				out = append(out, Check{ID: "selftest", Subject: subject, Status: StatusFail, Message: text.OneLine(err.Error()), Fix: fix})
				continue
			}
			got, derr := answerDecision(ic.Dialect, stdout)
			switch {
			case derr != nil:
				out = append(out, Check{ID: "selftest", Subject: subject, Status: StatusFail,
					Message: fmt.Sprintf("exit %d, %s; stderr: %s", code, derr, text.Truncate(text.OneLine(string(stderr)), 200)), Fix: fix})
				continue
			case code != 0 && !(code == 2 && got == "deny"):
				out = append(out, Check{ID: "selftest", Subject: subject, Status: StatusFail,
					Message: fmt.Sprintf("exit %d (answer %s); stderr: %s", code, got, text.Truncate(text.OneLine(string(stderr)), 200)), Fix: fix})
				continue
			}
			ms := took.Round(time.Millisecond)
			switch {
			case got == s.want:
				c := Check{ID: "selftest", Subject: subject, Status: StatusOK, Message: fmt.Sprintf("%s in %v", got, ms)}
				if took > 2*time.Second {
					c.Status = StatusWarn
					c.Message += ": slow for a rules-only decision"
					c.Fix = "check the policy for expensive patterns (`hookguard policy test`)"
				}
				out = append(out, c)
			case s.want == "allow" && got == "ask":
				out = append(out, Check{ID: "selftest", Subject: subject, Status: StatusWarn,
					Message: fmt.Sprintf("ask in %v: a routine command is not allowed outright, so expect approval prompts", ms),
					Fix:     "check the policy's defaults and allow rules (`hookguard policy test`)"})
			default:
				out = append(out, Check{ID: "selftest", Subject: subject, Status: StatusFail,
					Message: fmt.Sprintf("answered %s, want %s", got, s.want), Fix: "check the policy (`hookguard policy test`) and the hook command"})
			}
		}
	}
	return out
}
