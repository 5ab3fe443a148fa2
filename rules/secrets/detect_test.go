package secrets

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type labeledCase struct {
	Text     string `json:"text"`
	Secret   bool   `json:"secret"`
	Blocking bool   `json:"blocking"`
	Kind     string `json:"kind"`
}

func loadCases(t *testing.T) []labeledCase {
	t.Helper()
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs []labeledCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestCases checks every labeled text: secrets found (with their kind and
// whether they block), placeholders and look-alikes not.
func TestCases(t *testing.T) {
	for i, c := range loadCases(t) {
		res := Scan(c.Text, Options{})
		blocking := len(res.Blocking(true)) > 0
		if (len(res.Findings) > 0) != c.Secret || blocking != c.Blocking {
			t.Errorf("case %d: found %v (blocking %v), want secret %v blocking %v\ntext: %.160q", i, ids(res.Findings), blocking, c.Secret, c.Blocking, c.Text)
			continue
		}
		if c.Kind != "" && !strings.Contains(ids(res.Findings), c.Kind) {
			t.Errorf("case %d: found %v, want kind %s\ntext: %.160q", i, ids(res.Findings), c.Kind, c.Text)
		}
	}
}

// TestRedactRemovesEverySecret checks that redaction leaves none of the
// secrets of the labeled cases, and leaves the look-alikes alone.
func TestRedactRemovesEverySecret(t *testing.T) {
	for i, c := range loadCases(t) {
		red, fs := Redact(c.Text)
		if !c.Secret {
			if red != c.Text {
				t.Errorf("case %d: a text without secrets was changed: %q", i, red)
			}
			continue
		}
		if len(fs) == 0 || !strings.Contains(red, "[REDACTED:") {
			t.Errorf("case %d: nothing redacted in %.120q", i, c.Text)
			continue
		}
		if again := Scan(red, Options{}); len(again.Findings) > 0 {
			t.Errorf("case %d: the redacted text still holds %v: %.200q", i, ids(again.Findings), red)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"AKIAIOSFODNN7EXAMPLE", true}, {"<your-key>", true}, {"sk-...a1B2", true}, {"xxxxxxxxxxxxxxxx", true},
		{"${TOKEN}", true}, {"{{ secrets.X }}", true}, {"YOUR_API_KEY", true}, {"changeme", true}, {"aaaaaaaaaaaaaaaaaaaa", true},
		{"Xk9mQ2vLp7rT", false}, {"ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8", false},
		// A long random body holds short words by chance; a stand-in's word stands apart.
		{"EwuQBMgNsh0mZx4khPharaW2UrtsGfl6fcilbdkeR8oG/6sjua6AuRzunKanZoNnx3\\nkeR8oG/6sjua6AuRzme6u7O1e/FAKEtOybxABB5w2iDafLn2psCAMywpkVIA1eLVb", false},
		{"EwuQBMgNsh0mZx4khPharaW2UrtsGfl6fcilbdkeR8oG/6sjua6AuRzunKanZoNnx3\\nkeR8oG/6sjua6AuRzme6u7O1e/FAKE/OybxABB5w2iDafLn2psCAMywpkVIA1eLVb", true},
		{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvuNMoSfm76oq-REDACTED", true},
	} {
		if got := Placeholder(tc.v); got != tc.want {
			t.Errorf("Placeholder(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestFindingNamesKindAndLine(t *testing.T) {
	text := "line one\nline two\nGITHUB=ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8\n"
	res := Scan(text, Options{})
	if len(res.Findings) != 1 {
		t.Fatalf("findings %v", ids(res.Findings))
	}
	f := res.Findings[0]
	if f.Line != 3 || f.Where() != "line 3" || f.Kind() != "GitHub PAT" {
		t.Errorf("finding %+v: where %q kind %q", f, f.Where(), f.Kind())
	}
}

// TestPathRules checks that a file's path selects its rules: lockfiles are
// on gitleaks' global allowlist.
func TestPathRules(t *testing.T) {
	text := `"node_modules/x": {"integrity": "sha512-abc", "resolved": "https://registry.example/x.tgz", "api_key": "Zq8vL2mN4pR6tX9b"}`
	if got := Scan(text, Options{Path: "/w/package-lock.json"}).Blocking(true); len(got) != 0 {
		t.Errorf("package-lock.json: %v", ids(got))
	}
}

func ids(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.RuleID+"/"+f.Confidence.String()+f.Encoding)
	}
	return strings.Join(s, ",")
}

// benchText is real text of a given size: the start of the README (a
// prompt-sized piece of prose with commands and code) or the Go sources of
// the rules package (a file that talks about secrets, tokens and keys a lot).
func benchText(b testing.TB, size int, glob string) string {
	b.Helper()
	files, _ := filepath.Glob(glob)
	var sb strings.Builder
	for sb.Len() < size {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(data)
		}
	}
	return sb.String()[:size]
}

func BenchmarkScanPrompt4K(b *testing.B) {
	text := benchText(b, 4<<10, "../../README.md")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text, Options{})
	}
}

// BenchmarkScanSourceFile scans the Go source file a read event of
// internal/bench/hook.sh carries (the hook's own judge.go, frozen).
func BenchmarkScanSourceFile(b *testing.B) {
	data, err := os.ReadFile("../../internal/bench/testdata/read-source.go.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text, Options{Path: "/home/dev/project/judge/judge.go"})
	}
}

func BenchmarkScanFile256K(b *testing.B) {
	text := benchText(b, 256<<10, "../*.go")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text, Options{Path: "/w/rules/eval.go"})
	}
}

// TestRedactKnown: a known secret is cut out whole and as a truncated piece.
func TestRedactKnown(t *testing.T) {
	v := "SG.BrTRWnwEgeQiiAAumtjCXc.QvWXxKRrhVAZ1wzzisjzpsg4hYmVW2lpevAbCdEfGh"
	for _, s := range []string{"run x " + v + " now", "unknown program (`x SG.BrTRWnwEge…`)"} {
		got := RedactKnown(s, []string{v})
		if strings.Contains(got, "SG.BrTRW") || !strings.Contains(got, "[REDACTED]") {
			t.Errorf("RedactKnown(%q) = %q", s, got)
		}
	}
	if got := RedactKnown("SG.Br short", []string{v}); got != "SG.Br short" {
		t.Errorf("a piece shorter than %d bytes was cut: %q", minKnownPrefix, got)
	}
}

// denseKeywords is text made of the words secret rules wake on, n bytes long.
func denseKeywords(n int) string {
	words := []string{"token", "password", "key", "secret", "the", "AKIA", "ghp_", "sk-", "private key", "://u:p@h", "eyJ", "session"}
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(words[(i*7+i/3)%len(words)])
		sb.WriteByte(' ')
	}
	return sb.String()[:n]
}

// TestScanBoundedWork: text made of keywords stops the scan at its limits and
// says so (redaction then withholds it all); ordinary text of the same size is
// read whole, and a secret deep inside a long text is found, not cut out.
func TestScanBoundedWork(t *testing.T) {
	dense := denseKeywords(2 << 20)
	res := Scan(dense, Options{})
	if res.Incomplete == "" || !strings.Contains(res.Incomplete, "keywords") {
		t.Fatalf("dense keywords: incomplete = %q (hits %d, work %d)", res.Incomplete, res.hits, res.spent)
	}
	if red, _ := Redact(dense); !strings.HasPrefix(red, "[REDACTED: text withheld") || len(red) > 300 {
		t.Errorf("redaction of an incomplete scan: %.120q", red)
	}
	source := benchText(t, 6<<20, "../../internal/*/*.go")
	secret := "ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8"
	text := source[:3<<20] + "\nconst gh = \"" + secret + "\"\n" + source[3<<20:]
	res = Scan(text, Options{Path: "/w/internal/all.go"})
	if res.Incomplete != "" {
		t.Fatalf("6 MiB of source: incomplete %q (hits %d, work %d)", res.Incomplete, res.hits, res.spent)
	}
	if vals := res.Values(); !slices.Contains(vals, secret) {
		t.Errorf("the token in the middle of 6 MiB was not found: %v", vals)
	}
	long := strings.Repeat("a", maxScan+1)
	if res := Scan(long, Options{}); !strings.Contains(res.Incomplete, "longer than") {
		t.Errorf("over the scan length: incomplete = %q", res.Incomplete)
	}
}

// TestScanEncodedBudget: a long encoded run that decodes to binary (an
// inlined image) is skipped without costing the decoding budget, so a short
// encoded secret beside it is still found; a run that decodes to more text
// than the budget makes the scan incomplete (the event is then judged and
// its text withheld), without being decoded.
func TestScanEncodedBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	blob := make([]byte, 2<<20)
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	secret := "ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8"
	hidden := base64.StdEncoding.EncodeToString([]byte("token: " + secret))
	for _, c := range []struct {
		name, text, incomplete string
		found                  bool
	}{
		{"binary blob", "img = \"" + base64.StdEncoding.EncodeToString(blob) + "\"\nauth = \"" + hidden + "\"\n", "", true},
		{"hex blob", "h = " + fmt.Sprintf("%x", blob[:200<<10]) + "\nauth = \"" + hidden + "\"\n", "", true},
		{"text over the budget", "doc = " + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("plain words here ", 80000))) +
			"\nauth = \"" + hidden + "\"\n", "encoded text", false},
	} {
		budget, decoded := maxDecoded, 0
		segs, _ := encodedSegments(c.text, &budget)
		for _, seg := range segs {
			decoded += len(seg.decoded)
		}
		if decoded > maxDecoded {
			t.Errorf("%s: %d bytes decoded, over the budget of %d", c.name, decoded, maxDecoded)
		}
		res := Scan(c.text, Options{})
		if c.incomplete == "" && res.Incomplete != "" || !strings.Contains(res.Incomplete, c.incomplete) {
			t.Errorf("%s: incomplete = %q, want %q", c.name, res.Incomplete, c.incomplete)
		}
		found := false
		for _, f := range res.Findings {
			found = found || f.Encoding == "base64" && f.RuleID == "github-pat"
		}
		if found != c.found {
			t.Errorf("%s: encoded token found = %v, want %v: %+v", c.name, found, c.found, res.Findings)
		}
	}
}

// BenchmarkScanDenseKeywords8M: the worst text under the event cap, made of
// the words that wake secret rules: bounded by the scan's limits.
func BenchmarkScanDenseKeywords8M(b *testing.B) {
	text := denseKeywords(8<<20 - 4096)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text, Options{})
	}
}
