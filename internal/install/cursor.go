package install

import (
	"encoding/json"
	"slices"
)

// legacyCursorKeys are spellings of hookguard entry options that Cursor does
// not read (snake_case and lowercase variants, a millisecond timeout). They
// are dropped from hookguard's own entries when install rewrites them, so the
// entry means what it says; other hooks keep them.
var legacyCursorKeys = []string{"fail_closed", "failclosed", "FailClosed", "timeout_ms", "timeoutMs"}

// cursorEvents returns the events install manages for opts.
func cursorEvents(opts Options) []string {
	ev := slices.Clone(CursorEvents)
	if !opts.NoTools {
		ev = append(ev, CursorToolEvent)
	}
	return ev
}

// installCursor puts hookguard first in every managed event. The first
// position matters: some Cursor versions run only the first hook of an array.
// Other hooks keep their relative order. An existing hookguard entry is
// reused (its extra fields survive, a longer timeout is kept), duplicates are
// dropped. preToolUse is managed too: installing with --no-tools removes
// hookguard from it.
func installCursor(obj *object, opts Options) error {
	if err := checkVersion(*obj); err != nil {
		return err
	}
	hooks, err := hooksObject(*obj)
	if err != nil {
		return err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = CursorTimeout
	}
	command := HookCommand(opts.Binary, "cursor")
	managed := cursorEvents(opts)
	for _, m := range slices.Clone(hooks) {
		event := m.Key
		if slices.Contains(managed, event) || event == CursorToolEvent {
			continue
		}
		// hookguard entries the user put under other events (beforeTabFileRead,
		// subagentStart, …) stay where they are, pointed at this binary.
		list, err := eventArray(hooks, event)
		if err != nil {
			return err
		}
		changed := false
		for i, e := range list {
			if isHookguardEntry(e) {
				list[i] = cursorEntry(e, command, timeout)
				changed = true
			}
		}
		if changed {
			hooks.set(event, mustMarshal(list))
		}
	}
	for _, event := range append(slices.Clone(CursorEvents), CursorToolEvent) {
		list, err := eventArray(hooks, event)
		if err != nil {
			return err
		}
		var old json.RawMessage
		rest := make([]json.RawMessage, 0, len(list)+1)
		for _, e := range list {
			if isHookguardEntry(e) {
				if old == nil {
					old = e
				}
				continue
			}
			rest = append(rest, e)
		}
		if !slices.Contains(managed, event) {
			if old != nil {
				setOrDropEvent(&hooks, event, rest)
			}
			continue
		}
		entry := cursorEntry(old, command, timeout)
		hooks.set(event, mustMarshal(append([]json.RawMessage{entry}, rest...)))
	}
	// version first when the file has none yet.
	if _, ok := obj.get("version"); !ok {
		*obj = append(object{{Key: "version", Value: json.RawMessage("1")}}, *obj...)
	}
	obj.set("hooks", mustMarshal(hooks))
	return nil
}

// cursorEntry builds hookguard's entry, reusing an existing one's fields.
func cursorEntry(old json.RawMessage, command string, timeout int) json.RawMessage {
	e := object{}
	if old != nil {
		var err error
		if e, err = parseObject(old); err != nil {
			e = object{}
		}
	}
	for _, k := range legacyCursorKeys {
		e.del(k)
	}
	e.set("command", mustMarshal(command))
	e.set("failClosed", json.RawMessage("true"))
	var have float64
	if raw, ok := e.get("timeout"); ok {
		_ = json.Unmarshal(raw, &have)
	}
	if have < float64(timeout) {
		e.set("timeout", mustMarshal(timeout))
	}
	return mustMarshal(e)
}

// setOrDropEvent writes an event's list back, removing the event when empty.
func setOrDropEvent(hooks *object, event string, list []json.RawMessage) {
	if len(list) == 0 {
		hooks.del(event)
		return
	}
	hooks.set(event, mustMarshal(list))
}

// uninstallCursor removes hookguard's entries from every event.
func uninstallCursor(obj *object) (int, error) {
	if err := checkVersion(*obj); err != nil {
		return 0, err
	}
	hooks, err := hooksObject(*obj)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, m := range slices.Clone(hooks) {
		list, err := eventArray(hooks, m.Key)
		if err != nil {
			return 0, err
		}
		rest := list[:0:0]
		for _, e := range list {
			if isHookguardEntry(e) {
				removed++
				continue
			}
			rest = append(rest, e)
		}
		if len(rest) != len(list) {
			setOrDropEvent(&hooks, m.Key, rest)
		}
	}
	if removed == 0 {
		return 0, nil
	}
	if len(hooks) == 0 {
		obj.del("hooks")
	} else {
		obj.set("hooks", mustMarshal(hooks))
	}
	return removed, nil
}
