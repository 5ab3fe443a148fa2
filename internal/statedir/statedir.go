// Package statedir locates hookguard's state directory, shared by the audit
// log, the judge cache and the judge server's socket. One definition keeps
// them in the same place whatever the environment.
package statedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir returns the state directory: $HOOKGUARD_STATE_DIR (made absolute), else
// $XDG_STATE_HOME/hookguard when that is absolute, else
// ~/.local/state/hookguard, else a per-user folder in the temporary directory.
// getenv is os.Getenv when nil.
func Dir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("HOOKGUARD_STATE_DIR"); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
		return d
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "hookguard")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return filepath.Join(os.TempDir(), fmt.Sprintf("hookguard-%d", os.Getuid()))
	}
	return filepath.Join(home, ".local", "state", "hookguard")
}
