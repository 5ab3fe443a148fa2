package hook

import (
	"encoding/json"
	"io"
)

// Response is what one event answers: the fields that event's hook takes.
type Response map[string]any

// Permission reports whether the event is one that answers allow/deny/ask.
func (ev *Event) Permission() bool {
	switch ev.Kind {
	case KindShell, KindMCP, KindRead, KindWrite, KindSubagent, KindOther:
		return true
	}
	return false
}

// Messages are the texts shown to the user and sent to the agent.
type Messages struct {
	User  string
	Agent string
}

// Respond builds the answer for ev in its dialect. For Claude Code the
// decision reason is the agent message (Claude shows it to the model).
func Respond(ev *Event, d Decision, m Messages) Response {
	if d == Judge {
		d = Ask
	}
	if ev.Dialect == Claude {
		return respondClaude(ev, d, m)
	}
	switch {
	case ev.Kind == KindPrompt:
		r := Response{"continue": d == Allow}
		if d != Allow && m.User != "" {
			r["user_message"] = m.User
		}
		return r
	case ev.Name == "beforeReadFile" || ev.Name == "beforeTabFileRead":
		// These events take only allow or deny and no messages.
		if d != Allow {
			d = Deny
		}
		return Response{"permission": string(d)}
	case ev.Permission():
		r := Response{"permission": string(d)}
		if d != Allow {
			if m.User != "" {
				r["user_message"] = m.User
			}
			if m.Agent != "" {
				r["agent_message"] = m.Agent
			}
		}
		return r
	}
	return Response{}
}

func respondClaude(ev *Event, d Decision, m Messages) Response {
	reason := m.Agent
	if reason == "" {
		reason = m.User
	}
	switch {
	case ev.Kind == KindObserve:
		return Response{}
	case ev.Kind == KindPrompt:
		if d == Allow {
			return Response{}
		}
		// UserPromptSubmit has no ask: anything short of allow blocks, and the
		// reason is shown to the user (the prompt never reaches the model).
		user := m.User
		if user == "" {
			user = reason
		}
		return Response{"decision": "block", "reason": user}
	case d == Allow:
		// No opinion rather than "allow": in Claude Code an explicit allow skips
		// the user's own permission prompt, and hookguard finding nothing wrong
		// must not approve what the user's settings would have asked about.
		// This mirrors Cursor, where hooks enforce only deny.
		return Response{}
	case ev.Name == "PermissionRequest":
		// PermissionRequest answers with a behavior, and has no ask: an ask
		// leaves the request to the user's normal permission dialog.
		if d != Deny {
			return Response{}
		}
		return Response{"hookSpecificOutput": map[string]any{
			"hookEventName": ev.Name,
			"decision":      map[string]any{"behavior": "deny", "message": reason},
		}}
	}
	return Response{"hookSpecificOutput": map[string]any{
		"hookEventName":            ev.Name,
		"permissionDecision":       string(d),
		"permissionDecisionReason": reason,
	}}
}

// DenyUnreadable is the answer when the event itself could not be read: a deny
// in whatever shape is most likely to be honoured. It is safe for every event:
// permission events deny, prompt events stop.
func DenyUnreadable(reason string) Response {
	msg := "hookguard could not read the event (" + reason + "); the action was blocked."
	return Response{
		"permission":    "deny",
		"continue":      false,
		"user_message":  msg,
		"agent_message": msg + " Do not retry the same action; tell the user hookguard blocked it.",
	}
}

// Write encodes r as one line of JSON.
func (r Response) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any(r))
}
