package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestCommandPanicIsAnError: a command that panics ends with exit status 2
// and a one-line message, not a crash with a stack trace.
func TestCommandPanicIsAnError(t *testing.T) {
	commands["test-panic"] = command{name: "test-panic", summary: "panics", run: func([]string, io.Reader, io.Writer, io.Writer) error {
		var m map[string]int
		m["x"]++ // a nil map: a runtime panic
		return nil
	}}
	defer delete(commands, "test-panic")
	var stdout, stderr bytes.Buffer
	code := run([]string{"test-panic"}, strings.NewReader(""), &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "internal error in test-panic") || strings.Contains(stderr.String(), "goroutine") {
		t.Fatalf("run = %d, stderr %q; want 2 and a one-line internal error", code, stderr.String())
	}
}
