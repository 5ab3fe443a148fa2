//go:build linux || darwin

package judgeserver

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestPeerUID checks the platform's peer-credential call (SO_PEERCRED on
// Linux, LOCAL_PEERCRED on macOS) against this process's own uid.
func TestPeerUID(t *testing.T) {
	dir, err := os.MkdirTemp("", "hgpeer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	ln, err := listenPrivate(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("socket mode %v: others can connect", perm)
	}
	done := make(chan int, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- -2
			return
		}
		defer c.Close()
		uid, err := peerUID(c.(*net.UnixConn))
		if err != nil {
			t.Errorf("peerUID: %v", err)
		}
		done <- uid
	}()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := <-done; got != os.Getuid() {
		t.Fatalf("peer uid = %d, want %d", got, os.Getuid())
	}
}
