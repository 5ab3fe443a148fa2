//go:build !linux && !darwin

package peercred

import "errors"

// Supported reports whether UID works on this platform.
const Supported = false

// UID is not implemented on this platform: callers refuse every peer (fail
// closed, never trust an unchecked one).
func UID(int) (int, error) {
	return -1, errors.New("peer credentials: not supported on this platform")
}
