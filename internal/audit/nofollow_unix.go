//go:build unix

package audit

import "syscall"

// syscallNoFollow refuses to open the log through a symbolic link.
const syscallNoFollow = syscall.O_NOFOLLOW
