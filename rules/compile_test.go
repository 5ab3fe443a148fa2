package rules

import (
	"strings"
	"testing"
)

// TestCaseInsensitivePatternsAreFolded: every leading flag group with i is
// compiled as a lowercased pattern over lowercased text, never with regexp2's
// IgnoreCase, which walks Unicode's case tables for wide classes (one such
// pattern took 55 ms to compile in every read event).
func TestCaseInsensitivePatternsAreFolded(t *testing.T) {
	for _, tt := range []struct {
		pat    string
		folded bool
		match  string
	}{
		{`(?i)AKIA[0-9A-Z]{4}`, true, "akia1234"},
		{`(?im)^\s*(kind:\s*Secret)\s*$[\s\S]*^data:`, true, "kind: secret\ndata:"},
		{`(?si)begin.*END`, true, "begin\nend"},
		{`(?m)^x$`, false, "x"},
		{`^plain`, false, "plain"},
	} {
		re, folded, err := compilePattern(tt.pat)
		if err != nil {
			t.Fatalf("%s: %v", tt.pat, err)
		}
		if folded != tt.folded {
			t.Errorf("%s: folded %v, want %v", tt.pat, folded, tt.folded)
		}
		if ok, _ := re.MatchString(tt.match); !ok {
			t.Errorf("%s does not match %q", tt.pat, tt.match)
		}
	}
	p, err := ParseDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Rules {
		for _, pat := range append(append(append([]string{}, r.Patterns...), r.Unless...), r.Files...) {
			if flags, _, ok := leadingFlags(pat); !ok && len(pat) > 3 && pat[:3] == "(?i" || ok && strings.ContainsRune(flags, 'i') {
				if _, folded, _ := compilePattern(pat); !folded {
					t.Errorf("rule %s: case-insensitive pattern not folded: %.60s", r.ID, pat)
				}
			}
		}
	}
}
