package rules

import (
	"fmt"
	"strings"
	"testing"
)

// TestPairIndexPresent: the one-pass search finds exactly the literals
// strings.Contains finds, over texts where they overlap, repeat, share their
// first two bytes and sit at both ends.
func TestPairIndexPresent(t *testing.T) {
	lits := []string{"curl", "cu", "rm -rf", "rmdir", "~/.ssh", "ssh", "zz", "password", "pass", "\x00\x01"}
	ix := newPairIndex(lits)
	for _, text := range []string{
		"", "c", "curl", "xx rm -r then rmdir a", "cat ~/.ssh/id", "passwor", "the password is", "zz", "a\x00\x01",
		strings.Repeat("cucucu", 1000) + "rl", strings.Repeat("pas", 5000) + "s",
	} {
		got := ix.present(text)
		for i, l := range lits {
			if want := strings.Contains(text, l); got[i] != want {
				t.Errorf("%.40q: %q found = %v, want %v", text, l, got[i], want)
			}
		}
	}
}

// TestRequiredLiteralsLookarounds: what a positive lookaround looks for must
// be in the text, so it counts; a negative one never requires anything, and
// a parenthesis inside a character class opens no group.
func TestRequiredLiteralsLookarounds(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    string
	}{
		{`(?is)^(?=.*\b(?:alpha|beta)\b).{0,1}(?=.*gamma)`, "[[alpha beta] [gamma]]"},
		{`delta(?!.*epsilon)`, "[[delta]]"},
		{`(?<=zeta\s)eta`, "[[zeta] [eta]]"},
		{`(?<!theta)iota`, "[[iota]]"},
		{`kappa[(?=]lambda`, "[[kappa] [lambda]]"},
		{`(?!mu)`, "[]"},
	} {
		if got := fmt.Sprint(requiredLiterals(tc.pattern)); got != tc.want {
			t.Errorf("requiredLiterals(%q) = %s, want %s", tc.pattern, got, tc.want)
		}
	}
}
