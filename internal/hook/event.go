// Package hook is hookguard's wire protocol: it decodes one hook event as Cursor
// or Claude Code sends it, and encodes the answer in the shape that event takes.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxEventBytes caps the size of one event. beforeReadFile carries whole file
// contents, so the cap is generous; anything bigger is refused (and denied).
const MaxEventBytes = 8 << 20

// Dialect names the agent whose hook protocol an event speaks.
type Dialect string

// The supported dialects.
const (
	Cursor Dialect = "cursor"
	Claude Dialect = "claude"
)

// Kind is what an event asks to do, independent of which hook delivered it.
type Kind string

// The kinds of event that hookguard checks. KindOther covers tool calls that
// need no check (search, list) and KindObserve covers events that cannot block.
const (
	KindShell    Kind = "shell"
	KindMCP      Kind = "mcp"
	KindRead     Kind = "read"
	KindWrite    Kind = "write"
	KindPrompt   Kind = "prompt"
	KindSubagent Kind = "subagent"
	KindOther    Kind = "other"
	KindObserve  Kind = "observe"
)

// Event is one decoded hook event. Fields that an event does not carry are empty.
type Event struct {
	Dialect Dialect `json:"dialect"`
	// Name is hook_event_name as sent (beforeShellExecution, PreToolUse, …).
	Name string `json:"hook_event_name"`
	Kind Kind   `json:"kind"`

	ConversationID string   `json:"conversation_id,omitempty"`
	GenerationID   string   `json:"generation_id,omitempty"`
	Model          string   `json:"model,omitempty"`
	CursorVersion  string   `json:"cursor_version,omitempty"`
	WorkspaceRoots []string `json:"workspace_roots,omitempty"`
	UserEmail      string   `json:"user_email,omitempty"`
	TranscriptPath string   `json:"transcript_path,omitempty"`
	ToolUseID      string   `json:"tool_use_id,omitempty"`

	// ToolName is the tool as the agent named it (Shell, Read, MCP:x, mcp__s__t, or the MCP tool).
	ToolName string `json:"tool_name,omitempty"`

	// Shell.
	Command string `json:"command,omitempty"`
	Cwd     string `json:"cwd,omitempty"`

	// MCP. Server is mcp_server_name, else the url, else the launch command.
	Server string `json:"server,omitempty"`
	// ServerCommand is the command that starts a stdio MCP server (Cursor's
	// "command"): the files it is pointed at are what every call reaches.
	ServerCommand string          `json:"server_command,omitempty"`
	Tool          string          `json:"tool,omitempty"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`

	// Read and write.
	FilePath string `json:"file_path,omitempty"`
	Content  string `json:"-"`

	// Prompt.
	Prompt      string   `json:"-"`
	Attachments []string `json:"attachments,omitempty"`
}

// Input errors. Every one of them is answered with a deny.
var (
	ErrEmpty    = errors.New("empty input")
	ErrTooLarge = fmt.Errorf("input larger than %d bytes", MaxEventBytes)
)

// ReadInput reads at most MaxEventBytes from r.
func ReadInput(r io.Reader) ([]byte, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(data) > MaxEventBytes {
		return nil, ErrTooLarge
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, ErrEmpty
	}
	return data, nil
}

// smallEvent is what ReadInput reads before it takes an event for a larger one.
const smallEvent = 64 << 10

// readAll reads up to MaxEventBytes+1 bytes of r for a process that lives
// for one event. Most events fit the first small read; a larger one grows
// the buffer to a megabyte, then once to the cap (io.ReadAll
// grows it by a quarter near the cap, copying about 5n bytes for an event of
// n = 8 MiB, every new page of it a fault; one buffer of the cap's size from
// the start would cost its clearing even for an event of 100 KiB).
func readAll(r io.Reader) ([]byte, error) {
	if sized, ok := r.(interface{ Len() int }); ok && sized.Len() <= MaxEventBytes {
		// An event given in memory (evals, tests): one exact read.
		buf := make([]byte, sized.Len())
		n, err := io.ReadFull(r, buf)
		if err != nil && err != io.ErrUnexpectedEOF {
			return nil, err
		}
		return buf[:n], nil
	}
	buf := make([]byte, smallEvent)
	n := 0
	for {
		m, err := io.ReadFull(r, buf[n:])
		n += m
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return buf[:n], nil
		case err != nil:
			return nil, err
		case n == MaxEventBytes+1:
			return buf, nil
		}
		size := 1 << 20
		if len(buf) >= size {
			size = MaxEventBytes + 1 // past a megabyte, once to the cap
		}
		grown := make([]byte, size)
		copy(grown, buf[:n])
		buf = grown
	}
}

// Decode parses one event. dialect may be empty to detect it from the payload.
func Decode(data []byte, dialect Dialect) (*Event, error) {
	// One pass checks the syntax (trailing data included) and one splits
	// the object into slices of data, copying nothing; json.Unmarshal is
	// asked only for the error of input that is not a valid object.
	raw, ok := splitObject(data)
	if !ok {
		if err := json.Unmarshal(data, &raw); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) && strings.Contains(syn.Error(), "after top-level value") {
				return nil, errors.New("parse event json: trailing data after the object")
			}
			return nil, fmt.Errorf("parse event json: %w", err)
		}
	}
	if raw == nil {
		return nil, errors.New("parse event json: not an object")
	}
	f := fields(raw)
	ev := &Event{
		Name:           f.str("hook_event_name", "hookEventName"),
		ConversationID: f.str("conversation_id", "conversationId", "session_id"),
		GenerationID:   f.str("generation_id", "generationId"),
		Model:          f.str("model"),
		CursorVersion:  f.str("cursor_version", "cursorVersion"),
		WorkspaceRoots: f.strs("workspace_roots", "workspaceRoots"),
		UserEmail:      f.str("user_email", "userEmail"),
		TranscriptPath: f.str("transcript_path", "transcriptPath"),
		ToolUseID:      f.str("tool_use_id", "toolUseId"),
		Cwd:            f.str("cwd"),
	}
	if ev.Name == "" {
		return nil, errors.New("event has no hook_event_name")
	}
	if err := f.mustString("hook_event_name", "hookEventName"); err != nil {
		return nil, err
	}
	if d := detectDialect(ev.Name); dialect == "" || d == Claude || cursorPermissionEvents[ev.Name] {
		// The event's own name says whose it is: a Cursor payload given to
		// `hook --dialect claude` (Cursor runs Claude's configured hooks)
		// is still checked as what it is, never answered {} unchecked.
		dialect = d
	}
	ev.Dialect = dialect
	var err error
	if dialect == Claude {
		err = decodeClaude(ev, f)
	} else {
		err = decodeCursor(ev, f)
	}
	if err != nil {
		return nil, err
	}
	if err := validate(ev, f); err != nil {
		return nil, err
	}
	return ev, nil
}

// validate refuses a permission event that lacks the field it is about, or
// carries it with the wrong type: such an event is malformed (a deny), never
// an allow of nothing.
func validate(ev *Event, f fields) error {
	switch ev.Name {
	case "beforeShellExecution":
		if err := f.required("command"); err != nil {
			return err
		}
	case "beforeReadFile", "beforeTabFileRead":
		if err := f.required("file_path", "filePath"); err != nil {
			return err
		}
	case "beforeMCPExecution":
		if err := f.required("tool_name", "toolName"); err != nil {
			return err
		}
	case "preToolUse", "PreToolUse", "PermissionRequest":
		if err := f.required("tool_name", "toolName"); err != nil {
			return err
		}
	}
	for _, p := range append([]string{ev.FilePath, ev.Cwd, f.str("file_path", "filePath")}, ev.WorkspaceRoots...) {
		if strings.ContainsRune(p, 0) {
			return errors.New("malformed event: a path holds a NUL byte")
		}
	}
	switch ev.Kind {
	case KindShell:
		if strings.TrimSpace(ev.Command) == "" && ev.Name != "beforeShellExecution" {
			return fmt.Errorf("malformed event: %s %s carries no command", ev.Name, ev.ToolName)
		}
	case KindRead, KindWrite:
		if ev.FilePath == "" {
			return fmt.Errorf("malformed event: %s %s names no file", ev.Name, ev.ToolName)
		}
	}
	return nil
}

// mustString fails when one of keys is present with a value that is not a
// JSON string (or null).
func (f fields) mustString(keys ...string) error {
	for _, k := range keys {
		v, ok := f[k]
		if !ok {
			continue
		}
		// The event has been parsed, so a value that opens with a quote
		// is a whole string; nothing needs decoding (or copying) here.
		t := bytes.TrimSpace(v)
		if string(t) == "null" {
			continue
		}
		if len(t) == 0 || t[0] != '"' {
			return fmt.Errorf("malformed event: %s must be a string", k)
		}
	}
	return nil
}

// required fails unless one of keys holds a non-empty JSON string.
func (f fields) required(keys ...string) error {
	if err := f.mustString(keys...); err != nil {
		return err
	}
	for _, k := range keys {
		// `""` is the one string that decodes to nothing.
		if t := bytes.TrimSpace(f[k]); len(t) > 0 && string(t) != "null" && string(t) != `""` {
			return nil
		}
	}
	return fmt.Errorf("malformed event: %s is missing", keys[0])
}

// cursorPermissionEvents are the Cursor events that ask for a permission.
var cursorPermissionEvents = map[string]bool{"beforeShellExecution": true, "beforeMCPExecution": true, "beforeReadFile": true,
	"beforeTabFileRead": true, "beforeSubmitPrompt": true, "preToolUse": true, "subagentStart": true}

func detectDialect(name string) Dialect {
	switch name {
	case "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop",
		"Notification", "PreCompact", "SessionStart", "SessionEnd", "PermissionRequest":
		return Claude
	}
	return Cursor
}

func decodeCursor(ev *Event, f fields) error {
	switch ev.Name {
	case "beforeShellExecution":
		ev.Kind = KindShell
		ev.Command = f.str("command")
	case "beforeMCPExecution":
		ev.Kind = KindMCP
		ev.Tool = f.str("tool_name", "toolName")
		ev.ToolName = ev.Tool
		ev.Server = mcpServer(f)
		ev.ServerCommand = f.str("command")
		ev.ToolInput = f.object("tool_input", "toolInput")
	case "beforeReadFile", "beforeTabFileRead":
		ev.Kind = KindRead
		ev.FilePath = f.str("file_path", "filePath")
		ev.Content = f.str("content")
	case "beforeSubmitPrompt":
		ev.Kind = KindPrompt
		ev.Prompt = f.str("prompt")
		ev.Attachments = attachmentPaths(f)
	case "subagentStart":
		ev.Kind = KindSubagent
		ev.Prompt = f.str("prompt", "task", "description")
	case "preToolUse":
		ev.ToolName = f.str("tool_name", "toolName")
		input := f.object("tool_input", "toolInput")
		routeTool(ev, f, ev.ToolName, input)
	default:
		routeUnknown(ev, f)
	}
	return nil
}

// observeEvents are the events of either client that report and cannot block.
var observeEvents = map[string]bool{"afterShellExecution": true, "afterMCPExecution": true, "afterFileEdit": true,
	"afterTabFileEdit": true, "afterAgentResponse": true, "afterAgentThought": true, "stop": true, "subagentStop": true,
	"sessionStart": true, "sessionEnd": true, "preCompact": true, "PostToolUse": true, "Stop": true, "SubagentStop": true,
	"Notification": true, "PreCompact": true, "SessionStart": true, "SessionEnd": true}

// routeUnknown handles an event name hookguard does not know. A name of a
// known observe-only event is observed; an unknown one (a renamed or newer
// event) that carries something to check — a command, a tool call, a file,
// a prompt — is checked like its nearest known event, never answered {}
// unchecked.
func routeUnknown(ev *Event, f fields) {
	ev.Kind = KindObserve
	if observeEvents[ev.Name] {
		return
	}
	low := strings.ToLower(ev.Name)
	switch {
	case f.str("command") != "":
		ev.Kind = KindShell
		ev.Command = f.str("command")
	case f.str("tool_name", "toolName") != "":
		ev.ToolName = f.str("tool_name", "toolName")
		if server := mcpServer(f); server != "" {
			ev.Kind = KindMCP
			ev.Tool, ev.Server = ev.ToolName, server
			ev.ToolInput = f.object("tool_input", "toolInput")
			return
		}
		routeTool(ev, f, ev.ToolName, f.object("tool_input", "toolInput"))
	case f.str("file_path", "filePath") != "":
		ev.Kind = KindRead
		if strings.Contains(low, "edit") || strings.Contains(low, "write") || strings.Contains(low, "save") || strings.Contains(low, "create") {
			ev.Kind = KindWrite
		}
		ev.FilePath = f.str("file_path", "filePath")
		ev.Content = f.str("content", "new_string", "contents")
	case f.str("prompt") != "":
		ev.Kind = KindPrompt
		ev.Prompt = f.str("prompt")
	}
}

func decodeClaude(ev *Event, f fields) error {
	// Claude Code sends no workspace roots. Its hooks run with
	// CLAUDE_PROJECT_DIR set to the project root, and cwd is where the session
	// is; either one is the workspace the rules (and project policies) need.
	if len(ev.WorkspaceRoots) == 0 {
		if dir := os.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			ev.WorkspaceRoots = []string{dir}
		} else if ev.Cwd != "" {
			ev.WorkspaceRoots = []string{ev.Cwd}
		}
	}
	switch ev.Name {
	case "PreToolUse", "PermissionRequest":
		ev.ToolName = f.str("tool_name")
		routeTool(ev, f, ev.ToolName, f.object("tool_input"))
	case "UserPromptSubmit":
		ev.Kind = KindPrompt
		ev.Prompt = f.str("prompt")
	default:
		routeUnknown(ev, f)
	}
	return nil
}

// routeTool maps a generic tool call (Cursor preToolUse, Claude PreToolUse) onto
// the same kinds as the dedicated events.
func routeTool(ev *Event, f fields, tool string, input json.RawMessage) {
	in := fields(nil)
	_ = json.Unmarshal(input, (*map[string]json.RawMessage)(&in))
	lower := strings.ToLower(tool)
	switch {
	case strings.HasPrefix(tool, "MCP:") || strings.HasPrefix(tool, "mcp:"):
		ev.Kind = KindMCP
		ev.Tool = strings.TrimSpace(tool[4:])
		ev.Server = mcpServer(f)
		ev.ToolInput = input
	case strings.HasPrefix(tool, "mcp__"):
		ev.Kind = KindMCP
		rest := strings.TrimPrefix(tool, "mcp__")
		if server, name, ok := strings.Cut(rest, "__"); ok {
			ev.Server, ev.Tool = server, name
		} else {
			ev.Tool = rest
		}
		if s := mcpServer(f); s != "" {
			ev.Server = s
		}
		ev.ToolInput = input
	case lower == "shell" || lower == "bash" || lower == "terminal" || lower == "run_terminal_cmd":
		ev.Kind = KindShell
		ev.Command = in.str("command", "cmd")
		if c := in.str("cwd", "working_directory"); c != "" {
			ev.Cwd = c
		}
	case lower == "read" || lower == "read_file" || lower == "notebookread":
		ev.Kind = KindRead
		ev.FilePath = in.str("file_path", "path", "target_file", "filePath", "notebook_path")
	case lower == "grep" || lower == "glob" || lower == "ls" || lower == "list_dir" || lower == "grep_search" || lower == "file_search":
		// Searching and listing read what lies under a path (the working
		// directory when none is given): checked like a read of it.
		ev.Kind = KindRead
		ev.FilePath = in.str("path", "file_path", "target_directory", "directory", "relative_workspace_path")
		if ev.FilePath == "" {
			ev.FilePath = ev.Cwd
		}
		if ev.FilePath == "" && len(ev.WorkspaceRoots) > 0 {
			ev.FilePath = ev.WorkspaceRoots[0]
		}
		if ev.FilePath == "" {
			ev.FilePath = "."
		}
		if g := in.str("glob", "pattern", "include_pattern"); g != "" && lower == "glob" {
			ev.FilePath = strings.TrimSuffix(ev.FilePath, "/") + "/" + g
		}
	case lower == "webfetch" || lower == "web_fetch" || lower == "websearch":
		// Fetching a URL: checked like an MCP fetch (metadata endpoints,
		// collection hosts, secrets in the URL).
		ev.Kind = KindMCP
		ev.Server, ev.Tool = "web", strings.ToLower(tool)
		ev.ToolInput = input
	case lower == "write" || lower == "edit" || lower == "multiedit" || lower == "delete" ||
		lower == "notebookedit" || lower == "edit_file" || lower == "search_replace" || lower == "delete_file":
		ev.Kind = KindWrite
		ev.FilePath = in.str("file_path", "path", "target_file", "filePath", "notebook_path")
		ev.Content = in.str("content", "new_string", "contents", "code_edit", "new_source")
	case lower == "task" || lower == "agent":
		ev.Kind = KindSubagent
		ev.Prompt = in.str("prompt", "description")
	default:
		ev.Kind = KindOther
		ev.ToolInput = input
	}
}

func mcpServer(f fields) string {
	return f.str("mcp_server_name", "server_name", "mcpServerName", "server", "url", "command")
}

func attachmentPaths(f fields) []string {
	var list []struct {
		FilePath  string `json:"filePath"`
		FilePath2 string `json:"file_path"`
	}
	_ = json.Unmarshal(f["attachments"], &list)
	var out []string
	for _, a := range list {
		if p := a.FilePath + a.FilePath2; p != "" {
			out = append(out, p)
		}
	}
	return out
}

// fields is a JSON object with lenient accessors: real payloads differ between
// versions in naming and in whether a value is a string, a number or null.
type fields map[string]json.RawMessage

func (f fields) str(keys ...string) string {
	for _, k := range keys {
		v, ok := f[k]
		if !ok {
			continue
		}
		if s, ok := stringValue(v); ok {
			if s != "" {
				return s
			}
			continue
		}
		if t := strings.TrimSpace(string(v)); t != "null" && t != "" {
			return t
		}
	}
	return ""
}

func (f fields) strs(keys ...string) []string {
	for _, k := range keys {
		v, ok := f[k]
		if !ok {
			continue
		}
		var list []string
		if err := json.Unmarshal(v, &list); err == nil {
			if len(list) > 0 {
				return list
			}
			continue
		}
		// A single string stands for a list of one; anything else (an empty
		// or mixed array, an object) is not a list of paths, and must not
		// become one ("[]" read as a relative workspace root).
		if s, ok := stringValue(v); ok && s != "" {
			return []string{s}
		}
	}
	return nil
}

// object returns a JSON value given either as an object or as a JSON string
// holding one; a string that is not JSON is kept as a JSON string.
func (f fields) object(keys ...string) json.RawMessage {
	for _, k := range keys {
		v, ok := f[k]
		if !ok || string(v) == "null" {
			continue
		}
		if s, ok := stringValue(v); ok {
			if json.Valid([]byte(s)) && strings.TrimSpace(s) != "" {
				return json.RawMessage(s)
			}
			return v
		}
		return v
	}
	return nil
}
