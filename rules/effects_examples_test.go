package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

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
