package install

import (
	"encoding/json"
	"slices"
)

// Claude Code's settings.json nests hooks one level deeper than Cursor's:
//
//	"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}
//
// hookguard owns whole matcher groups: one per matcher, holding only its own
// command. A hookguard command that a user put into a group of their own is
// removed from that group (the group stays when it has other hooks).

// claudeGroups are the matcher groups install writes for one event.
func claudeGroups(event, command string, timeout int) []json.RawMessage {
	hook := object{
		{Key: "type", Value: mustMarshal("command")},
		{Key: "command", Value: mustMarshal(command)},
		{Key: "timeout", Value: mustMarshal(timeout)},
	}
	hooks := mustMarshal([]json.RawMessage{mustMarshal(hook)})
	if event == "UserPromptSubmit" {
		return []json.RawMessage{mustMarshal(object{{Key: "hooks", Value: hooks}})}
	}
	var out []json.RawMessage
	for _, m := range ClaudeMatchers {
		out = append(out, mustMarshal(object{{Key: "matcher", Value: mustMarshal(m)}, {Key: "hooks", Value: hooks}}))
	}
	return out
}

// stripClaude removes hookguard's commands from an event's matcher groups.
// Groups left empty by that are dropped; others are written back unchanged
// apart from the removed command.
func stripClaude(list []json.RawMessage) (rest []json.RawMessage, removed int, err error) {
	for _, g := range list {
		group, err := parseObject(g)
		if err != nil {
			rest = append(rest, g) // not a group install understands: leave it
			continue
		}
		raw, ok := group.get("hooks")
		if !ok {
			rest = append(rest, g)
			continue
		}
		inner, err := parseArray(raw)
		if err != nil {
			rest = append(rest, g)
			continue
		}
		keep := inner[:0:0]
		for _, h := range inner {
			if isHookguardEntry(h) {
				removed++
				continue
			}
			keep = append(keep, h)
		}
		switch {
		case len(keep) == len(inner):
			rest = append(rest, g)
		case len(keep) > 0:
			group.set("hooks", mustMarshal(keep))
			rest = append(rest, mustMarshal(group))
		}
	}
	return rest, removed, nil
}

// installClaude puts hookguard's groups first in PreToolUse and
// UserPromptSubmit; every other setting and hook stays as it was.
func installClaude(obj *object, opts Options) error {
	hooks, err := hooksObject(*obj)
	if err != nil {
		return err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = ClaudeTimeout
	}
	command := HookCommand(opts.Binary, "claude")
	for _, event := range ClaudeEvents {
		list, err := eventArray(hooks, event)
		if err != nil {
			return err
		}
		rest, _, err := stripClaude(list)
		if err != nil {
			return err
		}
		hooks.set(event, mustMarshal(append(claudeGroups(event, command, timeout), rest...)))
	}
	obj.set("hooks", mustMarshal(hooks))
	return nil
}

// uninstallClaude removes hookguard's commands from every event.
func uninstallClaude(obj *object) (int, error) {
	hooks, err := hooksObject(*obj)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, m := range slices.Clone(hooks) {
		list, err := eventArray(hooks, m.Key)
		if err != nil {
			return 0, err
		}
		rest, removed, err := stripClaude(list)
		if err != nil {
			return 0, err
		}
		if removed > 0 {
			total += removed
			setOrDropEvent(&hooks, m.Key, rest)
		}
	}
	if total == 0 {
		return 0, nil
	}
	if len(hooks) == 0 {
		obj.del("hooks")
	} else {
		obj.set("hooks", mustMarshal(hooks))
	}
	return total, nil
}
