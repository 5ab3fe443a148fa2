package rules

import (
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
