//go:build !linux && !darwin

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
)

// supported: no resident evaluator on this platform; every event runs
// `hookguard hook`.
const supported = false

type serverConn struct{}

func connect(string) (*serverConn, error) {
	return nil, errors.New("no resident evaluator on this platform")
}

func (*serverConn) close() {}

func (*serverConn) exchange([]byte) ([]byte, error) {
	return nil, errors.New("no resident evaluator on this platform")
}

// execFull runs `hookguard ARGS` with this process's stdin, stdout and
// stderr, and exits with its code.
func execFull(full string, args []string, _ bool) int {
	return runWith(full, args, os.Stdin)
}

// runFull runs `hookguard ARGS` with data as its stdin.
func runFull(full string, args []string, data []byte) int {
	return runWith(full, args, bytes.NewReader(data))
}

func runWith(full string, args []string, stdin interface{ Read([]byte) (int, error) }) int {
	cmd := exec.Command(full, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return failClosed("hookguard-hook could not run " + full + ": " + err.Error())
}
