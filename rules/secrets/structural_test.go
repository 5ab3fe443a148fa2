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

// TestNamedValue: a file named for a secret whose whole content is one
// random value holds that secret; other names, placeholders and public
// keys do not.
func TestNamedValue(t *testing.T) {
	tests := []struct {
		path, text string
		want       bool
	}{
		{"/w/mlruns/0/run-1/params/wandb_api_key", "81003863452afc2a07b20d830eefa1e43079aa07", true},
		{"/home/dev/.config/tool/token", "tk_9fQ2xLmV7rB4nZ8wKp3sYd6hJc1eGaT\n", true},
		{"/w/secrets/db_password.txt", "Zq7!pL2#vN9@xR4m\n", true},
		{"/w/notes/todo.txt", "81003863452afc2a07b20d830eefa1e43079aa07", false},
		{"/w/config/api_key.example", "81003863452afc2a07b20d830eefa1e43079aa07", false},
		{"/w/secrets/db_password.txt", "changeme\n", false},
		{"/w/secrets/token", "see the team vault for the real token\n", false},
		{"/w/src/keyboard.ts", "8100386345", false},
	}
	for _, tt := range tests {
		got := len(findNamedValue(tt.text, tt.path)) > 0
		if got != tt.want {
			t.Errorf("findNamedValue(%q, %q) = %v, want %v", tt.text, tt.path, got, tt.want)
		}
		if f := findNamedValue(tt.text, tt.path); got && tt.text[f[0].Start:f[0].End] != strings.TrimSpace(tt.text) {
			t.Errorf("findNamedValue(%q) covers %q, want the whole value", tt.text, tt.text[f[0].Start:f[0].End])
		}
	}
}
