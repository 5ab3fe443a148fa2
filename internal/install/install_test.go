package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const testBinary = "/usr/local/bin/hookguard"

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run go test -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n%s", name, unifiedDiff("want", "got", string(want), string(got)))
	}
}

// fixture copies a testdata file into a fresh project and returns its target.
func fixture(t *testing.T, agent Agent, file string) Target {
	t.Helper()
	root := t.TempDir()
	var tg Target
	if agent == Claude {
		tg = ClaudeTarget(Project, root, t.TempDir())
	} else {
		tg = CursorTarget(Project, root, t.TempDir())
	}
	if file == "" {
		return tg
	}
	data, err := os.ReadFile(filepath.Join("testdata", string(agent), file))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(tg.Path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tg.Path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return tg
}

func compact(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatalf("compact: %v\n%s", err, data)
	}
	return b.String()
}

func TestInstallUninstallFixtures(t *testing.T) {
	cases := []struct {
		agent Agent
		file  string // "" = no file yet
		tools bool
		// roundTrip: uninstall after install gives back the original content.
		roundTrip bool
	}{
		{Cursor, "", false, false},
		{Cursor, "", true, false},
		{Cursor, "blank.json", false, false},
		{Cursor, "user-authored.json", false, true},
		{Cursor, "user-authored.json", true, true},
		{Cursor, "camelcase-legacy.json", false, false},
		{Cursor, "old-path.json", false, false},
		{Claude, "", false, false},
		{Claude, "other-settings.json", false, true},
		{Claude, "old-hookguard.json", false, false},
	}
	for _, c := range cases {
		name := string(c.agent) + "-" + strings.TrimSuffix(c.file, ".json")
		if c.file == "" {
			name += "new"
		}
		if c.tools {
			name += "-tools"
		}
		t.Run(name, func(t *testing.T) {
			tg := fixture(t, c.agent, c.file)
			opts := Options{Binary: testBinary, NoTools: !c.tools}
			p, err := PlanInstall(tg, opts)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".install.json", p.After)
			if !p.Changed() {
				t.Error("install plan reports no change")
			}
			if _, err := p.Apply(time.Unix(0, 0)); err != nil {
				t.Fatal(err)
			}
			// Idempotent: a second install changes nothing.
			p2, err := PlanInstall(tg, opts)
			if err != nil {
				t.Fatal(err)
			}
			if p2.Changed() {
				t.Errorf("second install changes the file:\n%s", p2.Diff())
			}
			cfg, err := Read(tg)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(cfg.Hookguard()); got == 0 {
				t.Error("no hookguard entries after install")
			}
			for _, e := range cfg.Hookguard() {
				if e.Event == "beforeTabFileRead" {
					// Not managed by install, but repointed at the binary.
					if e.Index != 0 || e.Command != testBinary+" hook --dialect cursor" {
						t.Errorf("beforeTabFileRead entry not updated in place: %+v", e)
					}
					continue
				}
				if e.Index != 0 && c.agent == Cursor {
					t.Errorf("%s: hookguard at position %d, want first", e.Event, e.Index)
				}
				if c.agent == Cursor && (e.FailClosed == nil || !*e.FailClosed) {
					t.Errorf("%s: failClosed not set", e.Event)
				}
				if !strings.HasPrefix(e.Command, testBinary+" hook --dialect ") {
					t.Errorf("%s: command %q", e.Event, e.Command)
				}
			}
			u, err := PlanUninstall(tg)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".uninstall.json", u.After)
			if c.roundTrip {
				orig, _ := os.ReadFile(filepath.Join("testdata", string(c.agent), c.file))
				if compact(t, orig) != compact(t, u.After) {
					t.Errorf("uninstall did not restore the original:\n%s", unifiedDiff("orig", "after", string(orig), string(u.After)))
				}
			}
			if _, err := u.Apply(time.Unix(1, 0)); err != nil {
				t.Fatal(err)
			}
			after, err := Read(tg)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(after.Hookguard()); n != 0 {
				t.Errorf("%d hookguard entries left after uninstall", n)
			}
			if c.file == "" && after.Exists {
				t.Error("uninstall left a file that install created")
			}
			// Uninstall twice: nothing to do.
			if u2, err := PlanUninstall(tg); err != nil || u2.Changed() {
				t.Errorf("second uninstall: changed=%v err=%v", u2 != nil && u2.Changed(), err)
			}
		})
	}
}

func TestInstallRefusesBrokenFiles(t *testing.T) {
	cases := []struct {
		agent    Agent
		file     string
		wantLine int
		wantCol  int
		wantErr  string
	}{
		{Cursor, "broken.json", 6, 5, "invalid character ']'"},
		{Claude, "broken.json", 3, 3, `invalid character '"' after object key:value pair`},
		{Cursor, "version2.json", 0, 0, "only version 1 is understood"},
		{Cursor, "array.json", 0, 0, "not a JSON object"},
		{Cursor, "hooks-not-array.json", 0, 0, "is not an array"},
	}
	for _, c := range cases {
		t.Run(string(c.agent)+"-"+c.file, func(t *testing.T) {
			tg := fixture(t, c.agent, c.file)
			before, _ := os.ReadFile(tg.Path)
			for _, plan := range []func() (*Plan, error){
				func() (*Plan, error) { return PlanInstall(tg, Options{Binary: testBinary}) },
				func() (*Plan, error) { return PlanUninstall(tg) },
			} {
				_, err := plan()
				if err == nil {
					t.Fatal("no error")
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("error %q does not contain %q", err, c.wantErr)
				}
				var se *SyntaxError
				if c.wantLine > 0 {
					if !errors.As(err, &se) {
						t.Fatalf("error %T is not a SyntaxError", err)
					}
					if se.Line != c.wantLine || se.Column != c.wantCol {
						t.Errorf("position %d:%d, want %d:%d", se.Line, se.Column, c.wantLine, c.wantCol)
					}
				}
			}
			after, _ := os.ReadFile(tg.Path)
			if !bytes.Equal(before, after) {
				t.Error("a broken file was modified")
			}
		})
	}
}

// TestApplyBackupOutsideTheProject: with a backup folder, the previous file
// is saved there (named after its path), and nothing new appears beside it.
func TestApplyBackupOutsideTheProject(t *testing.T) {
	tg := fixture(t, Cursor, "user-authored.json")
	orig, _ := os.ReadFile(tg.Path)
	p, err := PlanInstall(tg, Options{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	p.BackupDir = filepath.Join(t.TempDir(), "backups")
	backup, err := p.Apply(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(backup) != p.BackupDir || !strings.HasSuffix(backup, "hooks.json.bak.20260102-030405") {
		t.Errorf("backup %q, want it in %s", backup, p.BackupDir)
	}
	if got, _ := os.ReadFile(backup); !bytes.Equal(got, orig) {
		t.Error("backup does not hold the previous file")
	}
	entries, _ := os.ReadDir(filepath.Dir(tg.Path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".bak") {
			t.Errorf("a backup was left beside the file: %s", e.Name())
		}
	}
}

func TestApplyKeepsBackupAndMode(t *testing.T) {
	tg := fixture(t, Cursor, "user-authored.json")
	if err := os.Chmod(tg.Path, 0o600); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(tg.Path)
	p, err := PlanInstall(tg, Options{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	backup, err := p.Apply(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if want := tg.Path + ".bak.20260102-030405"; backup != want {
		t.Errorf("backup %q, want %q", backup, want)
	}
	if got, _ := os.ReadFile(backup); !bytes.Equal(got, orig) {
		t.Error("backup does not hold the previous file")
	}
	fi, err := os.Stat(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(tg.Path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestApplyWritesThroughSymlink(t *testing.T) {
	tg := fixture(t, Cursor, "user-authored.json")
	real := filepath.Join(t.TempDir(), "dotfiles-hooks.json")
	data, _ := os.ReadFile(tg.Path)
	if err := os.WriteFile(real, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(tg.Path)
	if err := os.Symlink(real, tg.Path); err != nil {
		t.Skip("no symlinks:", err)
	}
	p, err := PlanInstall(tg, Options{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(time.Now()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(tg.Path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("symlink replaced by a file (err %v)", err)
	}
	got, _ := os.ReadFile(real)
	if !bytes.Contains(got, []byte(testBinary)) {
		t.Error("link target not updated")
	}
}

func TestDryRunDiff(t *testing.T) {
	tg := fixture(t, Cursor, "user-authored.json")
	p, err := PlanInstall(tg, Options{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diff()
	for _, want := range []string{"--- " + tg.Path, "+++ " + tg.Path, "@@ ", `"command": "/usr/local/bin/hookguard hook --dialect cursor"`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if _, err := os.Stat(tg.Path + ".bak"); err == nil {
		t.Error("planning wrote a file")
	}
}

func TestIsHookguardCommand(t *testing.T) {
	cases := []struct {
		cmd  string
		want bool
	}{
		{"hookguard hook", true},
		{"/usr/local/bin/hookguard hook --dialect cursor", true},
		{"'/Users/Jane Doe/go/bin/hookguard' hook --dialect claude", true},
		{`"/opt/my tools/hookguard" hook`, true},
		{`/opt/my\ tools/hookguard hook`, true},
		{`C:/tools/hookguard.exe hook`, true},
		{"./bin/hookguard hook", true},
		{"hookguard", false},
		{"hookguard logs --json", false},
		{"hookguard-wrapper hook", false},
		{"/opt/hookguard/run.sh hook", false},
		{"env HOOKGUARD_JUDGE=off hookguard hook", false},
		{"sh -c 'hookguard hook'", false},
		{"python3 .cursor/hooks/guard_shell.py", false},
		{"", false},
	}
	for _, c := range cases {
		if got := IsHookguardCommand(c.cmd); got != c.want {
			t.Errorf("IsHookguardCommand(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestHookCommandRoundTrip(t *testing.T) {
	for _, bin := range []string{"/usr/local/bin/hookguard", "/Users/Jane Doe/bin/hookguard", "/tmp/it's/hookguard"} {
		cmd := HookCommand(bin, "cursor")
		if !IsHookguardCommand(cmd) {
			t.Errorf("%q not recognised", cmd)
		}
		if got := CommandProgram(cmd); got != bin {
			t.Errorf("program of %q = %q, want %q", cmd, got, bin)
		}
	}
}
