//go:build unix

package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestEnsureCreatesPrivateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, %v", fi.Mode().Perm(), err)
	}
}

func TestEnsureTightensOurLooseDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	os.Chmod(dir, 0o777)
	if err := Check(dir, false); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("world-writable dir accepted without tightening: %v", err)
	}
}

func TestSymlinkRefused(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "state")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := Ensure(link); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("symlinked state dir accepted: %v", err)
	}
	sock := filepath.Join(real, "judge.sock")
	os.Symlink("/tmp/elsewhere.sock", sock)
	if err := CheckFile(sock); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("symlinked socket accepted: %v", err)
	}
}

// TestForeignDirRefused: a state directory another user created first (the
// /tmp/hookguard-UID fallback) is refused. Needs root to make one.
func TestForeignDirRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to create a directory owned by another user")
	}
	dir := filepath.Join(t.TempDir(), "hookguard-0")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := Ensure(dir); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("foreign state dir accepted: %v", err)
	}
	f := filepath.Join(t.TempDir(), "judge.sock")
	os.WriteFile(f, nil, 0o600)
	os.Chown(f, 65534, 65534)
	if err := CheckFile(f); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("foreign socket accepted: %v", err)
	}
}

// TestReadOnlyStateDirStillUsable: on a read-only file system a state folder
// we own that others can read but not write is still accepted (the cache is
// read from it); one others can write to is refused.
func TestReadOnlyStateDirStillUsable(t *testing.T) {
	defer func(orig func(string, os.FileMode) error) { chmod = orig }(chmod)
	chmod = func(string, os.FileMode) error { return syscall.EROFS }
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := Ensure(dir); err != nil {
		t.Fatalf("a read-only state dir of ours was refused: %v", err)
	}
	os.Chmod(dir, 0o777)
	if err := Ensure(dir); err == nil {
		t.Fatal("a world-writable state dir that cannot be tightened was accepted")
	}
}
