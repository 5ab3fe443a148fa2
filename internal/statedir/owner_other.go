//go:build !unix

package statedir

import "os"

// owner is unknown on this platform (the per-user profile folder protects it).
func owner(os.FileInfo) (int, bool) { return 0, false }
