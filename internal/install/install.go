// Package install reads, merges and writes the hook configuration files that
// make Cursor and Claude Code run hookguard: Cursor's hooks.json and Claude
// Code's settings.json, at project or user scope.
//
// Every change is planned first (Plan holds the file before and after, so a
// dry run can print the diff) and applied atomically, with a backup of the
// previous file. Other hooks, their order and unknown fields are preserved; a
// file that is not valid JSON is never overwritten. See command.go for how
// hookguard's own entries are recognised.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Agent is the coding agent whose hooks file a Target is.
type Agent string

// The supported agents.
const (
	Cursor Agent = "cursor"
	Claude Agent = "claude"
)

// Scope says whether a hooks file applies to one project or to every project
// of the user.
type Scope string

// The scopes.
const (
	Project Scope = "project"
	User    Scope = "user"
)

// Defaults for the entries install writes.
const (
	// CursorTimeout is the seconds Cursor waits for hookguard before failing
	// closed: the judge's budget (about 8 s) plus room for a cold start.
	CursorTimeout = 15
	// ClaudeTimeout is the seconds Claude Code waits. Claude Code fails open on
	// a timeout (it has no failClosed), so the margin is wider.
	ClaudeTimeout = 30
)

// CursorEvents are the Cursor events hookguard guards by default.
var CursorEvents = []string{"beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt"}

// CursorToolEvent is Cursor's generic tool event: the agent's own file edits
// and deletes reach hookguard only through it. Installed by default
// (--no-tools leaves it out).
const CursorToolEvent = "preToolUse"

// ClaudeMatchers are the PreToolUse matchers hookguard installs for Claude Code.
var ClaudeMatchers = []string{"Bash", "Read|Grep|Glob|LS|NotebookRead", "Write|Edit|MultiEdit|NotebookEdit", "WebFetch|WebSearch", "Task", "mcp__.*"}

// ClaudeEvents are the Claude Code events hookguard manages.
var ClaudeEvents = []string{"PreToolUse", "UserPromptSubmit"}

// Target is one hooks file.
type Target struct {
	Agent Agent
	Scope Scope
	// Path is the file.
	Path string
	// BaseDir is where relative hook commands resolve from: the project root
	// for project files, ~/.cursor for Cursor's user file, the user's home for
	// Claude Code's user file.
	BaseDir string
}

// CursorTarget returns Cursor's hooks file for a project root or, with
// scope User, for the home directory.
func CursorTarget(scope Scope, projectRoot, home string) Target {
	if scope == User {
		dir := filepath.Join(home, ".cursor")
		return Target{Agent: Cursor, Scope: User, Path: filepath.Join(dir, "hooks.json"), BaseDir: dir}
	}
	return Target{Agent: Cursor, Scope: Project, Path: filepath.Join(projectRoot, ".cursor", "hooks.json"), BaseDir: projectRoot}
}

// ClaudeTarget returns Claude Code's settings file for a project root or, with
// scope User, for the home directory.
func ClaudeTarget(scope Scope, projectRoot, home string) Target {
	if scope == User {
		return Target{Agent: Claude, Scope: User, Path: filepath.Join(home, ".claude", "settings.json"), BaseDir: home}
	}
	return Target{Agent: Claude, Scope: Project, Path: filepath.Join(projectRoot, ".claude", "settings.json"), BaseDir: projectRoot}
}

// Name is a short human name for the target ("cursor project hooks", …).
func (t Target) Name() string {
	if t.Agent == Claude {
		return "claude code " + string(t.Scope) + " settings"
	}
	return "cursor " + string(t.Scope) + " hooks"
}

// Options configure install.
type Options struct {
	// Binary is the absolute path of the hookguard executable to run.
	Binary string
	// NoTools leaves out Cursor's generic preToolUse event (file writes,
	// deletes, subagents and MCP tools in builds that route them there),
	// which is installed by default so that the agent's edits are guarded.
	NoTools bool
	// Timeout overrides the per-hook timeout in seconds (0 = the default).
	Timeout int
}

// Plan is a computed change to one hooks file.
type Plan struct {
	Target Target
	// Exists is false when the file is to be created.
	Exists bool
	Before []byte
	After  []byte
	// Remove is set when the file would be left with nothing in it that the
	// user wrote, after an uninstall that created it: it is deleted instead.
	Remove bool
	// BackupDir, when set, receives the backup of the previous file (named
	// after its whole path), so that no backup lands inside .cursor/ or
	// .claude/ where it is easy to commit; else the backup sits next to it.
	BackupDir string
}

// Changed reports whether applying the plan changes anything.
func (p *Plan) Changed() bool {
	if p.Remove {
		return p.Exists
	}
	if !p.Exists {
		return p.After != nil
	}
	return !bytes.Equal(p.Before, p.After)
}

// ErrUnsupported is wrapped by errors about files whose shape install does
// not understand; such files are left as they are.
var ErrUnsupported = errors.New("unsupported hooks file")

// load reads and parses a target. A missing or blank file is an empty object.
func load(t Target) (obj object, data []byte, exists bool, err error) {
	data, err = os.ReadFile(t.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return object{}, nil, false, nil
	case err != nil:
		return nil, nil, false, fmt.Errorf("read %s: %w", t.Path, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return object{}, data, true, nil
	}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, data, true, syntaxError(t.Path, data, err)
	}
	if _, ok := probe.(map[string]any); !ok {
		return nil, data, true, fmt.Errorf("%s: the top level is not a JSON object: %w", t.Path, ErrUnsupported)
	}
	obj, err = parseObject(data)
	if err != nil {
		return nil, data, true, fmt.Errorf("%s: %v: %w", t.Path, err, ErrUnsupported)
	}
	return obj, data, true, nil
}

// PlanInstall computes the file with hookguard installed.
func PlanInstall(t Target, opts Options) (*Plan, error) {
	if !filepath.IsAbs(opts.Binary) {
		return nil, fmt.Errorf("hookguard binary path %q is not absolute", opts.Binary)
	}
	obj, data, exists, err := load(t)
	if err != nil {
		return nil, err
	}
	switch t.Agent {
	case Claude:
		err = installClaude(&obj, opts)
	default:
		err = installCursor(&obj, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	after, err := format(obj, detectIndent(data))
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.Path, err)
	}
	return &Plan{Target: t, Exists: exists, Before: data, After: after}, nil
}

// PlanUninstall computes the file with hookguard's entries removed. Events
// and the hooks object left empty by the removal are dropped; a file that
// held nothing else is removed.
func PlanUninstall(t Target) (*Plan, error) {
	obj, data, exists, err := load(t)
	if err != nil {
		return nil, err
	}
	if !exists {
		return &Plan{Target: t}, nil
	}
	var removed int
	switch t.Agent {
	case Claude:
		removed, err = uninstallClaude(&obj)
	default:
		removed, err = uninstallCursor(&obj)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	if removed == 0 {
		return &Plan{Target: t, Exists: true, Before: data, After: data}, nil
	}
	after, err := format(obj, detectIndent(data))
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", t.Path, err)
	}
	p := &Plan{Target: t, Exists: true, Before: data, After: after}
	// A Cursor file that is now just {"version": 1} (or a Claude file that is
	// now {}) held nothing but hookguard: remove it rather than leave a stub.
	if len(obj) == 0 || (t.Agent == Cursor && len(obj) == 1 && obj[0].Key == "version") {
		p.Remove = true
		p.After = nil
	}
	return p, nil
}

// Apply writes the plan: a backup of the previous file next to it (named
// <file>.bak.<time>), then the new content through a temporary file and a
// rename, so a crash never leaves a half-written hooks file. A symlinked file
// is written through the link. It returns the backup path ("" when there was
// no previous file) and does nothing when the plan changes nothing.
func (p *Plan) Apply(now time.Time) (backup string, err error) {
	if !p.Changed() {
		return "", nil
	}
	path := p.Target.Path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if p.Exists {
		backup = fmt.Sprintf("%s.bak.%s", path, now.Format("20060102-150405"))
		if p.BackupDir != "" {
			if err := os.MkdirAll(p.BackupDir, 0o700); err != nil {
				return "", fmt.Errorf("back up %s: %w", path, err)
			}
			name := strings.ReplaceAll(strings.TrimPrefix(filepath.ToSlash(path), "/"), "/", "%")
			backup = filepath.Join(p.BackupDir, fmt.Sprintf("%s.bak.%s", name, now.Format("20060102-150405")))
		}
		if err := os.WriteFile(backup, p.Before, mode); err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
	}
	if p.Remove {
		if err := os.Remove(path); err != nil {
			return backup, fmt.Errorf("remove %s: %w", path, err)
		}
		return backup, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return backup, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(p.After); err != nil {
		tmp.Close()
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	return backup, nil
}

// Diff is a unified diff of the plan, for --dry-run.
func (p *Plan) Diff() string {
	from, to := p.Target.Path, p.Target.Path
	if !p.Exists {
		from = "/dev/null"
	}
	if p.Remove {
		to = "/dev/null"
	}
	return unifiedDiff(from, to, string(p.Before), string(p.After))
}

// hooksObject returns the "hooks" member of a file as an ordered object.
func hooksObject(obj object) (object, error) {
	raw, ok := obj.get("hooks")
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return object{}, nil
	}
	h, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf(`"hooks" is not an object: %w`, ErrUnsupported)
	}
	return h, nil
}

// eventArray returns one event's list of entries.
func eventArray(hooks object, event string) ([]json.RawMessage, error) {
	raw, ok := hooks.get(event)
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	list, err := parseArray(raw)
	if err != nil {
		return nil, fmt.Errorf(`"hooks.%s" is not an array: %w`, event, ErrUnsupported)
	}
	return list, nil
}

// commandOf returns an entry's command, "" when it has none.
func commandOf(entry json.RawMessage) string {
	var e struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(entry, &e)
	return e.Command
}

func isHookguardEntry(entry json.RawMessage) bool {
	return IsHookguardCommand(commandOf(entry))
}

// checkVersion accepts a Cursor file without a version (it gets one) or with
// version 1; any other version is a format install does not know.
func checkVersion(obj object) error {
	raw, ok := obj.get("version")
	if !ok {
		return nil
	}
	var v json.Number
	if err := json.Unmarshal(raw, &v); err != nil || v.String() != "1" {
		return fmt.Errorf("version is %s, only version 1 is understood: %w", strings.TrimSpace(string(raw)), ErrUnsupported)
	}
	return nil
}

// SamePath reports whether a and b name the same file, through symlinks
// (lexically when either cannot be resolved).
func SamePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
