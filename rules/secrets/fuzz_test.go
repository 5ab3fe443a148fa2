package secrets

import (
	"strings"
	"testing"
)

// FuzzRedact: scanning and redacting never panic, findings lie inside the
// scanned text, and no secret a scan found is left in the redacted text.
func FuzzRedact(f *testing.F) {
	for _, c := range []string{
		"token ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8", "postgres://app:Xk9mQ2vLp7rT@db:5432/x",
		"-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7x9kLm2QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8b\\n",
		"API_KEY=Zq8vL2mN4pR6tX9bQ1w", "Z2hwX1I4eDJrTG05UXBaNHZUN3dOMXNZNmJIM2NKNWRGMGdBMmVLOA==", "%2D%2D%2D", "ｇｈｐ＿",
		// A value found once and written again where no rule sees it.
		"Q2vLp7rT://:Q2vLp7rT@00",
	} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res := Scan(s, Options{})
		for _, fd := range res.Findings {
			if fd.Start < 0 || fd.End > len(res.Text) || fd.Start > fd.End {
				t.Fatalf("finding %+v outside the text (%d bytes)", fd, len(res.Text))
			}
		}
		red, _ := Redact(s)
		for _, v := range res.Values() {
			if len(v) >= minKnownPrefix && strings.Contains(red, v) {
				t.Fatalf("%q left in the redacted text %q", v, red)
			}
		}
	})
}
