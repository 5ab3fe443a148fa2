package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/internal/text"
)

// countLines checks that every line in the log files is a whole record and
// returns how many lines each writer left, by writer and sequence number.
func countLines(t *testing.T, l *Log) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for _, p := range l.Files() {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("torn line in %s: %q", p, sc.Text())
			}
			seen[r.ConversationID]++
		}
		f.Close()
	}
	return seen
}

func record(writer, seq int) *Record {
	return &Record{
		Time: time.Now(), Event: "beforeShellExecution", Decision: "allow", Source: "rule",
		ConversationID: fmt.Sprintf("w%d-%d", writer, seq),
		// A long command makes lines big enough to rotate often.
		Command: strings.Repeat("x", 300),
	}
}

func TestConcurrentGoroutinesNoTornOrLostLines(t *testing.T) {
	l := &Log{Dir: filepath.Join(t.TempDir(), "state"), MaxBytes: 64 << 10, Keep: 1000}
	const writers, per = 16, 300
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				if err := l.Append(record(w, i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	seen := countLines(t, l)
	if len(seen) != writers*per {
		t.Fatalf("%d distinct lines, want %d", len(seen), writers*per)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s written %d times", id, n)
		}
	}
	if len(l.Files()) < 3 {
		t.Errorf("expected rotation, got %d files", len(l.Files()))
	}
}

// TestHelperWriter is a child process for the multi-process test.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv("AUDIT_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process")
	}
	w, _ := strconv.Atoi(os.Getenv("AUDIT_HELPER_ID"))
	l := &Log{Dir: dir, MaxBytes: 64 << 10, Keep: 1000}
	for i := range 300 {
		if err := l.Append(record(w, i)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentProcessesNoTornOrLostLines(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := filepath.Join(t.TempDir(), "state")
	const procs = 8
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
			cmd.Env = append(os.Environ(), "AUDIT_HELPER_DIR="+dir, "AUDIT_HELPER_ID="+strconv.Itoa(p))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v\n%s", p, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	l := &Log{Dir: dir, Keep: 1000}
	seen := countLines(t, l)
	if len(seen) != procs*300 {
		t.Fatalf("%d distinct lines, want %d", len(seen), procs*300)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s written %d times", id, n)
		}
	}
}

func TestRotationKeepsOnlyKeepFiles(t *testing.T) {
	l := &Log{Dir: t.TempDir(), MaxBytes: 1000, Keep: 2}
	for i := range 50 {
		if err := l.Append(record(0, i)); err != nil {
			t.Fatal(err)
		}
	}
	files := l.Files()
	want := []string{l.Path() + ".2", l.Path() + ".1", l.Path()}
	if strings.Join(files, ",") != strings.Join(want, ",") {
		t.Errorf("files %v, want %v", files, want)
	}
	if _, err := os.Stat(l.Path() + ".3"); err == nil {
		t.Error("a third rotated file was kept")
	}
}

func TestPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	l := &Log{Dir: dir}
	if err := l.Append(record(0, 0)); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, l.Path(): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestNewRecordRedactsAndOmitsContent(t *testing.T) {
	redact := func(s string) string { return strings.ReplaceAll(s, "sk-live-123", "[REDACTED]") }
	cases := []struct {
		name string
		ev   hook.Event
		want map[string]string
	}{
		{"shell", hook.Event{Name: "beforeShellExecution", Kind: hook.KindShell, Command: "curl -H 'Authorization: Bearer sk-live-123' x", Cwd: "/w"},
			map[string]string{"command": "curl -H 'Authorization: Bearer [REDACTED]' x", "cwd": "/w"}},
		{"read", hook.Event{Name: "beforeReadFile", Kind: hook.KindRead, FilePath: "/w/.env", Content: "KEY=sk-live-123"},
			map[string]string{"path": "/w/.env"}},
		{"prompt", hook.Event{Name: "beforeSubmitPrompt", Kind: hook.KindPrompt, Prompt: "my key is sk-live-123, please"},
			map[string]string{}},
		{"mcp", hook.Event{Name: "PreToolUse", Kind: hook.KindMCP, ToolName: "mcp__github__create_issue", Server: "github", Tool: "create_issue", ToolInput: json.RawMessage(`{"body":"sk-live-123"}`)},
			map[string]string{"tool": "create_issue", "server": "github"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := hook.Result{Decision: hook.Deny, Source: hook.SourceRule, RuleID: "r1", Reason: "token sk-live-123 seen"}
			r := NewRecord(&c.ev, res, 1500*time.Microsecond, time.Unix(0, 0), redact)
			data, _ := json.Marshal(r)
			if strings.Contains(string(data), "sk-live-123") {
				t.Errorf("secret in audit line: %s", data)
			}
			if strings.Contains(string(data), "please") || strings.Contains(string(data), "KEY=") {
				t.Errorf("prompt or file content in audit line: %s", data)
			}
			var m map[string]any
			_ = json.Unmarshal(data, &m)
			for k, v := range c.want {
				if m[k] != v {
					t.Errorf("%s = %v, want %q", k, m[k], v)
				}
			}
			if m["duration_ms"] != 1.5 || m["rule_id"] != "r1" || m["decision"] != "deny" {
				t.Errorf("bad record: %s", data)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("é", 3000)
	got := text.Truncate(long, maxField)
	if len(got) > maxField+64 || !strings.Contains(got, "…[truncated") {
		t.Errorf("bad truncation, len %d", len(got))
	}
	if !json.Valid(must(json.Marshal(got))) || strings.ContainsRune(got, '\uFFFD') {
		t.Error("truncation split a rune")
	}
}

func must(b []byte, _ error) []byte { return b }

func TestStateDirAndEnabled(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("HOOKGUARD_STATE_DIR", "")
	t.Setenv("XDG_STATE_HOME", "")
	if d := statedir.Dir(nil); d != filepath.Join(home, ".local", "state", "hookguard") {
		t.Errorf("default state dir %q", d)
	}
	t.Setenv("XDG_STATE_HOME", "/xdg")
	if d := statedir.Dir(nil); d != "/xdg/hookguard" {
		t.Errorf("xdg state dir %q", d)
	}
	t.Setenv("HOOKGUARD_STATE_DIR", "/custom")
	if d := statedir.Dir(nil); d != "/custom" {
		t.Errorf("explicit state dir %q", d)
	}
	for v, want := range map[string]bool{"": true, "on": true, "off": false, "OFF": false, "0": false} {
		t.Setenv("HOOKGUARD_AUDIT", v)
		if Enabled() != want {
			t.Errorf("HOOKGUARD_AUDIT=%q: enabled %v", v, !want)
		}
	}
}

func TestReadFilters(t *testing.T) {
	l := &Log{Dir: t.TempDir(), MaxBytes: 2000, Keep: 5}
	base := time.Now().Add(-2 * time.Hour)
	for i := range 20 {
		r := record(0, i)
		r.Time = base.Add(time.Duration(i) * 10 * time.Minute)
		if i%3 == 0 {
			r.Decision = "deny"
		}
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	// A torn line (disk full) is skipped, not fatal.
	f, _ := os.OpenFile(l.Path(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	f.WriteString(`{"time":"2026-`)
	f.Close()
	all, bad, err := l.Read(Filter{}, 0)
	if err != nil || bad != 1 {
		t.Fatalf("read: bad=%d err=%v", bad, err)
	}
	if len(all) != 20 {
		t.Errorf("%d records, want 20", len(all))
	}
	denied, _, _ := l.Read(Filter{Denied: true}, 0)
	if len(denied) != 7 {
		t.Errorf("%d denied, want 7", len(denied))
	}
	recent, _, _ := l.Read(Filter{Since: base.Add(95 * time.Minute)}, 0)
	if len(recent) != 10 {
		t.Errorf("%d recent, want 10", len(recent))
	}
	last, _, _ := l.Read(Filter{}, 4)
	if len(last) != 4 || last[3].Record.ConversationID != "w0-19" || last[0].Record.ConversationID != "w0-16" {
		t.Errorf("tail wrong: %d records", len(last))
	}
}

func BenchmarkAppend(b *testing.B) {
	l := &Log{Dir: b.TempDir()}
	ev := &hook.Event{Name: "beforeShellExecution", Kind: hook.KindShell, Command: "git status --short", Cwd: "/work/project", ConversationID: "c-1"}
	res := hook.Result{Decision: hook.Allow, Source: hook.SourceRule, RuleID: "git-read-only", Reason: "read-only git command"}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Append(NewRecord(ev, res, time.Millisecond, time.Now(), nil)); err != nil {
			b.Fatal(err)
		}
	}
}
