package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/effects"
)

// TestEffectsExamples runs every example of the program table as written in
// rules/effects/programs/*.yaml (so it can be run before go generate).
func TestEffectsExamples(t *testing.T) {
	table, _, err := effects.ParseSources(os.DirFS(filepath.Join("effects")))
	if err != nil {
		t.Fatal(err)
	}
	defer effects.Use(table)()
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	n, fails := p.CheckEffectsExamples()
	for _, f := range fails {
		t.Error(f.Error())
	}
	if n < 50 {
		t.Errorf("only %d examples in the program table", n)
	}
}

// TestEffectsTableGenerated keeps rules/effects/table_gen.go identical to the YAML.
func TestEffectsTableGenerated(t *testing.T) {
	table, raw, err := effects.ParseSources(os.DirFS("effects"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(table.Programs, effects.Programs()) || effects.GeneratedHash() != sha256Hex(raw) {
		t.Fatal("rules/effects/table_gen.go is stale: run go generate ./rules/effects")
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestShellLimits: work is bounded below the input cap: an over-long or
// over-nested command is denied by size, without being parsed.
func TestShellLimits(t *testing.T) {
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Cwd: "/w", WorkspaceRoots: []string{"/w"}, Home: "/h"}
	for name, cmd := range map[string]string{
		"long":   "echo " + strings.Repeat("a ", MaxShellBytes),
		"nested": strings.Repeat("$(", MaxShellNesting+1) + "x" + strings.Repeat(")", MaxShellNesting+1),
		"word":   strings.Repeat("a", MaxShellBytes+1),
	} {
		o := p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: cmd}, ctx)
		if o.Decision != hook.Deny || o.Decisive == nil || !strings.Contains(o.Decisive.Reason, "limit") {
			t.Errorf("%s: %s %+v", name, o.Decision, o.Decisive)
		}
	}
	if o := p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: "ls " + strings.Repeat("(", 0) + "-la"}, ctx); o.Decision != hook.Allow {
		t.Errorf("ls -la: %s", o.Decision)
	}
}
