package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
)

// ExampleContext is where rule examples run: the workspace root is the working
// directory and the home directory is its parent's parent.
var ExampleContext = Context{Cwd: "/home/dev/project", WorkspaceRoots: []string{"/home/dev/project"}, Home: "/home/dev"}

// ExampleFailure is a rule example that does not hold.
type ExampleFailure struct {
	RuleID  string `json:"rule_id"`
	Origin  string `json:"origin"`
	Example string `json:"example"`
	// Want is "match" or "no_match".
	Want string `json:"want"`
}

func (f ExampleFailure) Error() string {
	verb := "should fire on"
	if f.Want == "no_match" {
		verb = "should not fire on"
	}
	return fmt.Sprintf("%s: rule %s %s %q", f.Origin, f.RuleID, verb, f.Example)
}

// CheckExamples runs every rule's examples through the whole rule pass (shell
// examples are split and unwrapped like real commands) and returns the failures.
// When requireBoth is set, a rule without both kinds of example is a failure too.
func (p *Policy) CheckExamples(requireBoth bool) []ExampleFailure {
	var fails []ExampleFailure
	for _, r := range p.Rules {
		if r.Disabled {
			continue
		}
		if requireBoth && (len(r.Examples.Match) == 0 || len(r.Examples.NoMatch) == 0) {
			fails = append(fails, ExampleFailure{RuleID: r.ID, Origin: r.Origin, Want: "match", Example: "(rule needs at least one match and one no_match example)"})
		}
		for _, ex := range r.Examples.Match {
			if !p.exampleFires(r, ex) {
				fails = append(fails, ExampleFailure{RuleID: r.ID, Origin: r.Origin, Example: ex, Want: "match"})
			}
		}
		for _, ex := range r.Examples.NoMatch {
			if p.exampleFires(r, ex) {
				fails = append(fails, ExampleFailure{RuleID: r.ID, Origin: r.Origin, Example: ex, Want: "no_match"})
			}
		}
	}
	return fails
}

// exampleFires reports whether rule r fires for the example text, trying each
// of the rule's kinds.
func (p *Policy) exampleFires(r *Rule, ex string) bool {
	for _, k := range r.Kinds {
		out := p.Explain(exampleEvent(r, k, ex), ExampleContext)
		for _, m := range out.Matches {
			if m.RuleID == r.ID {
				return true
			}
		}
	}
	return false
}

// exampleEvent builds the event an example stands for: the text is put where
// the rule's target reads it.
func exampleEvent(r *Rule, k hook.Kind, ex string) *hook.Event {
	ev := &hook.Event{Kind: k, Cwd: ExampleContext.Cwd, WorkspaceRoots: ExampleContext.WorkspaceRoots}
	switch k {
	case hook.KindShell:
		ev.Command = ex
	case hook.KindMCP:
		switch r.target(k) {
		case TargetTool:
			ev.Server, ev.Tool = "example", ex
		case TargetServer:
			ev.Server, ev.Tool = ex, "example"
		case TargetInput:
			ev.Server, ev.Tool, ev.ToolInput = "example", "example", jsonOrString(ex)
		case TargetPath:
			b, _ := json.Marshal(map[string]string{"path": ex})
			ev.Server, ev.Tool, ev.ToolInput = "example", "example", b
		default: // call: "server tool input"
			parts := strings.SplitN(ex, " ", 3)
			for len(parts) < 3 {
				parts = append(parts, "")
			}
			ev.Server, ev.Tool, ev.ToolInput = parts[0], parts[1], jsonOrString(parts[2])
		}
	case hook.KindRead, hook.KindWrite:
		if t := r.target(k); t == TargetContent {
			ev.FilePath, ev.Content = ExampleContentPath, ex
			for _, c := range r.Paths {
				if p, ok := exampleContentPaths[c]; ok {
					ev.FilePath = p
					break
				}
			}
		} else {
			ev.FilePath = ex
		}
	default:
		ev.Prompt = ex
	}
	return ev
}

func jsonOrString(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// ExampleContentPath is the file path given to content examples (rules with a
// files filter must accept it for their examples to run).
const ExampleContentPath = "/home/dev/project/config/example.conf"

// exampleContentPaths are the file paths given to content examples of rules
// that only read files of one path class.
var exampleContentPaths = map[string]string{
	"agent": "/home/dev/project/AGENTS.md",
	"ci":    "/home/dev/project/.github/workflows/ci.yml",
	"guard": "/home/dev/project/.cursor/hooks.json",
}
