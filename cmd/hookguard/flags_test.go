package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlagErrorsExitTwoAndPrintOnce: a bad flag is a usage error in every
// command: exit 2, the error printed once, nothing on stdout.
func TestFlagErrorsExitTwoAndPrintOnce(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{
		{"check", "--bogus"},
		{"doctor", "--bogus"},
		{"eval", "--bogus"},
		{"install", "--bogus"},
		{"uninstall", "--bogus"},
		{"logs", "--bogus"},
		{"version", "--bogus"},
		{"serve", "--bogus"},
		{"policy", "test", "--bogus"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr.String())
			}
			if n := strings.Count(stderr.String(), "-bogus"); n != 1 {
				t.Errorf("the flag error is printed %d times, want once:\n%s", n, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}
