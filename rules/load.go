package rules

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
)

// ProjectPolicyPath is where a workspace keeps its project policy.
const ProjectPolicyPath = ".cursor/hookguard.yaml"

// LoadOptions say where to find the policy files to merge over the default.
type LoadOptions struct {
	// UserPath is an explicit user policy (--policy); else $HOOKGUARD_POLICY, else
	// ~/.config/hookguard/policy.yaml when it exists.
	UserPath string
	// ProjectRoots are workspace roots whose .cursor/hookguard.yaml may add restrictions.
	ProjectRoots []string
	// NoUser skips the user policy lookup.
	NoUser bool
	// NoProject skips project policies.
	NoProject bool
	// Warn receives non-fatal problems (a project rule that tries to loosen the guard).
	Warn func(string)
}

// UserPolicyPath returns the user policy file that applies when none is given:
// $HOOKGUARD_POLICY, else $XDG_CONFIG_HOME/hookguard/policy.yaml, else
// ~/.config/hookguard/policy.yaml.
func UserPolicyPath() string {
	if p := os.Getenv("HOOKGUARD_POLICY"); p != "" {
		return p
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "hookguard", "policy.yaml")
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(h, ".config", "hookguard", "policy.yaml")
}

// Load builds the effective policy: the embedded default, then the user policy,
// then project policies (restrictions only).
func Load(opts LoadOptions) (*Policy, error) {
	pol, err := defaultPolicy()
	if err != nil {
		return nil, fmt.Errorf("embedded default policy: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(generatedDefaultHash))
	pol.Sources = []string{"default"}

	userPath, explicit := opts.UserPath, opts.UserPath != ""
	if !explicit && !opts.NoUser {
		userPath = UserPolicyPath()
		explicit = os.Getenv("HOOKGUARD_POLICY") != ""
	}
	if userPath != "" {
		data, err := os.ReadFile(userPath)
		switch {
		case err == nil:
			user, err := parsePolicy(data, userPath)
			if err != nil {
				return nil, err
			}
			pol.mergeUser(user)
			h.Write([]byte{0})
			h.Write(data)
			pol.Sources = append(pol.Sources, userPath)
		case errors.Is(err, fs.ErrNotExist) && !explicit:
		default:
			return nil, fmt.Errorf("read policy %s: %w", userPath, err)
		}
	}
	if !opts.NoProject {
		for _, root := range opts.ProjectRoots {
			if root == "" {
				continue
			}
			path := filepath.Join(root, filepath.FromSlash(ProjectPolicyPath))
			data, err := os.ReadFile(path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) {
					continue
				}
				return nil, fmt.Errorf("read project policy %s: %w", path, err)
			}
			proj, err := parsePolicy(data, path)
			if err != nil {
				// The repository's file is broken (or tries to loosen the
				// guard in a way that does not even validate): report it and
				// keep the rest of the policy in force. Nothing a repository
				// holds may make every event fail.
				if opts.Warn != nil {
					opts.Warn(fmt.Sprintf("project policy %s is not used: %s", path, text.OneLine(err.Error())))
				}
				h.Write([]byte{2})
				h.Write(data)
				continue
			}
			pol.mergeProject(proj, path, opts.Warn)
			h.Write([]byte{1})
			h.Write(data)
			pol.Sources = append(pol.Sources, path)
		}
	}
	pol.Hash = hex.EncodeToString(h.Sum(nil))[:16]
	pol.finish()
	return pol, nil
}

// ParseFile validates one policy file on its own (for `policy test`).
func ParseFile(path string) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read policy %s: %w", path, err)
	}
	p, err := parsePolicy(data, path)
	if err != nil {
		return nil, err
	}
	p.Sources = []string{path}
	p.finish()
	return p, nil
}

// ParseDefault returns the embedded default policy alone.
func ParseDefault() (*Policy, error) {
	p, err := defaultPolicy()
	if err != nil {
		return nil, err
	}
	p.Sources = []string{"default"}
	p.finish()
	return p, nil
}

// PolicyError is a problem in a policy file, naming the file, rule and field.
type PolicyError struct {
	File  string
	Rule  string
	Field string
	Msg   string
}

func (e *PolicyError) Error() string {
	var b strings.Builder
	b.WriteString("policy ")
	b.WriteString(e.File)
	if e.Rule != "" {
		b.WriteString(": rule ")
		b.WriteString(e.Rule)
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func parsePolicy(data []byte, file string) (*Policy, error) {
	var p Policy
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil && !errors.Is(err, io.EOF) {
		return nil, &PolicyError{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if p.Version != 0 && p.Version != 1 {
		return nil, &PolicyError{File: file, Field: "version", Msg: fmt.Sprintf("unsupported version %d (want 1)", p.Version)}
	}
	seen := map[string]bool{}
	for i, r := range p.Rules {
		if r == nil {
			return nil, &PolicyError{File: file, Rule: fmt.Sprintf("#%d", i+1), Msg: "empty rule"}
		}
		r.Origin = file
		if err := r.validate(file); err != nil {
			return nil, err
		}
		if seen[r.ID] {
			return nil, &PolicyError{File: file, Rule: r.ID, Field: "id", Msg: "duplicate rule id"}
		}
		seen[r.ID] = true
	}
	if err := p.Settings.validate(file); err != nil {
		return nil, err
	}
	if f := p.Judge.Fallback; f != "" && f != hook.Deny && f != hook.Ask {
		return nil, &PolicyError{File: file, Field: "judge.fallback", Msg: fmt.Sprintf("%q: must be deny or ask", f)}
	}
	for d := range p.Judge.CacheTTL {
		if _, err := hook.ParseDecision(string(d), false); err != nil {
			return nil, &PolicyError{File: file, Field: "judge.cache_ttl", Msg: err.Error()}
		}
	}
	return &p, nil
}

func (s *Settings) validate(file string) error {
	if s.Unjudged != "" {
		if d, err := hook.ParseDecision(string(s.Unjudged), false); err != nil {
			return &PolicyError{File: file, Field: "settings.unjudged", Msg: err.Error()}
		} else if d == hook.Allow {
			return &PolicyError{File: file, Field: "settings.unjudged", Msg: "allow would let every undecided action through; use ask or deny"}
		}
	}
	if s.ToolAsk != "" && s.ToolAsk != hook.Deny && s.ToolAsk != hook.Allow {
		return &PolicyError{File: file, Field: "settings.tool_ask", Msg: fmt.Sprintf("%q: must be deny or allow", s.ToolAsk)}
	}
	if s.AskAs != "" && s.AskAs != hook.Deny && s.AskAs != hook.Ask {
		return &PolicyError{File: file, Field: "settings.ask_as", Msg: fmt.Sprintf("%q: must be ask or deny", s.AskAs)}
	}
	if s.ReviewAs != "" && s.ReviewAs != hook.Deny && s.ReviewAs != hook.Ask {
		return &PolicyError{File: file, Field: "settings.review_as", Msg: fmt.Sprintf("%q: must be ask or deny", s.ReviewAs)}
	}
	for k, d := range s.Defaults {
		if !validKind(k) {
			return &PolicyError{File: file, Field: "settings.defaults", Msg: fmt.Sprintf("unknown event kind %q", k)}
		}
		if _, err := hook.ParseDecision(string(d), true); err != nil {
			return &PolicyError{File: file, Field: "settings.defaults." + string(k), Msg: err.Error()}
		}
	}
	return nil
}

func validKind(k hook.Kind) bool {
	switch k {
	case hook.KindShell, hook.KindMCP, hook.KindRead, hook.KindWrite, hook.KindPrompt, hook.KindSubagent, hook.KindOther:
		return true
	}
	return false
}

// mergeUser applies a user policy: it may add, override and disable rules and
// change any setting.
func (p *Policy) mergeUser(u *Policy) {
	if u.Settings.Unjudged != "" {
		p.Settings.Unjudged = u.Settings.Unjudged
	}
	if u.Settings.ToolAsk != "" {
		p.Settings.ToolAsk = u.Settings.ToolAsk
	}
	if u.Settings.AskAs != "" {
		p.Settings.AskAs = u.Settings.AskAs
	}
	if u.Settings.ReviewAs != "" {
		p.Settings.ReviewAs = u.Settings.ReviewAs
	}
	for k, d := range u.Settings.Defaults {
		if p.Settings.Defaults == nil {
			p.Settings.Defaults = map[hook.Kind]hook.Decision{}
		}
		p.Settings.Defaults[k] = d
	}
	if u.Settings.ProtectedBranches != nil {
		p.Settings.ProtectedBranches = u.Settings.ProtectedBranches
	}
	if u.Settings.BuildOutputs != nil {
		p.Settings.BuildOutputs = u.Settings.BuildOutputs
	}
	if u.MCP.AllowedServers != nil {
		p.MCP.AllowedServers = u.MCP.AllowedServers
	}
	p.Judge.mergeFrom(u.Judge)
	disabled := map[string]bool{}
	for _, id := range u.Disable {
		disabled[id] = true
		if id == "secrets" || strings.HasPrefix(id, SecretRulePrefix) {
			if p.disabledSecrets == nil {
				p.disabledSecrets = map[string]bool{}
			}
			p.disabledSecrets[id] = true
		}
	}
	pos := map[string]int{}
	for i, r := range p.Rules {
		pos[r.ID] = i
	}
	for _, r := range u.Rules {
		if r.Disabled {
			disabled[r.ID] = true
			continue
		}
		if i, ok := pos[r.ID]; ok {
			p.Rules[i] = r
			continue
		}
		pos[r.ID] = len(p.Rules)
		p.Rules = append(p.Rules, r)
	}
	if len(disabled) > 0 {
		kept := p.Rules[:0]
		for _, r := range p.Rules {
			if !disabled[r.ID] {
				kept = append(kept, r)
			}
		}
		p.Rules = kept
	}
}

func (j *JudgeConfig) mergeFrom(u JudgeConfig) {
	if u.URL != "" {
		j.URL = u.URL
	}
	if u.Model != "" {
		j.Model = u.Model
	}
	if u.InputBudget != 0 {
		j.InputBudget = u.InputBudget
	}
	if u.Timeout != 0 {
		j.Timeout = u.Timeout
	}
	if u.MaxTokens != 0 {
		j.MaxTokens = u.MaxTokens
	}
	if u.Instructions != "" {
		j.Instructions = u.Instructions
	}
	if u.ProjectInstructions {
		j.ProjectInstructions = true
	}
	if u.Prompts != "" {
		j.Prompts = u.Prompts
	}
	if u.Fallback != "" {
		j.Fallback = u.Fallback
	}
	for d, ttl := range u.CacheTTL {
		if j.CacheTTL == nil {
			j.CacheTTL = map[hook.Decision]Duration{}
		}
		j.CacheTTL[d] = ttl
	}
	if u.PriceInput != 0 {
		j.PriceInput = u.PriceInput
	}
	if u.PriceOutput != 0 {
		j.PriceOutput = u.PriceOutput
	}
	if u.Disabled {
		j.Disabled = true
	}
}

// mergeProject applies a project policy, which lives in the repository the agent
// edits: it may only add restrictions. Anything that would loosen the guard is
// dropped with a warning.
func (p *Policy) mergeProject(pr *Policy, file string, warn func(string)) {
	if warn == nil {
		warn = func(string) {}
	}
	where := "project policy " + file
	existing := map[string]bool{}
	for _, r := range p.Rules {
		existing[r.ID] = true
	}
	for _, r := range pr.Rules {
		switch {
		case r.Disabled:
			warn(fmt.Sprintf("%s: rule %s: a project policy cannot disable rules; ignored", where, r.ID))
		case existing[r.ID]:
			warn(fmt.Sprintf("%s: rule %s: a project policy cannot override an existing rule; ignored", where, r.ID))
		case r.Decision == hook.Allow:
			warn(fmt.Sprintf("%s: rule %s: a project policy can only add restrictions (ask, deny, judge), not allow; ignored", where, r.ID))
		default:
			existing[r.ID] = true
			p.Rules = append(p.Rules, r)
		}
	}
	if len(pr.Settings.BuildOutputs) > 0 {
		warn(fmt.Sprintf("%s: settings.build_outputs: a project policy cannot widen what may be deleted; ignored", where))
	}
	if len(pr.Disable) > 0 {
		warn(fmt.Sprintf("%s: disable: a project policy cannot disable rules; ignored", where))
	}
	if pr.Settings.AskAs == hook.Deny {
		p.Settings.AskAs = hook.Deny
	}
	if pr.Settings.ReviewAs == hook.Deny {
		p.Settings.ReviewAs = hook.Deny
	} else if pr.Settings.ReviewAs != "" {
		warn(fmt.Sprintf("%s: settings.review_as: a project policy can only make review rules stricter (deny); ignored", where))
	}
	if pr.Settings.Unjudged == hook.Deny {
		p.Settings.Unjudged = hook.Deny
	}
	for k, d := range pr.Settings.Defaults {
		if cur := p.defaultFor(k); d.Severity() > cur.Severity() {
			if p.Settings.Defaults == nil {
				p.Settings.Defaults = map[hook.Kind]hook.Decision{}
			}
			p.Settings.Defaults[k] = d
		}
	}
	p.Settings.ProtectedBranches = append(p.Settings.ProtectedBranches, pr.Settings.ProtectedBranches...)
	if len(pr.MCP.AllowedServers) > 0 {
		if len(p.MCP.AllowedServers) == 0 {
			p.MCP.AllowedServers = pr.MCP.AllowedServers
		} else {
			p.MCP.AllowedServers = intersect(p.MCP.AllowedServers, pr.MCP.AllowedServers)
			if len(p.MCP.AllowedServers) == 0 {
				p.MCP.AllowedServers = []string{"\x00none"}
			}
		}
	}
	if pr.Judge.Fallback == hook.Deny {
		p.Judge.Fallback = hook.Deny
	}
	if pr.Judge.Instructions != "" {
		p.Judge.ProjectText = pr.Judge.Instructions
	}
	if pr.Judge.URL != "" || pr.Judge.Model != "" || pr.Judge.Prompts != "" || pr.Judge.ProjectInstructions {
		warn(fmt.Sprintf("%s: judge: a project policy cannot choose the judge endpoint, model, prompts or its own trust; ignored", where))
	}
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if in[s] {
			out = append(out, s)
		}
	}
	return out
}

// UnmarshalYAML reads "5s", "1h", "7d" or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as text.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// MarshalJSON writes the duration as text.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Duration(d).String() + `"`), nil
}

func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "d") {
		var days float64
		if _, err := fmt.Sscanf(strings.TrimSuffix(s, "d"), "%g", &days); err != nil {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		return time.Duration(days * float64(24*time.Hour)), nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var secs float64
	if _, err := fmt.Sscanf(s, "%g", &secs); err == nil {
		return time.Duration(secs * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("invalid duration %q (write 5s, 10m, 24h or 7d)", s)
}
