// Package evals holds hookguard's labeled event sets (evals/sets/*.jsonl) and
// the scorer behind `hookguard eval`: one loader shared by the eval command, the
// unit tests and the fuzz seeds; a runner that sends every case through the same
// pipeline as `hookguard hook`; the metrics, the reports (text, JSON, HTML), the
// baseline diff and the CI gate; and the HTTP cassette used to record and replay
// judge calls.
package evals

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
)

//go:embed sets/*.jsonl
var bundled embed.FS

// BundledName is how reports name the embedded sets.
const BundledName = "bundled"

// maxLine bounds one JSONL line: an event may be as large as the hook accepts,
// plus the case's own fields.
const maxLine = hook.MaxEventBytes + 1<<20

// Case is one labeled event.
type Case struct {
	// ID is unique across every set loaded together.
	ID string `json:"id"`
	// Event is the hook input exactly as the agent sends it on stdin.
	Event json.RawMessage `json:"event"`
	// Expect is the right answer: allow, ask or deny.
	Expect hook.Decision `json:"expect"`
	// Tags give the event kind (shell, mcp, read, prompt), a topic, and clear
	// (the rules alone must get it right) or ambiguous.
	Tags []string `json:"tags,omitempty"`
	// Note says why the label is what it is.
	Note string `json:"note,omitempty"`

	// File and Line locate the case in its set, for messages.
	File string `json:"-"`
	Line int    `json:"-"`
}

// HasTag reports whether the case carries tag.
func (c *Case) HasTag(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// Where is "file:line" for messages.
func (c *Case) Where() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// LineError is a problem with one line of a set.
type LineError struct {
	File string
	Line int
	Err  error
}

// Error is "file:line: problem".
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the problem, for errors.Is (ErrDuplicateID, ErrBadExpect, …).
func (e *LineError) Unwrap() error { return e.Err }

// Errors a set can have, wrapped in a LineError.
var (
	ErrNoID        = errors.New("case has no id")
	ErrDuplicateID = errors.New("duplicate case id")
	ErrBadExpect   = errors.New("case has no valid expect (want allow, ask or deny)")
)

// Parse reads one set in JSONL form. name is used in error messages. Blank lines
// are skipped; every other line must be one case.
func Parse(r io.Reader, name string) ([]Case, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var cases []Case
	for line := 1; ; line++ {
		data, err := readLine(br)
		if err == io.EOF && len(data) == 0 {
			return cases, nil
		}
		if err != nil && err != io.EOF {
			return nil, &LineError{File: name, Line: line, Err: err}
		}
		if line == 1 {
			data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 {
			if err == io.EOF {
				return cases, nil
			}
			continue
		}
		c, perr := parseCase(data)
		if perr != nil {
			return nil, &LineError{File: name, Line: line, Err: perr}
		}
		c.File, c.Line = name, line
		cases = append(cases, c)
		if err == io.EOF {
			return cases, nil
		}
	}
}

func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}

func parseCase(data []byte) (Case, error) {
	var raw struct {
		ID     *string         `json:"id"`
		Event  json.RawMessage `json:"event"`
		Expect *string         `json:"expect"`
		Tags   []string        `json:"tags"`
		Note   string          `json:"note"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Case{}, fmt.Errorf("parse case: %w", err)
	}
	if raw.ID == nil || strings.TrimSpace(*raw.ID) == "" {
		return Case{}, ErrNoID
	}
	c := Case{ID: *raw.ID, Event: raw.Event, Tags: raw.Tags, Note: raw.Note}
	if raw.Expect == nil {
		return c, fmt.Errorf("case %q: %w", c.ID, ErrBadExpect)
	}
	d, err := hook.ParseDecision(*raw.Expect, false)
	if err != nil {
		return c, fmt.Errorf("case %q: %w: %q", c.ID, ErrBadExpect, *raw.Expect)
	}
	c.Expect = d
	return c, nil
}

// checkIDs reports the first id used twice, naming both places.
func checkIDs(cases []Case) error {
	seen := make(map[string]*Case, len(cases))
	for i := range cases {
		c := &cases[i]
		if first, ok := seen[c.ID]; ok {
			return &LineError{File: c.File, Line: c.Line, Err: fmt.Errorf("%w %q (first at %s)", ErrDuplicateID, c.ID, first.Where())}
		}
		seen[c.ID] = c
	}
	return nil
}

// LoadFS loads the named sets from fsys; a name that is a directory loads every
// *.jsonl file in it, in name order. Ids must be unique across all of them.
func LoadFS(fsys fs.FS, names ...string) ([]Case, error) {
	files, err := expand(names,
		func(n string) (bool, error) {
			st, err := fs.Stat(fsys, n)
			if err != nil {
				return false, err
			}
			return st.IsDir(), nil
		},
		func(dir string) ([]string, error) { return fs.Glob(fsys, path.Join(dir, "*.jsonl")) })
	if err != nil {
		return nil, err
	}
	return loadAll(files, func(n string) (io.ReadCloser, error) { return fsys.Open(n) })
}

// LoadFiles loads sets from the file system, like LoadFS but with OS paths.
func LoadFiles(paths ...string) ([]Case, error) {
	files, err := expand(paths,
		func(n string) (bool, error) {
			st, err := os.Stat(n)
			if err != nil {
				return false, err
			}
			return st.IsDir(), nil
		},
		func(dir string) ([]string, error) { return filepath.Glob(filepath.Join(dir, "*.jsonl")) })
	if err != nil {
		return nil, err
	}
	return loadAll(files, func(n string) (io.ReadCloser, error) { return os.Open(n) })
}

func expand(names []string, isDir func(string) (bool, error), glob func(string) ([]string, error)) ([]string, error) {
	var files []string
	for _, n := range names {
		dir, err := isDir(n)
		if err != nil {
			return nil, fmt.Errorf("load set: %w", err)
		}
		if !dir {
			files = append(files, n)
			continue
		}
		m, err := glob(n)
		if err != nil {
			return nil, fmt.Errorf("load sets in %s: %w", n, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("load sets: no *.jsonl files in %s", n)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	return files, nil
}

func loadAll(files []string, open func(string) (io.ReadCloser, error)) ([]Case, error) {
	var all []Case
	for _, name := range files {
		f, err := open(name)
		if err != nil {
			return nil, fmt.Errorf("load set: %w", err)
		}
		cases, err := Parse(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	if err := checkIDs(all); err != nil {
		return nil, err
	}
	return all, nil
}

var (
	bundledOnce  sync.Once
	bundledCases []Case
	bundledErr   error
)

// Bundled returns the sets embedded in the binary (evals/sets/*.jsonl), in file
// and line order. Callers must not modify the returned cases.
func Bundled() ([]Case, error) {
	bundledOnce.Do(func() {
		files, err := fs.Glob(bundled, "sets/*.jsonl")
		if err != nil {
			bundledErr = fmt.Errorf("bundled sets: %w", err)
			return
		}
		sort.Strings(files)
		for i, f := range files {
			files[i] = "evals/" + f // name them as they are in the repository
		}
		bundledCases, bundledErr = loadAll(files, func(n string) (io.ReadCloser, error) {
			return bundled.Open(strings.TrimPrefix(n, "evals/"))
		})
	})
	return bundledCases, bundledErr
}

// All iterates over the bundled cases, for other packages' tests and fuzz seeds:
//
//	for c := range evals.All() { f.Add([]byte(c.Event)) }
//
// It panics when the bundled sets do not load, which TestBundled reports first.
func All() func(yield func(Case) bool) {
	cases, err := Bundled()
	if err != nil {
		panic("evals: bundled sets: " + err.Error())
	}
	return func(yield func(Case) bool) {
		for _, c := range cases {
			if !yield(c) {
				return
			}
		}
	}
}

// Filter keeps the cases that match every expression. An expression is a tag,
// "a|b" for any of several tags, or "!tag" for cases without it.
func Filter(cases []Case, exprs []string) []Case {
	if len(exprs) == 0 {
		return cases
	}
	var out []Case
	for _, c := range cases {
		ok := true
		for _, e := range exprs {
			if !matchTag(&c, e) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

func matchTag(c *Case, expr string) bool {
	neg := strings.HasPrefix(expr, "!")
	expr = strings.TrimPrefix(expr, "!")
	any := false
	for _, t := range strings.Split(expr, "|") {
		if c.HasTag(strings.TrimSpace(t)) {
			any = true
			break
		}
	}
	return any != neg
}
