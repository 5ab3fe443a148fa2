//go:build linux

package peercred

import "syscall"

// UID reads the peer's uid with SO_PEERCRED.
func UID(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// Supported reports whether UID works on this platform.
const Supported = true
