package evals

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Doer sends HTTP requests; it has the shape of openai.HTTPDoer, which is how
// the judge takes its HTTP client.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

type trialKey struct{}

// trial is what the context of one trial carries down to the HTTP layer.
type trial struct {
	caseID string
	repeat int
	mu     sync.Mutex
	seq    int
	use    *JudgeUse
}

// WithTrial returns ctx carrying a case id and repeat number, so that an HTTP
// doer below the judge can key what it records, and use, which collects what
// the judge calls of this trial cost (use may be nil).
func WithTrial(ctx context.Context, caseID string, repeat int, use *JudgeUse) context.Context {
	if use == nil {
		use = &JudgeUse{}
	}
	return context.WithValue(ctx, trialKey{}, &trial{caseID: caseID, repeat: repeat, use: use})
}

// TrialOf returns the case id and repeat that ctx carries.
func TrialOf(ctx context.Context) (caseID string, repeat int, ok bool) {
	t, ok := ctx.Value(trialKey{}).(*trial)
	if !ok {
		return "", 0, false
	}
	return t.caseID, t.repeat, true
}

// Key identifies one judge call: prompt version, model, case, repeat, and the
// call's number within that trial (a judge that retries makes several).
type Key struct {
	PromptVersion string `json:"prompt_version"`
	Model         string `json:"model"`
	Case          string `json:"case"`
	Repeat        int    `json:"repeat"`
	Seq           int    `json:"seq"`
}

// String names the call for messages.
func (k Key) String() string {
	return fmt.Sprintf("prompt %s, model %s, case %s, repeat %d, call %d", k.PromptVersion, k.Model, k.Case, k.Repeat, k.Seq)
}

// Entry is one recorded judge call.
type Entry struct {
	Key
	URL string `json:"url"`
	// Request is the request body (JSON).
	Request json.RawMessage `json:"request"`
	Status  int             `json:"status"`
	// Response is the response body when it is JSON; ResponseText otherwise.
	Response     json.RawMessage `json:"response,omitempty"`
	ResponseText string          `json:"response_text,omitempty"`
	LatencyMS    float64         `json:"latency_ms"`
}

// Cassette is a set of recorded judge calls, stored as JSON lines.
type Cassette struct {
	mu      sync.Mutex
	entries map[Key]*Entry
}

// NewCassette returns an empty cassette.
func NewCassette() *Cassette { return &Cassette{entries: map[Key]*Entry{}} }

// LoadCassette reads a cassette written by Save.
func LoadCassette(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load cassette: %w", err)
	}
	defer f.Close()
	c := NewCassette()
	br := bufio.NewReader(f)
	for line := 1; ; line++ {
		data, err := readLine(br)
		if len(bytes.TrimSpace(data)) > 0 {
			var e Entry
			if uerr := json.Unmarshal(data, &e); uerr != nil {
				return nil, fmt.Errorf("load cassette: %s:%d: %w", path, line, uerr)
			}
			c.entries[e.Key] = &e
		}
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("load cassette: %s:%d: %w", path, line, err)
		}
	}
}

// Len is the number of recorded calls.
func (c *Cassette) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// PromptVersions lists the prompt versions the cassette holds calls for.
func (c *Cassette) PromptVersions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]bool{}
	for k := range c.entries {
		seen[k.PromptVersion] = true
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Models lists the models the cassette holds calls for.
func (c *Cassette) Models() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]bool{}
	for k := range c.entries {
		seen[k.Model] = true
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (c *Cassette) put(e *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[e.Key] = e
}

func (c *Cassette) get(k Key) (*Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	return e, ok
}

// Save writes the cassette as JSON lines in a stable order, so that two
// recordings diff well.
func (c *Cassette) Save(path string) error {
	c.mu.Lock()
	list := make([]*Entry, 0, len(c.entries))
	for _, e := range c.entries {
		list = append(list, e)
	}
	c.mu.Unlock()
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i].Key, list[j].Key
		switch {
		case a.PromptVersion != b.PromptVersion:
			return a.PromptVersion < b.PromptVersion
		case a.Model != b.Model:
			return a.Model < b.Model
		case a.Case != b.Case:
			return a.Case < b.Case
		case a.Repeat != b.Repeat:
			return a.Repeat < b.Repeat
		}
		return a.Seq < b.Seq
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range list {
		if err := enc.Encode(e); err != nil {
			return fmt.Errorf("save cassette: %w", err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("save cassette: %w", err)
	}
	return nil
}

// Meter is the HTTP doer the eval puts under the judge: it passes requests to
// Next, counts calls, tokens and latency for the trial in the request's
// context, and records every call into Record when that is set.
type Meter struct {
	Next          Doer
	PromptVersion string
	Record        *Cassette
}

// Do implements Doer.
func (m *Meter) Do(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	t := trialFrom(req.Context())
	start := time.Now()
	resp, err := m.Next.Do(req)
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		t.count(nil, ms)
		return nil, err
	}
	data, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr != nil {
		return nil, fmt.Errorf("read judge response: %w", rerr)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	t.count(data, ms)
	if m.Record != nil {
		e := &Entry{Key: t.key(m.PromptVersion, body), URL: req.URL.String(), Request: asJSON(body), Status: resp.StatusCode, LatencyMS: ms}
		if json.Valid(data) {
			e.Response = append(json.RawMessage(nil), data...)
		} else {
			e.ResponseText = string(data)
		}
		m.Record.put(e)
	}
	return resp, nil
}

// ErrCassetteMiss is returned by a Replay doer for a call it has no answer for;
// the judge treats it like an outage (fallback).
var ErrCassetteMiss = errors.New("cassette has no recorded answer")

// Replay answers judge calls from a cassette, offline. Calls are matched by
// prompt version, model, case, repeat and call number; a request whose body
// differs from the recorded one is still answered and counted as changed.
type Replay struct {
	Cassette      *Cassette
	PromptVersion string
}

// Do implements Doer.
func (r *Replay) Do(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	t := trialFrom(req.Context())
	k := t.key(r.PromptVersion, body)
	e, ok := r.Cassette.get(k)
	if !ok || !sameJSON(e.Request, body) {
		// The judge may make its calls in another order than when recording
		// (an answer mode learned by another case first): prefer the call of
		// this trial with the same request.
		for seq := 0; ; seq++ {
			k2 := k
			k2.Seq = seq
			e2, ok2 := r.Cassette.get(k2)
			if !ok2 {
				break
			}
			if sameJSON(e2.Request, body) {
				e, ok = e2, true
				break
			}
		}
	}
	if !ok {
		t.miss()
		return nil, fmt.Errorf("%w for %s", ErrCassetteMiss, k)
	}
	if !sameJSON(e.Request, body) {
		t.changed()
	}
	data := []byte(e.ResponseText)
	if len(e.Response) > 0 {
		data = e.Response
	}
	t.count(data, e.LatencyMS)
	status := e.Status
	if status == 0 {
		status = http.StatusOK
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(data)),
		ContentLength: int64(len(data)),
		Request:       req,
	}, nil
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read judge request: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return body, nil
}

func trialFrom(ctx context.Context) *trial {
	if t, ok := ctx.Value(trialKey{}).(*trial); ok {
		return t
	}
	return &trial{use: &JudgeUse{}}
}

// key numbers the calls of one trial in the order they are made.
func (t *trial) key(promptVersion string, body []byte) Key {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	t.mu.Lock()
	seq := t.seq
	t.seq++
	t.mu.Unlock()
	return Key{PromptVersion: promptVersion, Model: req.Model, Case: t.caseID, Repeat: t.repeat, Seq: seq}
}

func (t *trial) count(resp []byte, ms float64) {
	var body struct {
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if resp != nil {
		_ = json.Unmarshal(resp, &body)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.use.Calls++
	t.use.InputTokens += body.Usage.PromptTokens
	t.use.OutputTokens += body.Usage.CompletionTokens
	t.use.LatencyMS = append(t.use.LatencyMS, ms)
}

func (t *trial) miss() {
	t.mu.Lock()
	t.use.Misses++
	t.mu.Unlock()
}

func (t *trial) changed() {
	t.mu.Lock()
	t.use.Changed++
	t.mu.Unlock()
}

func asJSON(b []byte) json.RawMessage {
	if json.Valid(b) {
		return append(json.RawMessage(nil), b...)
	}
	s, _ := json.Marshal(string(b))
	return s
}

// sameJSON compares two request bodies ignoring formatting and the judge's
// random fence nonce (24 hex digits), which differs on every call.
func sameJSON(a, b []byte) bool {
	return canon(a) == canon(b)
}

// nonceRE is compiled on first use: package init runs in every hook process.
var nonceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-f]{24}\b`) })

func canon(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return strings.TrimSpace(string(b))
	}
	out, _ := json.Marshal(v)
	out = nonceRE().ReplaceAll(out, []byte("NONCE"))
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}
