//go:build unix

package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNoAuditIntoForeignDir: the audit log is never written into a state
// directory another user owns, nor through a symbolic link.
func TestNoAuditIntoForeignDir(t *testing.T) {
	rec := &Record{Time: time.Now().UTC()}
	base := t.TempDir()
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "link")
	os.Symlink(real, link)
	if err := (&Log{Dir: link}).Append(rec); err == nil {
		t.Fatal("wrote the audit log through a symbolic link")
	}
	dir := filepath.Join(base, "state")
	os.Mkdir(dir, 0o700)
	os.Symlink("/tmp/elsewhere.jsonl", filepath.Join(dir, FileName))
	if err := (&Log{Dir: dir}).Append(rec); err == nil {
		t.Fatal("followed a symbolic link planted as the log file")
	}
	if os.Getuid() != 0 {
		t.Skip("needs root for a directory owned by another user")
	}
	foreign := filepath.Join(base, "foreign")
	os.Mkdir(foreign, 0o700)
	os.Chown(foreign, 65534, 65534)
	if err := (&Log{Dir: foreign}).Append(rec); err == nil {
		t.Fatal("wrote the audit log into a directory another user owns")
	}
	if _, err := os.Stat(filepath.Join(foreign, FileName)); err == nil {
		t.Fatal("audit file created in a foreign directory")
	}
}
