package judge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/prompts"
)

// Input is an escalated event reduced to what the model may see: redacted,
// truncated and normalised. It is built in the hook process (so secrets never
// leave it) and is what the judge server receives.
type Input struct {
	EventName      string         `json:"event_name"`
	Kind           hook.Kind      `json:"kind"`
	ConversationID string         `json:"conversation_id,omitempty"`
	Command        string         `json:"command,omitempty"`
	Parts          []prompts.Part `json:"parts,omitempty"`
	Server         string         `json:"server,omitempty"`
	Tool           string         `json:"tool,omitempty"`
	ToolInput      string         `json:"tool_input,omitempty"`
	FilePath       string         `json:"file_path,omitempty"`
	Content        string         `json:"content,omitempty"`
	Cwd            string         `json:"cwd,omitempty"`
	WorkspaceRoots []string       `json:"workspace_roots,omitempty"`
	Escalations    []string       `json:"escalations,omitempty"`
	Flagged        bool           `json:"flagged,omitempty"`
	// Intent is the user's recent request; when empty the judge looks it up
	// by ConversationID among the requests it was told to remember.
	Intent string `json:"intent,omitempty"`

	// PolicyHash identifies the effective policy.
	PolicyHash string `json:"policy_hash,omitempty"`
	// Instructions are the team's instructions (and the project's, when the
	// user policy opted in).
	Instructions string `json:"instructions,omitempty"`
	// Fallback and TTL come from the policy; empty means the judge's defaults.
	Fallback hook.Decision                   `json:"fallback,omitempty"`
	TTL      map[hook.Decision]time.Duration `json:"ttl,omitempty"`
}

// Size limits for what the model sees. Longer text is cut with a visible marker.
const (
	maxCommand     = 4000
	maxPart        = 1000
	maxParts       = 24
	maxToolInput   = 4000
	maxContent     = 3000
	maxPath        = 1000
	maxIntent      = 2000
	maxEscalation  = 300
	maxEscalations = 12
	maxInstruction = 4000
)

// Prepare reduces req to an Input: every string taken from the event is
// redacted with the policy's secret detectors and truncated.
func Prepare(req Request) Input {
	redact := func(s string) string { return s }
	if req.Policy != nil {
		redact = req.Policy.Redact
	}
	return prepare(req, redact)
}

func prepare(req Request, redact func(string) string) Input {
	// Cut before redacting (the detectors' cost grows with the input), with
	// room to spare so a secret near the final cut is still seen whole.
	clean := func(s string, max int) string { return Truncate(redact(Truncate(s, 2*max+256)), max) }
	ev := req.Event
	if ev == nil {
		ev = &hook.Event{}
	}
	in := Input{
		EventName:      ev.Name,
		Kind:           ev.Kind,
		ConversationID: ev.ConversationID,
		Command:        clean(ev.Command, maxCommand),
		Server:         clean(ev.Server, maxPath),
		Tool:           clean(ev.Tool, maxPath),
		FilePath:       clean(ev.FilePath, maxPath),
		Cwd:            clean(ev.Cwd, maxPath),
		Intent:         clean(req.Intent, maxIntent),
	}
	if ev.Kind == hook.KindWrite || ev.Kind == hook.KindRead || ev.Kind == hook.KindSubagent || ev.Kind == hook.KindPrompt {
		in.Content = clean(ev.Content+ev.Prompt, maxContent)
	}
	if len(ev.ToolInput) > 0 {
		in.ToolInput = clean(CanonicalJSON(ev.ToolInput), maxToolInput)
	}
	for i, r := range ev.WorkspaceRoots {
		if i == 8 {
			break
		}
		in.WorkspaceRoots = append(in.WorkspaceRoots, clean(r, maxPath))
	}
	if out := req.Outcome; out != nil {
		in.Flagged = out.Flagged
		for i, e := range out.Escalations {
			if i == maxEscalations {
				break
			}
			in.Escalations = append(in.Escalations, clean(e, maxEscalation))
		}
		if ev.Kind == hook.KindShell {
			for i, p := range out.Parts {
				if i == maxParts {
					break
				}
				in.Parts = append(in.Parts, prompts.Part{Text: clean(p.Text, maxPart), Decision: string(p.Decision), Rules: p.RuleIDs})
			}
		}
	}
	if pol := req.Policy; pol != nil {
		in.PolicyHash = pol.Hash
		instr := strings.TrimSpace(pol.Judge.Instructions)
		if pol.Judge.ProjectInstructions && strings.TrimSpace(pol.Judge.ProjectText) != "" {
			instr = strings.TrimSpace(instr + "\n\nInstructions from the project's policy:\n" + strings.TrimSpace(pol.Judge.ProjectText))
		}
		in.Instructions = Truncate(instr, maxInstruction)
		in.Fallback = pol.Judge.Fallback
		if len(pol.Judge.CacheTTL) > 0 {
			in.TTL = map[hook.Decision]time.Duration{}
			for d, v := range pol.Judge.CacheTTL {
				in.TTL[d] = time.Duration(v)
			}
		}
	}
	return in
}

// Truncate cuts s to at most max bytes (on a rune boundary) and says so.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" …[truncated by hookguard: %d more bytes]", len(s)-cut)
}

// CanonicalJSON re-encodes a JSON value with sorted keys and no insignificant
// whitespace; text that is not JSON is returned as it is.
func CanonicalJSON(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Key is the cache key of a judgment: the prompt version, the endpoint, the
// policy and instructions, and the normalised event (commands whitespace-folded,
// tool input canonical), plus a digest of the user's request when it was used.
func Key(in Input, promptVersion, model, baseURL string) string {
	k := struct {
		V, PV, Model, URL, Policy, Instr string
		Event, Kind                      string
		Command, Server, Tool, Input     string
		Path, Content, Cwd               string
		Roots                            []string
		Flagged                          bool
		Intent                           string
	}{
		V: "1", PV: promptVersion, Model: model, URL: baseURL,
		Policy: in.PolicyHash, Instr: digest(in.Instructions),
		Event: in.EventName, Kind: string(in.Kind),
		Command: strings.Join(strings.Fields(in.Command), " "),
		Server:  in.Server, Tool: in.Tool, Input: in.ToolInput,
		Path: in.FilePath, Content: digest(in.Content), Cwd: in.Cwd,
		Roots: in.WorkspaceRoots, Flagged: in.Flagged,
	}
	if in.Intent != "" {
		k.Intent = digest(in.Intent)
	}
	b, _ := json.Marshal(k)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func digest(s string) string {
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}
