//go:build linux || darwin

package main

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"

	"github.com/hookguard/hookguard/internal/peercred"
)

// supported: the resident evaluator runs on this platform.
const supported = true

// answerWait bounds waiting for the server's answer; an escalated event
// waits for the model within it.
const answerWait = 120

// serverConn is a connection to the server, made with plain system calls:
// the net package costs more to start than the whole exchange.
type serverConn struct{ fd int }

// connect reaches the server's socket and checks that the server runs as
// this user before anything is sent.
func connect(sock string) (*serverConn, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	uid, err := peercred.UID(fd)
	if err == nil && uid != os.Getuid() {
		err = errors.New("the server runs as uid " + strconv.Itoa(uid) + ", not as this user")
	}
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	tv := syscall.Timeval{Sec: answerWait}
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	return &serverConn{fd: fd}, nil
}

func (c *serverConn) close() { syscall.Close(c.fd) }

// exchange sends one request line and reads the one line back.
func (c *serverConn) exchange(b []byte) ([]byte, error) {
	for len(b) > 0 {
		n, err := syscall.Write(c.fd, b)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			return nil, err
		}
		b = b[n:]
	}
	var line []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := syscall.Read(c.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return line, nil
		}
		line = append(line, buf[:n]...)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			return line[:i], nil
		}
		if len(line) > 64<<20 {
			return nil, errors.New("answer too long")
		}
	}
}

// execFull replaces this process with `hookguard ARGS`; stdin is still
// unread. start asks it to start the server for the next event.
func execFull(full string, args []string, start bool) int {
	env := os.Environ()
	if start {
		env = append(env, "HOOKGUARD_START_RESIDENT=1")
	}
	err := syscall.Exec(full, append([]string{full}, args...), env)
	return failClosed("hookguard-hook could not run " + full + ": " + err.Error())
}

// runFull runs `hookguard ARGS` with data, already read from stdin, as its
// stdin, and exits with its code.
func runFull(full string, args []string, data []byte) int {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return failClosed("hookguard-hook could not run " + full + ": " + err.Error())
	}
	syscall.CloseOnExec(p[1])
	pid, err := syscall.ForkExec(full, append([]string{full}, args...), &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{uintptr(p[0]), os.Stdout.Fd(), os.Stderr.Fd()},
	})
	syscall.Close(p[0])
	if err != nil {
		syscall.Close(p[1])
		return failClosed("hookguard-hook could not run " + full + ": " + err.Error())
	}
	for len(data) > 0 {
		n, err := syscall.Write(p[1], data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // hookguard stopped reading: its answer stands
		}
		data = data[n:]
	}
	syscall.Close(p[1])
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return failClosed("hookguard-hook lost " + full + ": " + err.Error())
		}
		break
	}
	if ws.Exited() {
		return ws.ExitStatus()
	}
	return 2
}
