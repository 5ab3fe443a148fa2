package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/hookguard/hookguard/internal/statedir"
)

// answerMode is how the judge asks for structured output. Servers differ: the
// judge starts with a strict JSON schema, falls back to JSON mode, then to
// plain text (parsing the first JSON object), and remembers what worked per
// endpoint.
type answerMode int32

const (
	modeSchema answerMode = iota
	modeJSON
	modePlain
)

func (m answerMode) String() string {
	switch m {
	case modeSchema:
		return "json_schema"
	case modeJSON:
		return "json_object"
	}
	return "plain"
}

func parseMode(s string) answerMode {
	switch s {
	case "json_object":
		return modeJSON
	case "plain":
		return modePlain
	}
	return modeSchema
}

// callError is a failed model call, classified for the breaker and the
// fallback message.
type callError struct {
	// What is a short, data-free description for people (timeout, HTTP 503…).
	What string
	// Retry says one quick retry may help.
	Retry bool
	// Hold keeps the breaker open at least this long (Retry-After).
	Hold time.Duration
	// Status is the HTTP status, 0 when there was none.
	Status int
	Err    error
}

func (e *callError) Error() string { return e.What }
func (e *callError) Unwrap() error { return e.Err }

// classify turns a go-openai error into a callError.
func classify(ctx context.Context, err error, header http.Header, now time.Time) *callError {
	ce := &callError{Err: err}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled:
		ce.What = "the request was cancelled"
		ce.Err = context.Canceled
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		ce.What = "the model did not answer in time"
	case errors.As(err, &apiErr):
		ce.Status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		ce.Status = reqErr.HTTPStatusCode
	case isDecodeError(err):
		ce.What, ce.Retry = "the endpoint sent a malformed response", true
	case errors.Is(err, syscall.ECONNREFUSED):
		ce.What, ce.Retry = "the endpoint refused the connection", true
	default:
		var netErr net.Error
		var opErr *net.OpError
		if errors.As(err, &opErr) || errors.As(err, &netErr) {
			ce.What, ce.Retry = "could not reach the endpoint", true
		} else {
			ce.What, ce.Retry = "the request failed", true
		}
	}
	if ce.Status != 0 {
		switch {
		case ce.Status == http.StatusTooManyRequests:
			ce.What = "the endpoint is rate limiting (HTTP 429)"
			ce.Hold = retryAfter(header, now)
			if ce.Hold > 0 {
				ce.What += fmt.Sprintf(", retry after %s", ce.Hold.Round(time.Second))
			}
		case ce.Status >= 500:
			ce.What, ce.Retry = fmt.Sprintf("the endpoint failed (HTTP %d)", ce.Status), true
			ce.Hold = retryAfter(header, now)
		case ce.Status == http.StatusUnauthorized || ce.Status == http.StatusForbidden:
			ce.What = fmt.Sprintf("the endpoint refused the key (HTTP %d)", ce.Status)
		default:
			ce.What = fmt.Sprintf("the endpoint rejected the request (HTTP %d)", ce.Status)
		}
	}
	return ce
}

func isDecodeError(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// retryAfter reads Retry-After (seconds or an HTTP date), capped at 10 minutes.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 {
		d = time.Duration(n * float64(time.Second))
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	return min(d, 10*time.Minute)
}

// usage is what one successful call cost.
type usage struct {
	Tokens int
}

// isReasoningModel reports model names that go-openai checks client-side and
// that take max_completion_tokens and no temperature.
func isReasoningModel(m string) bool {
	m = strings.ToLower(m)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// buildRequest assembles the chat completion request for mode.
func (j *Judge) buildRequest(system, user string, schema json.RawMessage, mode answerMode) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model: j.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		// go-openai drops a temperature of 0 (omitempty); the smallest
		// non-zero float is greedy decoding in practice and is sent.
		Temperature: math.SmallestNonzeroFloat32,
		MaxTokens:   j.cfg.MaxTokens,
	}
	if isReasoningModel(j.cfg.Model) {
		req.Temperature = 0
		req.MaxTokens = 0
		req.MaxCompletionTokens = j.cfg.MaxTokens * 4
	}
	switch mode {
	case modeSchema:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: "verdict", Schema: schema, Strict: true,
			},
		}
	case modeJSON:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return req
}

// ask makes one model call (stepping down the answer modes when the server
// rejects one) and validates the answer.
func (j *Judge) ask(ctx context.Context, system, user string, schema json.RawMessage) (Verdict, usage, *callError) {
	mode := answerMode(j.mode.Load())
	for {
		req := j.buildRequest(system, user, schema, mode)
		resp, err := j.client.CreateChatCompletion(ctx, req)
		if err != nil {
			ce := classify(ctx, err, resp.Header(), j.cfg.Now())
			// A 400/422 in a structured mode is most likely the server not
			// supporting it: step down, within the same deadline.
			if (ce.Status == http.StatusBadRequest || ce.Status == http.StatusUnprocessableEntity) && mode < modePlain && ctx.Err() == nil {
				mode++
				continue
			}
			return Verdict{}, usage{}, ce
		}
		if mode != answerMode(j.mode.Load()) {
			j.rememberMode(mode)
		}
		if len(resp.Choices) == 0 {
			return Verdict{}, usage{}, &callError{What: "bad answer from the model: no choices", Retry: true, Err: badAnswer("no choices")}
		}
		ch := resp.Choices[0]
		u := usage{Tokens: resp.Usage.TotalTokens}
		if ch.Message.Refusal != "" {
			return Verdict{}, u, &callError{What: "the model refused to answer", Err: badAnswer("refusal")}
		}
		v, perr := ParseVerdict(ch.Message.Content, string(ch.FinishReason))
		if perr != nil {
			return Verdict{}, u, &callError{What: perr.Error(), Retry: true, Err: perr}
		}
		return v, u, nil
	}
}

// modeFile remembers, per endpoint, which answer mode works.
const modeFile = "endpoints.json"

var modeFileMu sync.Mutex

func (j *Judge) endpointKey() string { return j.cfg.BaseURL + " " + j.cfg.Model }

func (j *Judge) loadMode() {
	if j.cfg.StateDir == "" {
		return
	}
	b, err := os.ReadFile(filepath.Join(j.cfg.StateDir, modeFile))
	if err != nil {
		return
	}
	var m map[string]string
	if json.Unmarshal(b, &m) == nil {
		if s, ok := m[j.endpointKey()]; ok {
			j.mode.Store(int32(parseMode(s)))
		}
	}
}

func (j *Judge) rememberMode(m answerMode) {
	j.mode.Store(int32(m))
	j.cfg.Logf("judge: %s answers in %s mode", j.cfg.Endpoint(), m)
	if j.cfg.StateDir == "" {
		return
	}
	modeFileMu.Lock()
	defer modeFileMu.Unlock()
	path := filepath.Join(j.cfg.StateDir, modeFile)
	all := map[string]string{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &all)
	}
	all[j.endpointKey()] = m.String()
	b, _ := json.MarshalIndent(all, "", "  ")
	if err := writeFileAtomic(path, b); err != nil {
		j.cfg.Logf("judge: remember answer mode: %v", err)
	}
}

// writeFileAtomic writes a 0600 file through a temporary file and a rename.
func writeFileAtomic(path string, b []byte) error {
	if err := statedir.Ensure(filepath.Dir(path)); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
