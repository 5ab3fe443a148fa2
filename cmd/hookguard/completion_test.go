package main

import (
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestCompletionScripts: every shell's script names every command, bash's
// parses, and an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"completion", sh}, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			names := make([]string, 0, len(commands))
			for name := range commands {
				names = append(names, name)
			}
			sort.Strings(names)
			if !strings.Contains(stdout.String(), strings.Join(names, " ")) {
				t.Errorf("the %s script does not complete every command (%v)", sh, names)
			}
			if sh != "bash" {
				return
			}
			bash, err := exec.LookPath("bash")
			if err != nil {
				t.Skip("no bash here")
			}
			cmd := exec.Command(bash, "-n")
			cmd.Stdin = &stdout
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("bash -n: %v\n%s", err, out)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"completion", "tcsh"}, strings.NewReader(""), &stdout, &stderr); code != 2 {
		t.Errorf("unknown shell: exit %d, want 2", code)
	}
}
