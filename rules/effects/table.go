package effects

import (
	"bytes"
	"io/fs"
	"sort"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:generate go run ./internal/gentable

// Table is the program knowledge as written in programs/*.yaml and paths.yaml.
type Table struct {
	Programs []*Spec       `yaml:"programs"`
	Paths    []PathClasses `yaml:"paths"`
}

// ParseSources parses the table's YAML files from fsys (the effects folder):
// programs/*.yaml in name order, then paths.yaml. Only the generator and the
// test that keeps table_gen.go identical call it; hook processes use the
// generated table and never parse YAML.
func ParseSources(fsys fs.FS) (*Table, []byte, error) {
	names, err := fs.Glob(fsys, "programs/*.yaml")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	names = append(names, "paths.yaml")
	t := &Table{}
	var raw []byte
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, err
		}
		raw = append(raw, []byte("# "+name+"\n")...)
		raw = append(raw, data...)
		var part Table
		dec := yaml.NewDecoder(bytesReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&part); err != nil {
			return nil, nil, &SpecError{File: name, Msg: err.Error()}
		}
		for _, p := range part.Programs {
			if err := p.validate(name, ""); err != nil {
				return nil, nil, err
			}
		}
		t.Programs = append(t.Programs, part.Programs...)
		t.Paths = append(t.Paths, part.Paths...)
	}
	seen := map[string]bool{}
	for _, p := range t.Programs {
		for _, n := range p.Names {
			if seen[n] {
				return nil, nil, &SpecError{File: "programs", Program: n, Msg: "listed twice"}
			}
			seen[n] = true
		}
	}
	return t, raw, nil
}

// SpecError is a problem in the program table.
type SpecError struct {
	File, Program, Msg string
}

func (e *SpecError) Error() string {
	s := "effects table " + e.File
	if e.Program != "" {
		s += ": " + e.Program
	}
	return s + ": " + e.Msg
}

var validOperands = map[string]bool{
	"": true, OperandNone: true, OperandRead: true, OperandWrite: true, OperandDelete: true, OperandMode: true,
	OperandDest: true, OperandMove: true, OperandDir: true, OperandExtract: true, OperandURL: true,
	OperandData: true, OperandDD: true, OperandModule: true, OperandGitConf: true, OperandUpload: true, OperandDiscard: true, OperandList: true, OperandKey: true, OperandTarAction: true, OperandFolder: true, OperandProject: true, OperandPID: true, OperandHeader: true, OperandScript: true, OperandCommand: true, OperandEnv: true, OperandAny: true,
}

func validOperand(k string) bool {
	if len(k) > len(OperandCodePrefix) && k[:len(OperandCodePrefix)] == OperandCodePrefix {
		return true
	}
	return validOperands[k]
}

func (s *Spec) validate(file, parent string) error {
	name := parent
	if len(s.Names) == 0 {
		return &SpecError{File: file, Program: parent, Msg: "an entry without names"}
	}
	if name != "" {
		name += " "
	}
	name += s.Names[0]
	for _, k := range []string{s.Operands, s.First} {
		if !validOperand(k) {
			return &SpecError{File: file, Program: name, Msg: "unknown operand kind " + k}
		}
	}
	for _, o := range s.Options {
		if len(o.Names) == 0 {
			return &SpecError{File: file, Program: name, Msg: "an option without names"}
		}
		if !validOperand(o.Value) || !validOperand(o.Operands) {
			return &SpecError{File: file, Program: name, Msg: "option " + o.Names[0] + ": unknown operand kind"}
		}
	}
	for _, sub := range s.Subcommands {
		if err := sub.validate(file, name); err != nil {
			return err
		}
	}
	return nil
}

var (
	tableOnce sync.Once
	programs  []*Spec
	paths     []PathClasses

	// byName caches entries built on demand; override replaces the
	// generated table (Use, for tests of the YAML sources).
	lookupMu sync.Mutex
	byName   = map[string]*Spec{}
	override map[string]*Spec
)

func loadTable() {
	tableOnce.Do(func() {
		if programs == nil {
			lookupMu.Lock()
			programs = generatedPrograms()
			lookupMu.Unlock()
		}
		if paths == nil {
			paths = generatedPaths()
		}
	})
}

// Lookup returns the table's entry for a program name, or nil. Only the
// entries a process asks for are built.
func Lookup(name string) *Spec {
	lookupMu.Lock()
	defer lookupMu.Unlock()
	if override != nil {
		return override[name]
	}
	if s, ok := byName[name]; ok {
		return s
	}
	s := generatedProgram(name)
	byName[name] = s
	return s
}

// Use replaces the table for the rest of the process with t (tests of the
// YAML sources before they are generated); it returns a function that
// restores the generated table.
func Use(t *Table) (restore func()) {
	loadTable()
	lookupMu.Lock()
	oldP, oldPaths := programs, paths
	programs, paths = t.Programs, t.Paths
	override = map[string]*Spec{}
	for _, p := range t.Programs {
		for _, n := range p.Names {
			override[n] = p
		}
	}
	pathsOnce = sync.Once{}
	lookupMu.Unlock()
	return func() {
		lookupMu.Lock()
		programs, paths, override = oldP, oldPaths, nil
		pathsOnce = sync.Once{}
		lookupMu.Unlock()
	}
}

// Programs returns every entry of the table (for policy test and explain).
func Programs() []*Spec {
	loadTable()
	return programs
}

func pathTable() []PathClasses {
	if paths == nil {
		paths = generatedPaths()
	}
	return paths
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// GeneratedHash is the SHA-256 of the YAML files table_gen.go was generated from.
func GeneratedHash() string { return generatedHash }
