package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
)

func TestDefaultPolicyExamples(t *testing.T) {
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.CheckExamples(true) {
		t.Error(f)
	}
}

func TestDefaultPatternsCompile(t *testing.T) {
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Rules {
		for i, pat := range append(append([]string{}, r.Patterns...), r.Unless...) {
			if _, _, err := compilePattern(pat); err != nil {
				t.Errorf("rule %s pattern %d: %v", r.ID, i, err)
			}
		}
	}
}

func TestGeneratedDefaultMatchesYAML(t *testing.T) {
	want, raw, err := ParseDefaultSources(os.DirFS(DefaultDir))
	if err != nil {
		t.Fatal(err)
	}
	want.PrepareForEmbedding()
	got, _ := defaultPolicy()
	sum := sha256.Sum256(raw)
	if !reflect.DeepEqual(want, got) || hex.EncodeToString(sum[:]) != generatedDefaultHash {
		t.Fatal("rules/default_gen.go is stale: run go generate ./rules")
	}
}

// protected_branches is not just documentation: the git rules read it.
func TestProtectedBranchesSetting(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(user, []byte("version: 1\nsettings:\n  protected_branches: [staging]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(LoadOptions{UserPath: user, NoProject: true})
	if err != nil {
		t.Fatal(err)
	}
	fired := func(cmd string) bool {
		out := p.Explain(&hook.Event{Kind: hook.KindShell, Command: cmd}, ExampleContext)
		for _, m := range out.Matches {
			if m.RuleID == "git-push-protected" {
				return true
			}
		}
		return false
	}
	if !fired("git push origin staging") {
		t.Error("a push to the user's protected branch staging is not caught")
	}
	if fired("git push origin main") {
		t.Error("main is protected although the user's list is [staging]")
	}
	def, _ := ParseDefault()
	if out := def.Evaluate(&hook.Event{Kind: hook.KindShell, Command: "git push origin main"}, ExampleContext); out.Decision != hook.Ask {
		t.Errorf("default policy: git push origin main is %s, want ask", out.Decision)
	}
}
