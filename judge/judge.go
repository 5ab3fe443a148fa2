package judge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/hookguard/hookguard/cache"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/prompts"
)

// Judge asks a model about escalated events. It is safe for concurrent use and
// implements pipeline.Judger.
type Judge struct {
	cfg     Config
	client  *openai.Client
	cache   cache.Cache
	breaker *breaker
	intents *Intents
	mode    atomic.Int32

	promptMu      sync.Mutex
	prompts       *prompts.Set
	promptFP      string
	promptChecked time.Time

	flightMu sync.Mutex
	flights  map[string]*flight

	requests   atomic.Uint64
	modelCalls atomic.Uint64
	fallbacks  atomic.Uint64
	errMu      sync.Mutex
	lastErrors []ErrorRecord
}

type flight struct {
	done chan struct{}
	res  hook.Result
}

// New builds a judge. It fails only on a broken configuration (a bad URL or an
// unreadable prompt folder).
func New(cfg Config) (*Judge, error) {
	cfg = cfg.WithDefaults()
	if cfg.BaseURL == "" {
		return nil, errors.New("judge: no endpoint url")
	}
	u, err := NormalizeBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	cfg.BaseURL = u
	set, err := prompts.Load(cfg.PromptsDir)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	} else {
		oc.HTTPClient = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 5 * time.Second,
			ForceAttemptHTTP2:   true,
		}}
	}
	j := &Judge{
		cfg:      cfg,
		client:   openai.NewClientWithConfig(oc),
		breaker:  newBreaker(cfg.Breaker, cfg.Now),
		intents:  cfg.Intents,
		prompts:  set,
		promptFP: prompts.Fingerprint(cfg.PromptsDir),
		flights:  map[string]*flight{},
	}
	j.promptChecked = cfg.Now()
	if j.intents == nil {
		j.intents = NewIntents(IntentTTL, cfg.Now)
	}
	switch {
	case cfg.NoCache:
	case cfg.Cache != nil:
		j.cache = cfg.Cache
	default:
		var store *cache.Store
		if cfg.StateDir != "" {
			if store, err = cache.OpenStore(cfg.StateDir, cfg.Now); err != nil {
				cfg.Logf("judge: persistent cache off: %v", err)
				store = nil
			}
		}
		j.cache = cache.NewTiered(cache.NewMemory(4096, cfg.Now), store)
	}
	j.loadMode()
	return j, nil
}

// PromptVersion is the hash of the prompt set in use.
func (j *Judge) PromptVersion() string { return j.promptSet().Version }

// Model is the model name.
func (j *Judge) Model() string { return j.cfg.Model }

// BaseURL is the endpoint.
func (j *Judge) BaseURL() string { return j.cfg.BaseURL }

// Config returns the effective configuration (defaults applied).
func (j *Judge) Config() Config { return j.cfg }

// promptSet returns the prompts, reloading an override folder whose files
// changed (checked at most once a second).
func (j *Judge) promptSet() *prompts.Set {
	j.promptMu.Lock()
	defer j.promptMu.Unlock()
	if j.cfg.PromptsDir == "" || j.cfg.Now().Sub(j.promptChecked) < time.Second {
		return j.prompts
	}
	j.promptChecked = j.cfg.Now()
	if fp := prompts.Fingerprint(j.cfg.PromptsDir); fp != j.promptFP {
		set, err := prompts.Load(j.cfg.PromptsDir)
		if err != nil {
			j.recordError("reload prompts: " + err.Error())
		} else {
			j.prompts, j.promptFP = set, fp
			j.cfg.Logf("judge: prompts changed, now version %s", set.Version)
		}
	}
	return j.prompts
}

// RememberIntent implements pipeline.Judger: the user's prompt is kept in memory
// (redacted) for later judgments in the same conversation.
func (j *Judge) RememberIntent(_ context.Context, ev *hook.Event) {
	if ev == nil || ev.ConversationID == "" || strings.TrimSpace(ev.Prompt) == "" {
		return
	}
	prompt := ev.Prompt
	if j.cfg.Redact != nil {
		prompt = j.cfg.Redact(prompt)
	}
	j.intents.Remember(ev.ConversationID, text.Truncate(prompt, MaxIntent))
}

// Intents is the judge's memory of user requests.
func (j *Judge) Intents() *Intents { return j.intents }

// Decide judges a prepared input: cache, then the breaker, then the model.
// Concurrent calls for the same key share one model call.
func (j *Judge) Decide(ctx context.Context, in Input) hook.Result {
	j.requests.Add(1)
	if in.Intent == "" && in.ConversationID != "" {
		in.Intent = j.intents.Get(in.ConversationID)
	}
	if in.Intent == "" {
		in.Intent = in.TranscriptIntent
	}
	in.TranscriptIntent = ""
	set := j.promptSet()
	key := Key(in, set.Version, j.cfg.Model, j.cfg.BaseURL)
	if res, ok := j.fromCache(key, in); ok {
		return res
	}
	j.flightMu.Lock()
	if f, ok := j.flights[key]; ok {
		j.flightMu.Unlock()
		select {
		case <-f.done:
			res := f.res
			if res.Source == hook.SourceJudge {
				res.Source = hook.SourceCache
				res.JudgeTokens, res.JudgeLatencyMS = 0, 0
			}
			return enforce(res, in)
		case <-ctx.Done():
			return j.fallback(in, set.Version, "the request was cancelled")
		}
	}
	f := &flight{done: make(chan struct{})}
	j.flights[key] = f
	j.flightMu.Unlock()
	defer func() {
		j.flightMu.Lock()
		delete(j.flights, key)
		j.flightMu.Unlock()
		close(f.done)
	}()
	// Another caller may have finished between the cache miss and the flight.
	if res, ok := j.fromCache(key, in); ok {
		f.res = res
		return res
	}
	f.res = j.decideUncached(ctx, in, set, key)
	return enforce(f.res, in)
}

func (j *Judge) fromCache(key string, in Input) (hook.Result, bool) {
	if j.cache == nil {
		return hook.Result{}, false
	}
	e, ok := j.cache.Get(key)
	if !ok {
		return hook.Result{}, false
	}
	d, err := hook.ParseDecision(e.Decision, false)
	if err != nil {
		return hook.Result{}, false
	}
	return enforce(hook.Result{Decision: d, Source: hook.SourceCache, Risk: e.Risk, Reason: e.Reason, PromptVersion: e.PromptVersion}, in), true
}

// enforce makes sure only allow, ask and deny leave the judge. (That a
// flagged event is never allowed is enforced by the pipeline, for every judge.)
func enforce(res hook.Result, _ Input) hook.Result {
	switch res.Decision {
	case hook.Allow, hook.Ask, hook.Deny:
	default:
		res.Decision = hook.Deny
	}
	return res
}

func (j *Judge) decideUncached(ctx context.Context, in Input, set *prompts.Set, key string) hook.Result {
	probe, wait, err := j.breaker.allow()
	if err != nil {
		why := "the circuit breaker is open after repeated failures"
		if st := j.breaker.status(); st.Why != "" {
			why += " (" + st.Why + ")"
		}
		if wait > 0 {
			why += fmt.Sprintf("; next try in %s", wait.Round(time.Second))
		}
		return j.fallback(in, set.Version, why)
	}
	nonce, err := newNonce(in)
	if err != nil {
		j.breaker.done(probe, context.Canceled, 0, "")
		return j.fallback(in, set.Version, "internal error: "+err.Error())
	}
	system, user, err := set.Render(systemData(in, nonce), eventData(in, nonce))
	if err != nil {
		j.breaker.done(probe, context.Canceled, 0, "")
		j.recordError(err.Error())
		return j.fallback(in, set.Version, "the prompt templates are broken")
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, j.cfg.Timeout)
	defer cancel()
	var (
		v   Verdict
		u   usage
		ce  *callError
		try int
	)
	for {
		try++
		j.modelCalls.Add(1)
		v, u, ce = j.ask(ctx, system, user, set.Schema)
		if ce == nil || !ce.Retry || try > 1 || probe || ctx.Err() != nil {
			break
		}
		// One quick retry, only when at least half of the budget is left.
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) < j.cfg.Timeout/2 {
			break
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	latency := time.Since(start)
	if ce != nil {
		if errors.Is(ce.Err, context.Canceled) {
			j.breaker.done(probe, context.Canceled, 0, "")
			return j.fallback(in, set.Version, "the request was cancelled")
		}
		what := ce.What
		if ctx.Err() == context.DeadlineExceeded {
			what = fmt.Sprintf("the model did not answer within %s", j.cfg.Timeout)
		}
		j.breaker.done(probe, ce, ce.Hold, what)
		j.recordError(what)
		return j.fallback(in, set.Version, what)
	}
	j.breaker.done(probe, nil, 0, "")
	res := hook.Result{
		Decision: v.Decision, Source: hook.SourceJudge, Risk: v.Risk, Reason: v.Reason,
		PromptVersion: set.Version, JudgeTokens: u.Tokens,
		JudgeLatencyMS: float64(latency.Microseconds()) / 1000,
	}
	if j.cache != nil {
		ttl := j.cfg.TTL[v.Decision]
		if t, ok := in.TTL[v.Decision]; ok {
			ttl = t
		}
		if ttl > 0 {
			now := j.cfg.Now()
			j.cache.Put(key, cache.Entry{
				Decision: string(v.Decision), Risk: v.Risk, Reason: v.Reason,
				PromptVersion: set.Version, Model: j.cfg.Model, Created: now, Expires: now.Add(ttl),
			})
		}
	}
	return res
}

// fallback is the answer when the judge could not give one. It says so, so
// that nobody takes an outage for a verdict on their command.
func (j *Judge) fallback(in Input, pv, why string) hook.Result {
	j.fallbacks.Add(1)
	d := j.cfg.Fallback
	if in.Fallback != "" {
		d = sanitizeFallback(in.Fallback)
	}
	return hook.Result{
		Decision:      d,
		Source:        hook.SourceFallback,
		Reason:        fmt.Sprintf("the judge was unavailable (%s), so hookguard answered its fallback %q; this is not a verdict on the action", why, d),
		PromptVersion: pv,
	}
}

// Fallback builds the fallback answer for callers that could not reach a
// judge at all (the judge-server client).
func Fallback(d hook.Decision, why string) hook.Result {
	d = sanitizeFallback(d)
	return hook.Result{
		Decision: d,
		Source:   hook.SourceFallback,
		Reason:   fmt.Sprintf("the judge was unavailable (%s), so hookguard answered its fallback %q; this is not a verdict on the action", why, d),
	}
}

func newNonce(in Input) (string, error) {
	for range 4 {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("make fence nonce: %w", err)
		}
		n := hex.EncodeToString(b[:])
		if !inputContains(in, n) {
			return n, nil
		}
	}
	return "", errors.New("make fence nonce: input keeps containing it")
}

func inputContains(in Input, s string) bool {
	fields := []string{in.Command, in.Server, in.Tool, in.ToolInput, in.FilePath, in.Content, in.Cwd, in.Intent, in.Instructions}
	fields = append(fields, in.WorkspaceRoots...)
	fields = append(fields, in.Escalations...)
	for _, p := range in.Parts {
		fields = append(fields, p.Text)
	}
	for _, f := range fields {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

func systemData(in Input, nonce string) prompts.SystemData {
	return prompts.SystemData{Nonce: nonce, Instructions: in.Instructions}
}

func eventData(in Input, nonce string) prompts.EventData {
	return prompts.EventData{
		Nonce: nonce, EventName: in.EventName, Kind: string(in.Kind),
		Command: in.Command, Parts: in.Parts, Server: in.Server, Tool: in.Tool,
		ToolInput: in.ToolInput, FilePath: in.FilePath, Content: in.Content,
		Cwd: in.Cwd, WorkspaceRoots: in.WorkspaceRoots, Escalations: in.Escalations,
		Flagged: in.Flagged, Intent: in.Intent, Sources: in.Sources, Facts: in.Facts,
	}
}

// ErrorRecord is one recent judge failure, without event data.
type ErrorRecord struct {
	Time    time.Time `json:"time"`
	Message string    `json:"message"`
}

func (j *Judge) recordError(msg string) {
	j.cfg.Logf("judge: %s", msg)
	j.errMu.Lock()
	defer j.errMu.Unlock()
	j.lastErrors = append(j.lastErrors, ErrorRecord{Time: j.cfg.Now(), Message: Sanitize(msg, 300)})
	if len(j.lastErrors) > 5 {
		j.lastErrors = j.lastErrors[len(j.lastErrors)-5:]
	}
}

// Status describes the judge for `hookguard judge status`.
type Status struct {
	Endpoint            string        `json:"endpoint"`
	Model               string        `json:"model"`
	PromptVersion       string        `json:"prompt_version"`
	PromptsDir          string        `json:"prompts_dir,omitempty"`
	AnswerMode          string        `json:"answer_mode"`
	Timeout             string        `json:"timeout"`
	Fallback            hook.Decision `json:"fallback"`
	Breaker             string        `json:"breaker"`
	BreakerWhy          string        `json:"breaker_why,omitempty"`
	OpenUntil           *time.Time    `json:"open_until,omitempty"`
	ConsecutiveFailures int           `json:"consecutive_failures"`
	Opens               int           `json:"breaker_opens"`
	Requests            uint64        `json:"requests"`
	ModelCalls          uint64        `json:"model_calls"`
	Fallbacks           uint64        `json:"fallbacks"`
	Cache               *cache.Stats  `json:"cache,omitempty"`
	Conversations       int           `json:"conversations"`
	LastErrors          []ErrorRecord `json:"last_errors,omitempty"`
}

// Status reports the breaker, the cache and recent errors.
func (j *Judge) Status() Status {
	bs := j.breaker.status()
	s := Status{
		Endpoint: j.cfg.BaseURL, Model: j.cfg.Model, PromptVersion: j.PromptVersion(),
		PromptsDir: j.cfg.PromptsDir, AnswerMode: answerMode(j.mode.Load()).String(),
		Timeout: j.cfg.Timeout.String(), Fallback: j.cfg.Fallback,
		Breaker: bs.State, BreakerWhy: bs.Why, ConsecutiveFailures: bs.ConsecutiveFailures, Opens: bs.Opens,
		Requests: j.requests.Load(), ModelCalls: j.modelCalls.Load(), Fallbacks: j.fallbacks.Load(),
		Conversations: j.intents.Len(),
	}
	if !bs.OpenUntil.IsZero() {
		t := bs.OpenUntil
		s.OpenUntil = &t
	}
	if j.cache != nil {
		cs := j.cache.Stats()
		s.Cache = &cs
	}
	j.errMu.Lock()
	s.LastErrors = append([]ErrorRecord(nil), j.lastErrors...)
	j.errMu.Unlock()
	return s
}
