package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Filter selects records.
type Filter struct {
	// Since drops records older than this time (zero: keep all).
	Since time.Time
	// Denied keeps only deny decisions.
	Denied bool
}

func (f Filter) keep(r *Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if f.Denied && r.Decision != string(hookDeny) {
		return false
	}
	return true
}

const hookDeny = "deny"

// Line is one record with the exact line it was read from.
type Line struct {
	Record Record
	Raw    []byte
}

// Read returns the records of the log that pass f, oldest first, keeping at
// most the last tail of them (tail <= 0: all). Lines that are not valid JSON
// (a disk that filled up mid-line) are counted in bad and skipped.
func (l *Log) Read(f Filter, tail int) (lines []Line, bad int, err error) {
	for _, path := range l.Files() {
		if !f.Since.IsZero() {
			if fi, err := os.Stat(path); err == nil && fi.ModTime().Before(f.Since) {
				continue // nothing in a file last written before Since can match
			}
		}
		n, err := readFile(path, f, tail, &lines)
		bad += n
		if err != nil {
			return lines, bad, err
		}
	}
	return lines, bad, nil
}

func readFile(path string, f Filter, tail int, out *[]Line) (bad int, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("open audit log: %w", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		raw := sc.Bytes()
		if len(raw) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(raw, &r); err != nil {
			bad++
			continue
		}
		if !f.keep(&r) {
			continue
		}
		*out = append(*out, Line{Record: r, Raw: append([]byte(nil), raw...)})
		if tail > 0 && len(*out) > 2*tail+1024 {
			*out = append((*out)[:0], (*out)[len(*out)-tail:]...)
		}
	}
	if tail > 0 && len(*out) > tail {
		*out = append((*out)[:0], (*out)[len(*out)-tail:]...)
	}
	if err := sc.Err(); err != nil {
		return bad, fmt.Errorf("read %s: %w", path, err)
	}
	return bad, nil
}
