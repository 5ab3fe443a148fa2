//go:build unix

package judgeserver

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// serverSupported reports whether this platform runs the judge server.
const serverSupported = true

// lockExclusive takes the state directory's server lock without waiting;
// ErrRunning means another server holds it.
func lockExclusive(lock *os.File) error {
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return ErrRunning
		}
		return fmt.Errorf("lock state dir: %w", err)
	}
	return nil
}

// listenPrivate listens on a unix socket that only the owner can connect to,
// with no moment at which it exists with wider permissions.
func listenPrivate(sock string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", sock)
	syscall.Umask(old)
	return ln, err
}

// detach makes cmd run in its own session, without the hook's terminal.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
