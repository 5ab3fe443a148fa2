// Package statepath says where hookguard's state directory is. It is the
// location alone, without the checks package statedir adds, so that the thin
// hook client (cmd/hookguard-hook) can find the resident evaluator's socket
// without linking more than it needs.
package statepath

import (
	"os"
	"path/filepath"
	"strconv"
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
		return filepath.Join(os.TempDir(), "hookguard-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(home, ".local", "state", "hookguard")
}
