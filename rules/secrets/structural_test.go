package secrets

import (
	"strings"
	"testing"
)

// TestRecoveryPhraseSpan: the finding covers exactly the listed words, even
// when a word before them (not in the list) contains the first of them.
func TestRecoveryPhraseSpan(t *testing.T) {
	phrase := "cross alone angry add already acid air admit achieve alert acid also"
	text := "notes zzzcross " + phrase + ". Thanks"
	fs := findMnemonics(text)
	if len(fs) != 1 {
		t.Fatalf("findings = %d, want 1", len(fs))
	}
	if got := text[fs[0].Start:fs[0].End]; got != phrase {
		t.Errorf("span = %q, want %q", got, phrase)
	}
	if red, _ := Redact(text); !strings.Contains(red, "zzzcross") || strings.Contains(red, "alone") {
		t.Errorf("redacted = %q: the phrase must go, the word before it must stay", red)
	}
}
