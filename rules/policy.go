// Package rules is hookguard's deterministic pass: the policy schema, the
// embedded default policy, loading and merging of user and project policies,
// matching events against rules, and explaining the result.
package rules

import (
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/effects"
	"github.com/hookguard/hookguard/rules/shell"
)

// Rule is one policy rule. See the README section "Writing a rule".
type Rule struct {
	ID string `yaml:"id" json:"id"`
	// Kinds are the event kinds the rule applies to: shell, mcp, read, write, prompt.
	Kinds []hook.Kind `yaml:"kinds" json:"kinds"`
	// Decision is allow, ask, deny or judge.
	Decision hook.Decision `yaml:"decision" json:"decision"`
	// Target is the text the patterns run against; each kind has a default (see Targets).
	Target string `yaml:"target,omitempty" json:"target,omitempty"`
	// Programs restricts a shell rule to commands with these program names (exact, after unwrapping).
	Programs []string `yaml:"programs,omitempty" json:"programs,omitempty"`
	// ExceptPrograms exempts commands with these program names from a shell rule.
	ExceptPrograms []string `yaml:"except_programs,omitempty" json:"except_programs,omitempty"`
	// Files restricts a read, write or prompt-attachment rule to files whose path
	// matches one of these regexp2 expressions (for content rules).
	Files []string `yaml:"files,omitempty" json:"files,omitempty"`
	// Keywords is a prefilter: the rule is only tried when the target contains one of them (case-insensitive).
	Keywords []string `yaml:"keywords,omitempty" json:"keywords,omitempty"`
	// Window, when set, runs the patterns over a long text only near the
	// keywords: the lines within Window bytes of each keyword occurrence
	// (a pattern anchored with ^ still sees the whole text). For rules whose
	// patterns are bounded phrases around a keyword, so that a large file
	// costs what its keyword passages cost.
	Window int `yaml:"window,omitempty" json:"window,omitempty"`
	// Patterns are regexp2 expressions; the rule fires when any matches. With no
	// patterns, Programs (and Paths) alone decide.
	Patterns []string `yaml:"patterns,omitempty" json:"patterns,omitempty"`
	// Unless are regexp2 expressions that, when any matches, stop the rule from firing.
	Unless []string `yaml:"unless,omitempty" json:"unless,omitempty"`
	// Paths requires a path (a shell command's path argument, the file of a
	// read or write, an MCP input's path, a prompt's attachment) to fall in one
	// of these classes: where it is (root, home, home_sub, system, workspace,
	// inside, outside, temp, dynamic, build, source) or what it is (secret,
	// env_file, maybe_secret, guard, agent, vcs, persistence, cache; see
	// rules/effects/paths.yaml). A class written !class excludes paths in it.
	Paths []string `yaml:"paths,omitempty" json:"paths,omitempty"`
	// ContentExempt lets the content of a file read decide instead of its
	// path: "public" — the rule does not fire when the content is only public
	// keys or certificates; "clean" — it does not fire when the event carries
	// the content and the secret detector finds no secret in it.
	ContentExempt string `yaml:"content_exempt,omitempty" json:"content_exempt,omitempty"`
	// Reason says why the rule exists; it is shown to the user and the agent.
	Reason string `yaml:"reason" json:"reason"`
	// Advice tells the agent what to do instead (denies and asks).
	Advice string `yaml:"advice,omitempty" json:"advice,omitempty"`
	// Secret marks the patterns as secret detectors: they also drive redaction,
	// and a message never quotes what they matched.
	Secret bool `yaml:"secret,omitempty" json:"secret,omitempty"`
	// Flag marks the rule as an injection detector: an event it matches can never
	// be allowed by the model.
	Flag bool `yaml:"flag,omitempty" json:"flag,omitempty"`
	// Review marks a deny for work that is plausible but that a person
	// should see first (force pushes, hard resets, history rewrites): its
	// decision becomes settings.review_as when that is ask.
	Review bool `yaml:"review,omitempty" json:"review,omitempty"`
	// Disabled turns the rule off (user policies only).
	Disabled bool `yaml:"disabled,omitempty" json:"disabled,omitempty"`
	// Examples must hold: every match string fires the rule, no no_match string does.
	Examples Examples `yaml:"examples" json:"examples"`

	// Prefilter is the literal prefilter derived from Patterns (see
	// rulePrefilter), precomputed for the embedded policy so that hook processes
	// do not parse every pattern at start-up; nil means "not computed yet" and an
	// empty slice "no prefilter".
	Prefilter [][][]string `yaml:"-" json:"-"`

	// Origin is the file the rule came from ("default" for the embedded policy).
	Origin string `yaml:"-" json:"origin,omitempty"`

	compiled *compiledRule
}

// Examples are a rule's own test cases.
type Examples struct {
	Match   []string `yaml:"match" json:"match"`
	NoMatch []string `yaml:"no_match" json:"no_match"`
}

// Settings are policy-wide switches.
type Settings struct {
	// Unjudged answers escalations when no judge is configured (default ask).
	Unjudged hook.Decision `yaml:"unjudged,omitempty" json:"unjudged,omitempty"`
	// AskAs turns every ask into this decision (set deny to block instead of prompting).
	AskAs hook.Decision `yaml:"ask_as,omitempty" json:"ask_as,omitempty"`
	// ReviewAs is the decision of the rules marked review (deny, the
	// default, or ask): ask when the agent's host enforces ask and a person
	// answers it.
	ReviewAs hook.Decision `yaml:"review_as,omitempty" json:"review_as,omitempty"`
	// ToolAsk is the answer to an ask on Cursor's preToolUse, where Cursor
	// does not prompt the user (an ask there would let the edit through):
	// deny (the default) or allow.
	ToolAsk hook.Decision `yaml:"tool_ask,omitempty" json:"tool_ask,omitempty"`
	// Defaults are the decisions for events no rule matched, per kind.
	Defaults map[hook.Kind]hook.Decision `yaml:"defaults,omitempty" json:"defaults,omitempty"`
	// BuildOutputs name what a workspace can regenerate (dist, node_modules,
	// *.egg-info, …): a path inside a workspace with a component matching one of
	// these (a name or a path.Match glob) is in the path class "build", any other
	// path inside a workspace in the class "source".
	BuildOutputs []string `yaml:"build_outputs,omitempty" json:"build_outputs,omitempty"`
	// ProtectedBranches are branches that pushes must not rewrite, delete or
	// target directly; rule patterns refer to them as {protected_branches}.
	ProtectedBranches []string `yaml:"protected_branches,omitempty" json:"protected_branches,omitempty"`
}

// MCPConfig configures MCP server checks.
type MCPConfig struct {
	// AllowedServers, when non-empty, is the list of MCP server names (or URLs) that
	// may be called; any other server, or a missing name, is denied.
	AllowedServers []string `yaml:"allowed_servers,omitempty" json:"allowed_servers,omitempty"`
}

// JudgeConfig configures the model judge. Environment variables override the
// endpoint fields (see DESIGN.md).
type JudgeConfig struct {
	URL       string   `yaml:"url,omitempty" json:"url,omitempty"`
	Model     string   `yaml:"model,omitempty" json:"model,omitempty"`
	Timeout   Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	MaxTokens int      `yaml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
	// InputBudget bounds the event part of the judge's input, in tokens
	// (about four characters each); 0 means the default (6000). It is filled
	// in order of value: command, effects, script bodies, intent, facts.
	InputBudget int `yaml:"input_budget,omitempty" json:"input_budget,omitempty"`
	// Instructions are the team's own words for the judge.
	Instructions string `yaml:"instructions,omitempty" json:"instructions,omitempty"`
	// ProjectInstructions, set in a user policy, lets the project policy's
	// instructions reach the judge too. A project policy cannot set it.
	ProjectInstructions bool `yaml:"project_instructions,omitempty" json:"project_instructions,omitempty"`
	// Prompts is a folder of prompt templates that overrides the embedded ones.
	Prompts string `yaml:"prompts,omitempty" json:"prompts,omitempty"`
	// Fallback answers when the judge fails (deny by default, or ask).
	Fallback hook.Decision `yaml:"fallback,omitempty" json:"fallback,omitempty"`
	// CacheTTL per decision (allow, ask, deny).
	CacheTTL map[hook.Decision]Duration `yaml:"cache_ttl,omitempty" json:"cache_ttl,omitempty"`
	// Price per million input and output tokens, for eval cost reports.
	PriceInput  float64 `yaml:"price_input,omitempty" json:"price_input,omitempty"`
	PriceOutput float64 `yaml:"price_output,omitempty" json:"price_output,omitempty"`
	// Disabled turns the judge off (like HOOKGUARD_JUDGE=off).
	Disabled bool `yaml:"disabled,omitempty" json:"disabled,omitempty"`

	// ProjectText holds the project policy's instructions, kept apart so that the
	// judge can use them only when ProjectInstructions is set.
	ProjectText string `yaml:"-" json:"project_text,omitempty"`
}

// Duration is a time.Duration written as "5s" in YAML and JSON.
type Duration time.Duration

// Policy is an effective policy: the default merged with user and project files.
type Policy struct {
	Version  int         `yaml:"version" json:"version"`
	Settings Settings    `yaml:"settings" json:"settings"`
	MCP      MCPConfig   `yaml:"mcp" json:"mcp"`
	Judge    JudgeConfig `yaml:"judge" json:"judge"`
	Rules    []*Rule     `yaml:"rules" json:"rules"`
	// Disable lists rule ids to turn off (user policies only).
	Disable []string `yaml:"disable,omitempty" json:"disable,omitempty"`

	// Sources are the files merged into this policy, in order.
	Sources []string `yaml:"-" json:"sources"`
	// Hash identifies the effective policy (for cache keys and audit lines).
	Hash string `yaml:"-" json:"hash"`

	index *index
	build *nameSet
	// disabledSecrets are the secret kinds (secret:KIND, or secrets for all)
	// a user policy turned off.
	disabledSecrets map[string]bool
}

// Context is where an event happens, as far as the rules need to know.
type Context struct {
	Cwd            string
	WorkspaceRoots []string
	Home           string
	// UnderstoodScripts are script files (absolute paths) whose whole body
	// the rule pass has read and allows (see pipeline.ScriptVerdict): a
	// command that runs one is known, not sent to the judge for it.
	UnderstoodScripts []string

	// build is the policy's settings.build_outputs, set by Evaluate.
	build *nameSet
	// depth counts the evaluations this one is nested in: text another
	// command carries (a hook script it writes, a command its inline code
	// hands to a shell, a job it schedules). Nesting stops at
	// maxNestedDepth, so hostile text cannot make the work grow without bound.
	depth int
	// noArgDefaults turns off the reading of arguments' defaults (an
	// evaluation made to compare with that reading).
	noArgDefaults bool
}

// Part is one simple command of a shell event (or the single subject of any
// other event) with the decision the rules reached for it.
type Part struct {
	Text     string        `json:"text"`
	Via      string        `json:"via,omitempty"`
	Wrappers []string      `json:"wrappers,omitempty"`
	Cwd      string        `json:"cwd,omitempty"`
	Decision hook.Decision `json:"decision"`
	RuleIDs  []string      `json:"rules,omitempty"`
	// Effects is what the command would do, as the effects model reads it.
	Effects *effects.Record `json:"effects,omitempty"`
	// EffectsVerdict is the effects model's answer and why.
	EffectsVerdict *effects.Verdict `json:"effects_verdict,omitempty"`
}

// Match is one rule that fired.
type Match struct {
	RuleID   string        `json:"rule_id"`
	Decision hook.Decision `json:"decision"`
	Reason   string        `json:"reason"`
	Advice   string        `json:"advice,omitempty"`
	Secret   bool          `json:"secret,omitempty"`
	Flag     bool          `json:"flag,omitempty"`
	// Part is the text the rule matched (redacted when the rule is a secret detector).
	Part string `json:"part,omitempty"`
}

// Outcome is the rule pass's answer for one event.
type Outcome struct {
	// Decision is the strictest decision over all parts.
	Decision hook.Decision `json:"decision"`
	// Decisive is the match that set Decision, nil when a default applied.
	Decisive *Match  `json:"decisive,omitempty"`
	Matches  []Match `json:"matches,omitempty"`
	Parts    []Part  `json:"parts,omitempty"`
	// Escalations say why the event goes to the judge (when Decision is judge).
	Escalations []string `json:"escalations,omitempty"`
	// Flagged is set when an injection detector matched: the judge may not allow.
	Flagged bool `json:"flagged,omitempty"`
	// ParseError is set when a shell command could not be parsed.
	ParseError string `json:"parse_error,omitempty"`
	// Timeouts lists the rules a pattern of which ran out of time.
	Timeouts []string `json:"timeouts,omitempty"`
	// split is how the shell reads a shell event's command (see Split).
	split *shell.Result
}

// Split returns how the rule pass split a shell event's command line, so that
// later steps (the scripts it runs) need not parse it again; nil for other
// events and for lines beyond the analysis limits.
func (o *Outcome) Split() *shell.Result { return o.split }
