//go:build darwin

package peercred

import "golang.org/x/sys/unix"

// UID reads the peer's uid with LOCAL_PEERCRED (what getpeereid(3) reads).
func UID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// Supported reports whether UID works on this platform.
const Supported = true
