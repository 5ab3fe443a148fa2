package install

import (
	"encoding/json"
	"strings"
)

// Entry is one hook command found in a hooks file, as doctor needs to see it.
type Entry struct {
	// Event is the hook event the entry is listed under.
	Event string `json:"event"`
	// Index is the entry's position in the event's list (for Claude Code, the
	// position of its matcher group).
	Index int `json:"index"`
	// Count is how many entries (or groups) the event's list holds.
	Count int `json:"count"`
	// Matcher is the entry's (or its group's) matcher, when it has one.
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	// FailClosed is the entry's failClosed, nil when unset.
	FailClosed *bool `json:"failClosed,omitempty"`
	// Timeout is the entry's timeout in seconds, 0 when unset.
	Timeout float64 `json:"timeout,omitempty"`
	// Keys are the entry's field names, in file order.
	Keys []string `json:"keys,omitempty"`
	// Hookguard is set for hookguard's own entries.
	Hookguard bool `json:"hookguard"`
}

// Config is a parsed hooks file.
type Config struct {
	Target Target
	Exists bool
	// Version is the raw version value ("" when absent).
	Version string
	// Events are the event names in file order.
	Events  []string
	Entries []Entry
}

// Hookguard returns hookguard's entries.
func (c *Config) Hookguard() []Entry {
	var out []Entry
	for _, e := range c.Entries {
		if e.Hookguard {
			out = append(out, e)
		}
	}
	return out
}

// Read parses a hooks file for inspection. A missing file is a Config with
// Exists false; a file that is not valid JSON is a *SyntaxError.
func Read(t Target) (*Config, error) {
	obj, _, exists, err := load(t)
	if err != nil {
		return nil, err
	}
	c := &Config{Target: t, Exists: exists}
	if raw, ok := obj.get("version"); ok {
		c.Version = strings.TrimSpace(string(raw))
	}
	hooks, err := hooksObject(obj)
	if err != nil {
		return nil, err
	}
	for _, m := range hooks {
		c.Events = append(c.Events, m.Key)
		list, err := eventArray(hooks, m.Key)
		if err != nil {
			return nil, err
		}
		for i, raw := range list {
			if t.Agent == Claude {
				var g struct {
					Matcher string            `json:"matcher"`
					Hooks   []json.RawMessage `json:"hooks"`
				}
				_ = json.Unmarshal(raw, &g)
				for _, h := range g.Hooks {
					e := entryOf(m.Key, i, len(list), h)
					e.Matcher = g.Matcher
					c.Entries = append(c.Entries, e)
				}
				continue
			}
			c.Entries = append(c.Entries, entryOf(m.Key, i, len(list), raw))
		}
	}
	return c, nil
}

func entryOf(event string, i, n int, raw json.RawMessage) Entry {
	e := Entry{Event: event, Index: i, Count: n}
	var f struct {
		Command    string  `json:"command"`
		FailClosed *bool   `json:"failClosed"`
		Timeout    float64 `json:"timeout"`
		Matcher    string  `json:"matcher"`
	}
	_ = json.Unmarshal(raw, &f)
	e.Command, e.FailClosed, e.Timeout, e.Matcher = f.Command, f.FailClosed, f.Timeout, f.Matcher
	if o, err := parseObject(raw); err == nil {
		for _, m := range o {
			e.Keys = append(e.Keys, m.Key)
		}
	}
	e.Hookguard = IsHookguardCommand(e.Command)
	return e
}

// KnownCursorEvents are the event names Cursor documents. A name outside this
// list that matches one of them ignoring case and underscores is a typo that
// makes Cursor skip the hook silently.
var KnownCursorEvents = []string{
	"sessionStart", "sessionEnd", "beforeShellExecution", "afterShellExecution",
	"beforeMCPExecution", "afterMCPExecution", "beforeReadFile", "afterFileEdit",
	"beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought",
	"beforeTabFileRead", "afterTabFileEdit", "preToolUse", "postToolUse",
	"postToolUseFailure", "subagentStart", "subagentStop", "workspaceOpen",
}

// KnownClaudeEvents are the hook event names Claude Code documents.
var KnownClaudeEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit",
	"Notification", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "SessionStart", "SessionEnd",
}

// MisspelledEvent returns the documented event a name was probably meant to
// be, or "" when the name is documented or unlike any documented one.
func MisspelledEvent(agent Agent, name string) string {
	known := KnownCursorEvents
	if agent == Claude {
		known = KnownClaudeEvents
	}
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	for _, k := range known {
		if k == name {
			return ""
		}
	}
	for _, k := range known {
		if norm(k) == norm(name) {
			return k
		}
	}
	return ""
}
