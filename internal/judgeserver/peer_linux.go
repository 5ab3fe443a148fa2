package judgeserver

import "golang.org/x/sys/unix"

// peerCred reads the peer's uid with SO_PEERCRED.
func peerCred(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
