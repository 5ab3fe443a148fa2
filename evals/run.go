package evals

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/rules"
)

// SourceObserve marks observe-only events: the hook answers them with {} without
// running the pipeline, which lets the action go ahead, so they score as allow.
const SourceObserve hook.Source = "observe"

// Pipelines builds pipelines the way `hookguard hook` does for each event: the
// effective policy for the event's workspace roots, the user's home, and the
// judge for that policy. Policies (and their judges) are loaded once per
// distinct set of roots. It is safe for concurrent use.
type Pipelines struct {
	// Load returns the effective policy for an event's workspace roots; the hook
	// calls rules.Load with ProjectRoots set to them.
	Load func(roots []string) (*rules.Policy, error)
	// Judge returns the judge for a policy; nil (or a nil Judger) means no judge,
	// so escalations are answered as unjudged.
	Judge func(pol *rules.Policy) (pipeline.Judger, error)
	// Home is the user's home directory, for events whose workspace is not
	// inside a home directory; an event whose workspace root lies under
	// /home/NAME, /Users/NAME or /root is judged with that home, as the hook
	// of the user who owns the workspace would judge it.
	Home string

	mu     sync.Mutex
	m      map[string]*pipeEntry
	byHash map[string]*pipeline.Pipeline
}

type pipeEntry struct {
	once sync.Once
	p    *pipeline.Pipeline
	err  error
}

// For returns the pipeline for events with these workspace roots.
func (ps *Pipelines) For(roots []string) (*pipeline.Pipeline, error) {
	key := strings.Join(roots, "\x00")
	ps.mu.Lock()
	if ps.m == nil {
		ps.m = map[string]*pipeEntry{}
	}
	e, ok := ps.m[key]
	if !ok {
		e = &pipeEntry{}
		ps.m[key] = e
	}
	ps.mu.Unlock()
	e.once.Do(func() {
		pol, err := ps.Load(roots)
		if err != nil {
			e.err = err
			return
		}
		// Workspaces without a project policy share one effective policy:
		// reuse its pipeline, whose rules are already compiled.
		shareKey := pol.Hash + "\x00" + WorkspaceHome(roots, ps.Home)
		if pol.Hash != "" {
			ps.mu.Lock()
			shared := ps.byHash[shareKey]
			ps.mu.Unlock()
			if shared != nil {
				e.p = shared
				return
			}
		}
		home := WorkspaceHome(roots, ps.Home)
		p := &pipeline.Pipeline{Policy: pol, Home: home}
		if ps.Judge != nil {
			j, err := ps.Judge(pol)
			if err != nil {
				e.err = fmt.Errorf("judge: %w", err)
				return
			}
			if j != nil {
				p.Judge = j
			}
		}
		e.p = p
		if pol.Hash != "" {
			ps.mu.Lock()
			if ps.byHash == nil {
				ps.byHash = map[string]*pipeline.Pipeline{}
			}
			if shared := ps.byHash[shareKey]; shared != nil {
				e.p = shared // another workspace got there first
			} else {
				ps.byHash[shareKey] = p
			}
			ps.mu.Unlock()
		}
	})
	return e.p, e.err
}

// WorkspaceHome returns the home directory that holds the first workspace
// root (/home/NAME, /Users/NAME, /root), else fallback.
func WorkspaceHome(roots []string, fallback string) string {
	if len(roots) == 0 {
		return fallback
	}
	root := path.Clean(roots[0])
	if root == "/root" || strings.HasPrefix(root, "/root/") {
		return "/root"
	}
	for _, base := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(root, base); ok {
			if name, _, _ := strings.Cut(rest, "/"); name != "" && name != "Shared" {
				return base + name
			}
		}
	}
	return fallback
}

// Policies returns the distinct policies loaded so far (for the report header).
func (ps *Pipelines) Policies() []*rules.Policy {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	seen := map[*rules.Policy]bool{}
	var out []*rules.Policy
	for _, e := range ps.m {
		if e.p != nil && !seen[e.p.Policy] {
			seen[e.p.Policy] = true
			out = append(out, e.p.Policy)
		}
	}
	return out
}

// Trial is one run of one case: the answer the hook would have given.
type Trial struct {
	// Decision is the answer as the hook puts it on the wire, read back the way
	// the agent reads it: beforeReadFile knows only allow and deny, a blocked
	// prompt is a deny, an observe-only event ({}) is an allow.
	Decision hook.Decision `json:"decision"`
	// Pipeline is the pipeline's own decision, before the wire shaped it.
	Pipeline hook.Decision `json:"pipeline_decision,omitempty"`
	Source   hook.Source   `json:"source"`
	RuleID   string        `json:"rule_id,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	Kind     hook.Kind     `json:"kind,omitempty"`
	// Judge is what the judge cost for this trial, when it was called.
	Judge *JudgeUse `json:"judge,omitempty"`
}

// JudgeUse is what the judge calls of one trial cost.
type JudgeUse struct {
	Calls        int       `json:"calls"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	LatencyMS    []float64 `json:"latency_ms,omitempty"`
	// Misses counts replayed calls the cassette had no answer for.
	Misses int `json:"cassette_misses,omitempty"`
	// Changed counts replayed calls whose request differs from the recorded one.
	Changed int `json:"cassette_changed,omitempty"`
}

// Result is every trial of one case.
type Result struct {
	Case   *Case
	Trials []Trial
}

// Flaky reports whether the trials disagree.
func (r *Result) Flaky() bool {
	for _, t := range r.Trials[1:] {
		if t.Decision != r.Trials[0].Decision {
			return true
		}
	}
	return false
}

// Runner runs cases through the pipeline.
type Runner struct {
	Pipelines *Pipelines
	// Jobs is the number of cases run at once (default GOMAXPROCS).
	Jobs int
	// Repeat runs every case this many times (default 1).
	Repeat int
	// Progress, when set, is called after each trial with the count done so far.
	Progress func(done, total int)
}

// Run decides every case Repeat times and returns the results in case order.
func (r *Runner) Run(ctx context.Context, cases []Case) []Result {
	repeat := max(r.Repeat, 1)
	jobs := r.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]Result, len(cases))
	for i := range cases {
		results[i] = Result{Case: &cases[i], Trials: make([]Trial, repeat)}
	}
	total := len(cases) * repeat
	var done atomic.Int64
	// Repeats run one after the other, so that no two trials of a case are in
	// flight together (the judge shares one model call between identical
	// concurrent requests, which would make repeats copies of each other).
	for rep := range repeat {
		work := make(chan int)
		var wg sync.WaitGroup
		for range min(jobs, max(len(cases), 1)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					use := &JudgeUse{}
					tctx := WithTrial(ctx, cases[i].ID, rep, use)
					t := Decide(tctx, cases[i].Event, r.Pipelines)
					if use.Calls > 0 || use.Misses > 0 {
						t.Judge = use
					}
					results[i].Trials[rep] = t
					n := done.Add(1)
					if r.Progress != nil {
						r.Progress(int(n), total)
					}
				}
			}()
		}
		for i := range cases {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	return results
}

// Decide answers one event the way `hookguard hook` does: read and decode it
// (detecting the dialect), answer observe-only events with {}, load the
// pipeline for its workspace roots, decide, and shape the answer for the wire.
// Unreadable events, policy errors and panics are denies with source error.
func Decide(ctx context.Context, event []byte, pipes *Pipelines) (t Trial) {
	defer func() {
		if r := recover(); r != nil {
			t = errTrial(fmt.Sprintf("internal error: %v", r))
		}
	}()
	data, err := hook.ReadInput(bytes.NewReader(event))
	if err != nil {
		return errTrial(err.Error())
	}
	ev, err := hook.Decode(data, "")
	if err != nil {
		return errTrial("invalid event: " + err.Error())
	}
	if ev.Kind == hook.KindObserve {
		return Trial{Decision: hook.Allow, Pipeline: hook.Allow, Source: SourceObserve, Kind: ev.Kind, Reason: "observe-only event: the hook answers {}"}
	}
	p, err := pipes.For(ev.WorkspaceRoots)
	if err != nil {
		res := hook.Result{Decision: hook.Deny, Source: hook.SourceError, Reason: "hookguard could not load its policy: " + err.Error()}
		return Trial{Decision: WireDecision(ev, res), Pipeline: hook.Deny, Source: hook.SourceError, Kind: ev.Kind, Reason: res.Reason}
	}
	d := p.Decide(ctx, ev)
	return Trial{
		Decision: WireDecision(ev, d.Result),
		Pipeline: d.Decision,
		Source:   d.Source,
		RuleID:   d.RuleID,
		Reason:   d.Reason,
		Kind:     ev.Kind,
	}
}

func errTrial(reason string) Trial {
	return Trial{Decision: hook.Deny, Pipeline: hook.Deny, Source: hook.SourceError, Reason: reason}
}

// WireDecision is the decision the agent acts on, read back from the answer
// `hookguard hook` writes for ev (built here exactly as the hook builds it).
// Where the wire blocks, that is a deny: beforeReadFile knows only allow and
// deny, a stopped prompt is a deny. Where it names a permission, that one.
// Where it answers {} (no opinion: Claude Code's allow, which defers to the
// user's own settings, and PermissionRequest's ask, which leaves the user's
// dialog up), the pipeline's decision stands.
func WireDecision(ev *hook.Event, res hook.Result) hook.Decision {
	resp := hook.Respond(ev, res.Decision, pipeline.Messages(ev, res))
	if p, ok := resp["permission"].(string); ok {
		return decisionOrDeny(p)
	}
	if c, ok := resp["continue"].(bool); ok {
		if c {
			return hook.Allow
		}
		return hook.Deny
	}
	if out, ok := resp["hookSpecificOutput"].(map[string]any); ok {
		if p, ok := out["permissionDecision"].(string); ok {
			return decisionOrDeny(p)
		}
		if b, ok := out["decision"].(map[string]any); ok {
			if s, _ := b["behavior"].(string); s == "allow" {
				return hook.Allow
			}
			return hook.Deny
		}
	}
	if b, ok := resp["decision"].(string); ok && b == "block" {
		return hook.Deny
	}
	if len(resp) == 0 {
		if res.Decision == hook.Judge {
			return hook.Ask
		}
		return decisionOrDeny(string(res.Decision))
	}
	return hook.Deny
}

func decisionOrDeny(s string) hook.Decision {
	d, err := hook.ParseDecision(s, false)
	if err != nil {
		return hook.Deny
	}
	return d
}
