//go:build unix

package statedir

import (
	"os"
	"syscall"
)

// owner returns the uid that owns a file.
func owner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
