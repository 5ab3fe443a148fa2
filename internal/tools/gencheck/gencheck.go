// Package gencheck is what the data generators (gitleaksgen, bip39gen) share:
// finding the pinned module they generate from, and writing the generated
// files or checking that the committed ones match.
package gencheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
)

// Pinned returns the version of modulePath this program was built with (the
// one go.mod pins) and the module's folder in the module cache (for its
// license).
func Pinned(modulePath string) (version, dir string, err error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", "", fmt.Errorf("no build info")
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", modulePath).Output()
			if err != nil {
				return "", "", fmt.Errorf("locating %s: %w", modulePath, err)
			}
			return d.Version, strings.TrimSpace(string(out)), nil
		}
	}
	return "", "", fmt.Errorf("%s is not in the build", modulePath)
}

// File is one generated file.
type File struct {
	Name string
	Data []byte
}

// WriteOrCheck writes the files, or with check compares them with what is
// on disk and fails naming the first that differs; stale says how to
// regenerate it.
func WriteOrCheck(files []File, check bool, stale string) error {
	for _, f := range files {
		if check {
			have, err := os.ReadFile(f.Name)
			if err != nil {
				return fmt.Errorf("reading %s: %w", f.Name, err)
			}
			if !bytes.Equal(have, f.Data) {
				return fmt.Errorf("%s %s", f.Name, stale)
			}
			continue
		}
		if err := os.WriteFile(f.Name, f.Data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", f.Name, err)
		}
	}
	return nil
}
