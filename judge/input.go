package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

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
	// TranscriptIntent is the user's latest requests as read from the
	// agent's transcript: used when neither Intent nor a remembered request
	// is there.
	TranscriptIntent string `json:"transcript_intent,omitempty"`
	// Sources are the texts of what a shell command runs (scripts, package
	// scripts, recipes); Facts are workspace facts (branch, remote).
	Sources []prompts.Source `json:"sources,omitempty"`
	Facts   string           `json:"facts,omitempty"`

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
	MaxCommand     = 4000
	MaxPart        = 1000
	MaxParts       = 24
	MaxToolInput   = 4000
	MaxContent     = 3000
	MaxPath        = 1000
	MaxIntent      = 2000
	MaxEscalation  = 300
	MaxEscalations = 12
	MaxInstruction = 4000
)

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
		Sources                          []string
		Facts                            string
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
	for _, src := range in.Sources {
		// The verdict depends on what the scripts say: editing one is a miss.
		k.Sources = append(k.Sources, src.Kind+"\x00"+src.File+"\x00"+src.Name+"\x00"+src.Hash)
	}
	k.Facts = in.Facts
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
