//go:build !unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// lockFile takes a lock by creating path exclusively, retrying for a second;
// a lock older than ten seconds is taken to be left by a dead process.
func lockFile(path string) (func(), error) {
	deadline := time.Now().Add(time.Second)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > 10*time.Second {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: timed out", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
