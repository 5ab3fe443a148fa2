//go:build linux || darwin

package judgeserver

import (
	"github.com/hookguard/hookguard/internal/peercred"

	"fmt"
	"net"
)

// peerUID returns the uid of the process at the other end of conn, read by
// the platform's socket option (peerCred).
func peerUID(conn *net.UnixConn) (int, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	uid, cerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, cerr = peercred.UID(int(fd)) }); err != nil {
		return -1, fmt.Errorf("peer credentials: %w", err)
	}
	if cerr != nil {
		return -1, fmt.Errorf("peer credentials: %w", cerr)
	}
	return uid, nil
}
