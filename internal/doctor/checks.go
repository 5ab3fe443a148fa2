package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
)

func checkPolicy(o *Options) Check {
	if o.Policy == nil {
		return Check{ID: "policy", Status: StatusSkip, Message: "not checked"}
	}
	summary, err := o.Policy()
	if err != nil {
		return Check{ID: "policy", Status: StatusFail, Message: text.OneLine(err.Error()),
			Fix: "fix the policy file named above (`hookguard policy test` shows every failing example); until then every event is denied"}
	}
	return Check{ID: "policy", Status: StatusOK, Message: summary}
}

// judgeConfig resolves the judge the way the hook does: o.Judge when set
// (the policy's judge section under the environment), else the environment.
func judgeConfig(o *Options) (judge.Config, bool, error) {
	if o.Judge != nil {
		return o.Judge()
	}
	return judge.Resolve(judge.Settings{}, o.getenv)
}

// checkJudge asks the judge endpoint for its model list (GET /models), and
// when the server has no such route, for a one-token chat completion.
func checkJudge(ctx context.Context, o *Options) Check {
	cfg, on, err := judgeConfig(o)
	if err != nil {
		return Check{ID: "judge", Status: StatusFail, Message: "the judge configuration is invalid: " + text.OneLine(err.Error()) + "; every escalated event falls back to deny",
			Fix: "fix judge.url in the policy or HOOKGUARD_JUDGE_URL (an OpenAI-compatible base URL)"}
	}
	if !on {
		if v := strings.ToLower(o.getenv("HOOKGUARD_JUDGE")); v == "off" || v == "0" || v == "false" || v == "no" || v == "disabled" {
			return Check{ID: "judge", Status: StatusSkip, Message: "disabled (HOOKGUARD_JUDGE=off): events the rules cannot decide get the policy's unjudged answer"}
		}
		return Check{ID: "judge", Status: StatusSkip, Message: "off: no endpoint configured (HOOKGUARD_JUDGE_URL, OPENAI_BASE_URL or judge.url) or judge.disabled in the policy: events the rules cannot decide get the policy's unjudged answer"}
	}
	base, key, model := cfg.BaseURL, cfg.APIKey, cfg.Model
	client := o.HTTP
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	fixURL := "check HOOKGUARD_JUDGE_URL (an OpenAI-compatible base URL, usually ending in /v1) and that the server is up"
	start := time.Now()
	status, body, err := judgeRequest(ctx, client, http.MethodGet, base+"/models", key, nil)
	if err == nil && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) && model != "" {
		payload, _ := json.Marshal(map[string]any{
			"model": model, "max_tokens": 1,
			"messages": []map[string]string{{"role": "user", "content": "ping"}},
		})
		status, body, err = judgeRequest(ctx, client, http.MethodPost, base+"/chat/completions", key, payload)
	}
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case err != nil:
		return Check{ID: "judge", Subject: base, Status: StatusFail, Message: "does not answer: " + text.OneLine(err.Error()) + "; escalated events fall back to deny", Fix: fixURL}
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return Check{ID: "judge", Subject: base, Status: StatusFail, Message: fmt.Sprintf("rejects the key (HTTP %d)", status), Fix: "set HOOKGUARD_JUDGE_KEY (or OPENAI_API_KEY) to a valid key, in the environment, never in a committed file"}
	case status >= 300:
		return Check{ID: "judge", Subject: base, Status: StatusFail, Message: fmt.Sprintf("answers HTTP %d: %s", status, text.Truncate(text.OneLine(string(body)), 160)), Fix: fixURL}
	}
	msg := fmt.Sprintf("answers in %v", took)
	if model != "" && bytes.Contains(body, []byte(`"data"`)) && !bytes.Contains(body, []byte(`"`+model+`"`)) {
		return Check{ID: "judge", Subject: base, Status: StatusWarn, Message: msg + fmt.Sprintf(", but does not list model %q", model), Fix: "set HOOKGUARD_JUDGE_MODEL to one of the server's models"}
	}
	if took > 4*time.Second {
		return Check{ID: "judge", Subject: base, Status: StatusWarn, Message: msg + ": slow enough that judgments may time out and fall back to deny", Fix: "use a faster or closer endpoint"}
	}
	return Check{ID: "judge", Subject: base, Status: StatusOK, Message: msg}
}

func judgeRequest(ctx context.Context, c *http.Client, method, url, key string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, data, nil
}

// checkState checks the state directory and the audit log's permissions.
func checkState(o *Options) []Check {
	dir := o.StateDir
	if dir == "" {
		return []Check{{ID: "state", Status: StatusFail, Message: "no state directory (no home directory?)", Fix: "set HOOKGUARD_STATE_DIR"}}
	}
	fi, err := os.Stat(dir)
	if os.IsNotExist(err) {
		return []Check{{ID: "state", Subject: dir, Status: StatusOK, Message: "not created yet; the first decision creates it (0700)"}}
	}
	if err != nil {
		return []Check{{ID: "state", Subject: dir, Status: StatusFail, Message: text.OneLine(err.Error()), Fix: "set HOOKGUARD_STATE_DIR to a directory you own"}}
	}
	if !fi.IsDir() {
		return []Check{{ID: "state", Subject: dir, Status: StatusFail, Message: "is not a directory", Fix: "remove it or set HOOKGUARD_STATE_DIR"}}
	}
	var out []Check
	if owner, ok := fileOwner(fi); ok && owner != os.Getuid() {
		out = append(out, Check{ID: "state", Subject: dir, Status: StatusFail, Message: fmt.Sprintf("is owned by uid %d, not you", owner), Fix: "set HOOKGUARD_STATE_DIR to a directory you own"})
	}
	if fi.Mode().Perm()&0o077 != 0 {
		out = append(out, Check{ID: "state", Subject: dir, Status: StatusFail,
			Message: fmt.Sprintf("mode %04o lets other users read the audit log and judgment cache", fi.Mode().Perm()), Fix: "chmod 700 " + dir})
	}
	if f, err := os.CreateTemp(dir, ".doctor-*"); err != nil {
		out = append(out, Check{ID: "state", Subject: dir, Status: StatusFail, Message: "is not writable, so decisions are not audited", Fix: "chmod u+w " + dir})
	} else {
		f.Close()
		os.Remove(f.Name())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "audit.jsonl*"))
	for _, p := range matches {
		if strings.HasSuffix(p, ".lock") {
			continue
		}
		if afi, err := os.Stat(p); err == nil && afi.Mode().Perm()&0o077 != 0 {
			out = append(out, Check{ID: "state", Subject: p, Status: StatusFail,
				Message: fmt.Sprintf("mode %04o lets other users read the audit log", afi.Mode().Perm()), Fix: "chmod 600 " + p})
		}
	}
	if len(out) == 0 {
		msg := "private (0700) and writable"
		if v := strings.ToLower(o.getenv("HOOKGUARD_AUDIT")); v == "off" || v == "0" || v == "false" || v == "no" {
			msg += "; the audit log is off (HOOKGUARD_AUDIT=off)"
		}
		out = append(out, Check{ID: "state", Subject: dir, Status: StatusOK, Message: msg})
	}
	return out
}
