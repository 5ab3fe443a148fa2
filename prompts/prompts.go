// Package prompts holds the judge's prompt templates and its verdict schema.
// They are embedded in the binary; a folder (HOOKGUARD_PROMPTS or the policy's
// judge.prompts) can override any of them by file name. A set's version is the
// hash of the bytes it was built from, so every verdict, cache key and audit
// line names the exact prompt that produced it.
package prompts

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// The file names of a prompt set. An override folder may hold any subset.
const (
	SystemFile = "system.tmpl"
	EventFile  = "event.tmpl"
	SchemaFile = "verdict.schema.json"
)

// Files lists the files of a set in the order they are hashed.
var Files = []string{SystemFile, EventFile, SchemaFile}

//go:embed templates/*
var embedded embed.FS

// Set is one loaded prompt set.
type Set struct {
	// Version is a short hash of all the set's bytes.
	Version string
	// Dir is the override folder, "" for the embedded set.
	Dir string
	// Schema is the verdict JSON schema, ready to pass as response_format.
	Schema json.RawMessage

	system *template.Template
	event  *template.Template
}

// SystemData is what the system template sees.
type SystemData struct {
	// Nonce is the random marker of this request's data fences.
	Nonce string
	// Instructions are the team's own instructions (trusted configuration).
	Instructions string
}

// Part is one simple command of a shell event, as the rule pass judged it.
type Part struct {
	Text     string   `json:"text"`
	Decision string   `json:"decision,omitempty"`
	Rules    []string `json:"rules,omitempty"`
	// Effects is what the rule pass found the command would do (files and
	// their classes, code run, data sent, …) and what it did not understand.
	Effects string `json:"effects,omitempty"`
}

// Source is the text of something the command runs (a workspace script, a
// package.json script, a make/just/task recipe), read by hookguard.
type Source struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Body string `json:"body"`
	// Hash is the SHA-256 of the whole text (the cache key depends on it).
	Hash string `json:"hash"`
}

// EventData is what the event template sees. Every string in it except Nonce,
// EventName and Kind is untrusted and must be rendered inside a data fence.
type EventData struct {
	Nonce          string
	EventName      string
	Kind           string
	Command        string
	Parts          []Part
	Server         string
	Tool           string
	ToolInput      string
	FilePath       string
	Content        string
	Cwd            string
	WorkspaceRoots []string
	Escalations    []string
	Flagged        bool
	Intent         string
	// Sources are the texts of what the command runs; Facts what is known
	// about the workspace (branch, remote).
	Sources []Source
	Facts   string
}

// fence is one fenced data block.
type fence struct {
	N, Name, Text string
}

var funcs = template.FuncMap{
	"field": func(nonce, name, text string) fence { return fence{N: nonce, Name: name, Text: text} },
	"join":  strings.Join,
}

// Embedded returns the built-in set.
func Embedded() *Set {
	s, err := Load("")
	if err != nil {
		panic(fmt.Sprintf("prompts: embedded set is broken: %v", err))
	}
	return s
}

// Load builds the set from dir over the embedded files; dir "" means the
// embedded set alone. Files missing from dir come from the embedded set.
func Load(dir string) (*Set, error) {
	raw, err := readFiles(dir)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, name := range Files {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(raw[name]))
		h.Write(raw[name])
	}
	s := &Set{Version: hex.EncodeToString(h.Sum(nil))[:12], Dir: dir}
	if s.system, err = template.New(SystemFile).Option("missingkey=error").Parse(string(raw[SystemFile])); err != nil {
		return nil, fmt.Errorf("parse prompt %s: %w", SystemFile, err)
	}
	if s.event, err = template.New(EventFile).Funcs(funcs).Option("missingkey=error").Parse(string(raw[EventFile])); err != nil {
		return nil, fmt.Errorf("parse prompt %s: %w", EventFile, err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw[SchemaFile], &schema); err != nil {
		return nil, fmt.Errorf("parse %s: %w", SchemaFile, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw[SchemaFile]); err != nil {
		return nil, fmt.Errorf("compact %s: %w", SchemaFile, err)
	}
	s.Schema = compact.Bytes()
	return s, nil
}

// Fingerprint is a cheap digest of the override files' bytes, used to notice
// that they changed on disk. It is "" for the embedded set.
func Fingerprint(dir string) string {
	if dir == "" {
		return ""
	}
	h := sha256.New()
	for _, name := range Files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			fmt.Fprintf(h, "%s\x00missing\x00", name)
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func readFiles(dir string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(Files))
	for _, name := range Files {
		b, err := fs.ReadFile(embedded, "templates/"+name)
		if err != nil {
			return nil, fmt.Errorf("read embedded prompt %s: %w", name, err)
		}
		out[name] = b
		if dir == "" {
			continue
		}
		ob, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err == nil:
			out[name] = ob
		case errors.Is(err, fs.ErrNotExist):
		default:
			return nil, fmt.Errorf("read prompt override: %w", err)
		}
	}
	if dir != "" {
		if st, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("prompt folder: %w", err)
		} else if !st.IsDir() {
			return nil, fmt.Errorf("prompt folder %s is not a directory", dir)
		}
	}
	return out, nil
}

// Render renders the system and the user message for one judgment.
func (s *Set) Render(sys SystemData, ev EventData) (system, user string, err error) {
	var b strings.Builder
	if err := s.system.Execute(&b, sys); err != nil {
		return "", "", fmt.Errorf("render %s: %w", SystemFile, err)
	}
	system = strings.TrimSpace(b.String())
	b.Reset()
	if err := s.event.Execute(&b, ev); err != nil {
		return "", "", fmt.Errorf("render %s: %w", EventFile, err)
	}
	return system, strings.TrimSpace(b.String()), nil
}
