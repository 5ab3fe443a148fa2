package statedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrUntrusted means a state path is not ours: another user owns it, others
// can write to it, or it is a symbolic link. Nothing is read from, written to
// or connected through such a path.
var ErrUntrusted = errors.New("untrusted state path")

// Ensure creates dir (mode 0700) when it does not exist and checks that it is
// ours: a real directory (not a symbolic link), owned by this user, that no
// one else can write to. A directory we own with looser permissions is
// tightened; one another user owns is refused with ErrUntrusted. The last
// path component is created with Mkdir, so a directory that appears between
// the check and the creation (another user racing for /tmp/hookguard-UID)
// is caught by the check that follows.
func Ensure(dir string) error {
	if dir == "" {
		return errors.New("no state directory")
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return fmt.Errorf("create state dir: %w", err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create state dir: %w", err)
		}
	}
	return Check(dir, true)
}

// Check verifies that dir is ours (see Ensure) without creating it. With
// tighten, a directory we own that others could write to is made 0700.
func Check(dir string, tighten bool) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symbolic link", ErrUntrusted, dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUntrusted, dir)
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to uid %d, not to this user (%d)", ErrUntrusted, dir, uid, os.Getuid())
	}
	perm := fi.Mode().Perm()
	if perm&0o077 != 0 && tighten {
		// Ours: make it private (it holds the cache and the audit log). On a
		// read-only file system that fails; a folder nobody else can write
		// to is still safe to read from (the cache stays usable read-only).
		if err := chmod(dir, 0o700); err == nil {
			return nil
		} else if perm&0o022 == 0 {
			return nil
		} else {
			return fmt.Errorf("secure state dir: %w", err)
		}
	}
	if perm&0o022 != 0 {
		return fmt.Errorf("%w: others can write to %s (mode %v)", ErrUntrusted, dir, perm)
	}
	return nil
}

// chmod is os.Chmod (a variable so that tests can play a read-only file system).
var chmod = os.Chmod

// CheckFile verifies that a file in the state directory (the judge server's
// socket, a log) is ours: not a symbolic link, owned by this user, not
// writable by others. A missing file is not an error.
func CheckFile(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symbolic link", ErrUntrusted, path)
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to uid %d, not to this user (%d)", ErrUntrusted, path, uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%w: others can write to %s", ErrUntrusted, path)
	}
	return nil
}
