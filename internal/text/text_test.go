package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"a\n b\t\tc ":       "a b c",
		"  single  ":        "single",
		"line1\r\nline2\n ": "line1 line2",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"0123456789abc", 10, "0123456789 …[truncated by hookguard: 3 more bytes]"},
		{"ééééé", 3, "é …[truncated by hookguard: 8 more bytes]"},
	}
	for _, tt := range tests {
		got := Truncate(tt.in, tt.max)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) is not valid UTF-8", tt.in, tt.max)
		}
	}
}

func TestKeepEnds(t *testing.T) {
	s := strings.Repeat("é", 50) + "MIDDLE" + strings.Repeat("ü", 50)
	got := KeepEnds(s, 40)
	if !utf8.ValidString(got) || strings.Contains(got, "MIDDLE") || !strings.HasPrefix(got, "éé") || !strings.HasSuffix(got, "üü") {
		t.Errorf("KeepEnds = %q", got)
	}
	if KeepEnds("abc", 10) != "abc" {
		t.Error("short text changed")
	}
}

func TestASCIILower(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Read ~/.SSH/ID_RSA", "read ~/.ssh/id_rsa"},
		{"ÄBC straße İX", "Äbc straße İx"}, // non-ASCII bytes untouched: offsets stay
		{"", ""},
	} {
		got := ASCIILower(c.in)
		if got != c.want || len(got) != len(c.in) {
			t.Errorf("ASCIILower(%q) = %q, want %q (same length)", c.in, got, c.want)
		}
	}
}

// FuzzLower: Lower is strings.ToLower, for any input.
func FuzzLower(f *testing.F) {
	for _, s := range []string{"", "abc", "ABC — Ärger", "İstanbul", "\u212Aelvin", "bad\xffbyte", "ǅ", "ΣΑΣ", "x\xed\xa0\x80y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Lower(s), strings.ToLower(s); got != want {
			t.Fatalf("Lower(%q) = %q, strings.ToLower gives %q", s, got, want)
		}
	})
}
