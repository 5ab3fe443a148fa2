package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"testing"
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
	want, err := ParseDefaultYAML()
	if err != nil {
		t.Fatal(err)
	}
	want.PrepareForEmbedding()
	got, _ := defaultPolicy()
	sum := sha256.Sum256(DefaultPolicyYAML())
	if !reflect.DeepEqual(want, got) || hex.EncodeToString(sum[:]) != generatedDefaultHash {
		t.Fatal("rules/default_gen.go is stale: run go generate ./rules")
	}
}
