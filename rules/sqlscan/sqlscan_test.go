package sqlscan

import (
	"encoding/json"
	"os"
	"testing"
)

// TestCases checks the labeled statements: read (read-only), danger (a
// clear harm) or unknown (neither).
func TestCases(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ SQL, Want string }
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		v := Analyze(c.SQL)
		got := "unknown"
		switch {
		case len(v.Dangers) > 0:
			got = "danger"
		case v.ReadOnly():
			got = "read"
		}
		if got != c.Want {
			t.Errorf("%q: %s (dangers %v, unknown %v), want %s", c.SQL, got, v.Dangers, v.Unknown, c.Want)
		}
	}
}

func TestLooksLikeSQL(t *testing.T) {
	for s, want := range map[string]bool{"SELECT 1": true, "/* x */ drop table y": true, "how do I drop a table": false, "": false} {
		if LooksLikeSQL(s) != want {
			t.Errorf("LooksLikeSQL(%q) != %v", s, want)
		}
	}
}
