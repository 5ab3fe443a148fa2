// Package statedir locates hookguard's state directory, shared by the audit
// log, the judge cache and the judge server's socket. One definition keeps
// them in the same place whatever the environment.
package statedir

import (
	"github.com/hookguard/hookguard/internal/statepath"
)

// Dir returns the state directory: $HOOKGUARD_STATE_DIR (made absolute), else
// $XDG_STATE_HOME/hookguard when that is absolute, else
// ~/.local/state/hookguard, else a per-user folder in the temporary directory.
// getenv is os.Getenv when nil. (The location alone lives in package
// statepath, which the thin hook client imports.)
func Dir(getenv func(string) string) string { return statepath.Dir(getenv) }
