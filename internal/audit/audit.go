// Package audit is hookguard's decision log: one JSON line per decision in
// audit.jsonl in the state directory, size-capped with rotation.
//
// Appending is on the hot path of every hook event, so it is one open, one
// write and one close, with no fsync. Lines stay whole under concurrent hook
// processes because each line is a single write(2) to a file opened with
// O_APPEND; rotation is serialised with an advisory lock on a side file, and
// a writer that still holds the rotated file open just appends to it, so no
// line is lost (it lands in audit.jsonl.1 instead).
//
// The log never holds prompt text or file contents. Commands, paths, tools and
// reasons are passed through the policy's redactor before they are written.
package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/internal/text"
)

// FileName is the log's name inside the state directory.
const FileName = "audit.jsonl"

// Defaults for the size cap.
const (
	DefaultMaxBytes = 10 << 20 // rotate once the file passes 10 MiB
	DefaultKeep     = 3        // keep audit.jsonl.1 … audit.jsonl.3
	// maxField caps one text field, so one huge command cannot bloat the log.
	maxField = 2048
)

// Record is one audit line.
type Record struct {
	Time           time.Time `json:"time"`
	Event          string    `json:"event"`
	Dialect        string    `json:"dialect,omitempty"`
	Kind           string    `json:"kind,omitempty"`
	ConversationID string    `json:"conversation_id,omitempty"`
	Decision       string    `json:"decision"`
	// Source is what decided: rule, default, judge, cache, fallback, unjudged, error.
	Source string `json:"source"`
	RuleID string `json:"rule_id,omitempty"`
	Reason string `json:"reason,omitempty"`
	Risk   string `json:"risk,omitempty"`
	// DurationMS is the whole hook run, from start to answer.
	DurationMS     float64 `json:"duration_ms"`
	JudgeLatencyMS float64 `json:"judge_latency_ms,omitempty"`
	// The subject of the event, redacted. Never prompt text or file contents.
	Command string `json:"command,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Server  string `json:"server,omitempty"`
	Path    string `json:"path,omitempty"`
	// Workspace is the first workspace root.
	Workspace string `json:"workspace,omitempty"`
	// Policy is the effective policy's hash.
	Policy string `json:"policy,omitempty"`
	// RuleTimeouts names the rules a pattern of which ran out of time (the
	// event then went to the judge, or its fallback, as not understood).
	RuleTimeouts []string `json:"rule_timeouts,omitempty"`
}

// NewRecord builds the record for one decision. redact (the policy's Redact)
// is applied to every free-text field; nil means no redaction.
func NewRecord(ev *hook.Event, res hook.Result, took time.Duration, now time.Time, redact func(string) string) *Record {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	clean := func(s string) string {
		if s == "" {
			return ""
		}
		return text.Truncate(redact(s), maxField)
	}
	r := &Record{
		Time:           now.UTC(),
		Decision:       string(res.Decision),
		Source:         string(res.Source),
		RuleID:         res.RuleID,
		Reason:         clean(res.Reason),
		Risk:           res.Risk,
		DurationMS:     round(float64(took) / float64(time.Millisecond)),
		JudgeLatencyMS: round(res.JudgeLatencyMS),
		RuleTimeouts:   res.RuleTimeouts,
	}
	if ev == nil {
		return r
	}
	r.Event, r.Dialect, r.Kind = ev.Name, string(ev.Dialect), string(ev.Kind)
	r.ConversationID = ev.ConversationID
	r.Command = clean(ev.Command)
	r.Cwd = clean(ev.Cwd)
	r.Path = clean(ev.FilePath)
	r.Server = clean(ev.Server)
	tool := ev.Tool
	if tool == "" {
		tool = ev.ToolName
	}
	r.Tool = clean(tool)
	if len(ev.WorkspaceRoots) > 0 {
		r.Workspace = clean(ev.WorkspaceRoots[0])
	}
	return r
}

func round(ms float64) float64 { return float64(int64(ms*1000+0.5)) / 1000 }

// Enabled reports whether auditing is on: HOOKGUARD_AUDIT=off (or 0, false,
// no) turns it off.
func Enabled() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv("HOOKGUARD_AUDIT"))) {
	case "off", "0", "false", "no":
		return false
	}
	return true
}

// Log is an audit log in one directory.
type Log struct {
	Dir string
	// MaxBytes is the size past which the file is rotated (0 = DefaultMaxBytes).
	MaxBytes int64
	// Keep is how many rotated files are kept (0 = DefaultKeep).
	Keep int
}

// Path is the current log file.
func (l *Log) Path() string { return filepath.Join(l.Dir, FileName) }

func (l *Log) maxBytes() int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return DefaultMaxBytes
}

func (l *Log) keep() int {
	if l.Keep > 0 {
		return l.Keep
	}
	return DefaultKeep
}

// Files lists the log files that exist, oldest first.
func (l *Log) Files() []string {
	var out []string
	for i := l.keep(); i >= 1; i-- {
		p := l.Path() + "." + strconv.Itoa(i)
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	if _, err := os.Stat(l.Path()); err == nil {
		out = append(out, l.Path())
	}
	return out
}

// Append writes one record as one line. The directory is created (0700) and
// the file too (0600) when missing.
func (l *Log) Append(r *Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode audit record: %w", err)
	}
	return l.AppendLine(append(line, '\n'))
}

// AppendLine appends one encoded line (ending in a newline) with a single
// write, and rotates the file when it has grown past the cap.
func (l *Log) AppendLine(line []byte) error {
	path := l.Path()
	// Never into a directory or file that is not ours (another user's
	// /tmp/hookguard-UID, a symbolic link planted beside the log).
	if err := statedir.Ensure(l.Dir); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	if err := statedir.CheckFile(path); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscallNoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("open audit log: %w", err)
	}
	_, werr := f.Write(line)
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("write audit log: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("write audit log: %w", cerr)
	}
	if size > l.maxBytes() {
		if err := l.rotate(); err != nil {
			return fmt.Errorf("rotate audit log: %w", err)
		}
	}
	return nil
}

// rotate shifts audit.jsonl → .1 → .2 … under an exclusive lock. Whoever gets
// the lock second finds the file already small and does nothing.
func (l *Log) rotate() error {
	unlock, err := lockFile(l.Path() + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	fi, err := os.Stat(l.Path())
	if err != nil || fi.Size() <= l.maxBytes() {
		return nil
	}
	for i := l.keep() - 1; i >= 1; i-- {
		from := l.Path() + "." + strconv.Itoa(i)
		if err := os.Rename(from, l.Path()+"."+strconv.Itoa(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Rename(l.Path(), l.Path()+".1")
}
