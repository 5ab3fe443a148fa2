//go:build !unix

package judgeserver

import (
	"net"
	"os"
	"os/exec"
)

// serverSupported reports whether this platform runs the judge server. On
// Windows the hook judges in-process, with the persistent cache.
const serverSupported = false

func lockExclusive(*os.File) error { return errNoServer }

func listenPrivate(string) (net.Listener, error) { return nil, errNoServer }

func detach(*exec.Cmd) {}

func peerUID(*net.UnixConn) (int, error) { return -1, errNoServer }
