package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/hookguard/hookguard/cache"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/statedir"
)

// Defaults. The whole hook must answer well inside Cursor's hook timeout, so
// the judge's total budget (every attempt and the retry included) is 8s.
const (
	DefaultTimeout   = 8 * time.Second
	MaxTimeout       = 25 * time.Second
	DefaultMaxTokens = 300
	DefaultModel     = "gpt-4o-mini"
	DefaultBaseURL   = "https://api.openai.com/v1"
)

// DefaultTTL is how long a verdict is reused, per decision.
var DefaultTTL = map[hook.Decision]time.Duration{
	hook.Allow: 24 * time.Hour,
	hook.Ask:   24 * time.Hour,
	hook.Deny:  7 * 24 * time.Hour,
}

// Config configures a Judge.
type Config struct {
	// BaseURL is the OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1.
	BaseURL string `json:"base_url"`
	// Model is the model name sent with every request.
	Model string `json:"model"`
	// APIKey is sent as a bearer token; empty sends no Authorization header.
	APIKey string `json:"api_key,omitempty"`
	// KeyDigest stands for APIKey where the key itself must not travel (to
	// the judge server, which reads the key from its own environment).
	KeyDigest string `json:"key_digest,omitempty"`
	// Timeout is the total budget of one judgment, retry included (default 8s).
	Timeout time.Duration `json:"timeout"`
	// MaxTokens caps the answer (default 300).
	MaxTokens int `json:"max_tokens"`
	// PromptsDir overrides the embedded prompt templates ("" for none).
	PromptsDir string `json:"prompts_dir,omitempty"`
	// Fallback answers when the judge fails: deny (default) or ask.
	Fallback hook.Decision `json:"fallback,omitempty"`
	// TTL per decision; missing decisions use DefaultTTL.
	TTL map[hook.Decision]time.Duration `json:"ttl,omitempty"`
	// StateDir holds the persistent cache and remembered endpoint quirks. ""
	// keeps everything in memory.
	StateDir string `json:"state_dir,omitempty"`
	// Breaker tunes the circuit breaker.
	Breaker BreakerSettings `json:"breaker"`

	// NoCache turns the verdict cache off (evals, judge test).
	NoCache bool `json:"-"`
	// Cache replaces the default cache (memory LRU in front of StateDir's store).
	Cache cache.Cache `json:"-"`
	// HTTPClient replaces the HTTP client, e.g. to record or replay requests.
	// The caller's context reaches it through the request.
	HTTPClient openai.HTTPDoer `json:"-"`
	// Intents replaces the judge's own memory of user requests (the judge
	// server shares one between its judges).
	Intents *Intents `json:"-"`
	// Now replaces the clock (breaker, cache expiry, intents).
	Now func() time.Time `json:"-"`
	// Redact removes secrets from text the judge gets without a policy (the
	// user's requests passed to RememberIntent). Requests use their Policy.Redact.
	Redact func(string) string `json:"-"`
	// Logf receives diagnostics (never event data); nil discards them.
	Logf func(format string, args ...any) `json:"-"`
}

// Endpoint names the model endpoint, without the key.
func (c Config) Endpoint() string { return c.Model + " at " + c.BaseURL }

// Env reads an environment variable; os.Getenv in production.
type Env func(string) string

// Settings is the judge section of a policy, as the judge understands it.
// The policy engine converts its own configuration to this (see
// pipeline.JudgeConfig), so this package never needs the policy.
type Settings struct {
	URL       string
	Model     string
	Timeout   time.Duration
	MaxTokens int
	Prompts   string
	Fallback  hook.Decision
	CacheTTL  map[hook.Decision]time.Duration
	Disabled  bool
}

// Resolve resolves the judge configuration from the environment and the
// policy's judge settings. ok is false when the judge is off: HOOKGUARD_JUDGE=off,
// judge.disabled, or no endpoint configured at all.
//
// HOOKGUARD_JUDGE_URL, HOOKGUARD_JUDGE_MODEL, HOOKGUARD_JUDGE_KEY and
// HOOKGUARD_JUDGE_TIMEOUT override the policy; OPENAI_BASE_URL and
// OPENAI_API_KEY fill in what neither sets. Setting only a model or a key
// selects OpenAI's own endpoint.
func Resolve(jc Settings, getenv Env) (cfg Config, ok bool, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch strings.ToLower(strings.TrimSpace(getenv("HOOKGUARD_JUDGE"))) {
	case "off", "0", "false", "no", "disabled":
		return Config{}, false, nil
	}
	if jc.Disabled {
		return Config{}, false, nil
	}
	first := func(vals ...string) string {
		for _, v := range vals {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
		return ""
	}
	cfg.BaseURL = first(getenv("HOOKGUARD_JUDGE_URL"), jc.URL, getenv("OPENAI_BASE_URL"))
	cfg.Model = first(getenv("HOOKGUARD_JUDGE_MODEL"), jc.Model)
	cfg.APIKey = first(getenv("HOOKGUARD_JUDGE_KEY"), getenv("OPENAI_API_KEY"))
	if cfg.BaseURL == "" {
		if cfg.Model == "" && getenv("HOOKGUARD_JUDGE_KEY") == "" {
			return Config{}, false, nil
		}
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.BaseURL, err = NormalizeBaseURL(cfg.BaseURL); err != nil {
		return Config{}, false, err
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	cfg.Timeout = time.Duration(jc.Timeout)
	if t := getenv("HOOKGUARD_JUDGE_TIMEOUT"); t != "" {
		d, perr := time.ParseDuration(t)
		if perr != nil {
			return Config{}, false, fmt.Errorf("HOOKGUARD_JUDGE_TIMEOUT: %w", perr)
		}
		cfg.Timeout = d
	}
	cfg.MaxTokens = jc.MaxTokens
	cfg.PromptsDir = first(getenv("HOOKGUARD_PROMPTS"), jc.Prompts)
	cfg.Fallback = jc.Fallback
	if len(jc.CacheTTL) > 0 {
		cfg.TTL = maps.Clone(jc.CacheTTL)
	}
	cfg.StateDir = statedir.Dir(getenv)
	return cfg.WithDefaults(), true, nil
}

// NormalizeBaseURL checks an endpoint URL and adds /v1 when it has no path
// (http://localhost:11434 → http://localhost:11434/v1), since every
// OpenAI-compatible server serves chat completions under /v1.
func NormalizeBaseURL(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("judge url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("judge url %q: want http(s)://host[:port][/path]", s)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String(), nil
}

// WithDefaults returns c with every unset field at its default.
func (c Config) WithDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Timeout > MaxTimeout {
		c.Timeout = MaxTimeout
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	c.Fallback = sanitizeFallback(c.Fallback)
	ttl := make(map[hook.Decision]time.Duration, 3)
	for d, v := range DefaultTTL {
		ttl[d] = v
	}
	for d, v := range c.TTL {
		ttl[d] = v
	}
	c.TTL = ttl
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return c
}

// sanitizeFallback allows ask; everything else (including allow) is deny.
func sanitizeFallback(d hook.Decision) hook.Decision {
	if d == hook.Ask {
		return hook.Ask
	}
	return hook.Deny
}

// EnvKey is the model key from the environment, as Resolve reads it.
func EnvKey(getenv Env) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if k := strings.TrimSpace(getenv("HOOKGUARD_JUDGE_KEY")); k != "" {
		return k
	}
	return strings.TrimSpace(getenv("OPENAI_API_KEY"))
}

// KeyDigest is a short digest of a model key that identifies it without
// revealing it ("" for no key).
func KeyDigest(key string) string {
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("hookguard-key:" + key))
	return hex.EncodeToString(sum[:8])
}
