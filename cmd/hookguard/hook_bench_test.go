package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"testing"
)

// benchEvents are one rules-decided event of each kind, as bench/hook.sh
// times them whole-process.
var benchEvents = map[string]map[string]any{
	"shell":     {"hook_event_name": "beforeShellExecution", "command": "cd web && npm ci && npm run build 2>&1 | tail -20", "cwd": "/home/dev/project"},
	"prompt":    {"hook_event_name": "beforeSubmitPrompt", "prompt": "Please rename the handler in src/orders.ts and update its tests.", "attachments": []any{}},
	"read":      {"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/src/app.ts", "content": "export const answer = 42;\n", "attachments": []any{}},
	"read-path": {"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/src/app.ts", "attachments": []any{}},
	"mcp":       {"hook_event_name": "beforeMCPExecution", "mcp_server_name": "github", "tool_name": "get_issue", "tool_input": `{"owner":"acme","repo":"shop","issue_number":42}`, "command": "npx -y @modelcontextprotocol/server-github"},
}

// BenchmarkHookCommand is `hookguard hook` in-process for one event of each
// kind: the work a hook process does after the Go runtime and package
// initialization (which bench/hook.sh adds to this).
func BenchmarkHookCommand(b *testing.B) {
	for name, data := range benchEventData(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out bytes.Buffer
				if code := run([]string{"hook"}, bytes.NewReader(data), &out, io.Discard); code != 0 || out.Len() == 0 {
					b.Fatalf("exit %d, answer %q", code, out.String())
				}
			}
		})
	}
}

// benchEventData sets up a private home without judge or audit and returns
// each bench event as hook input.
func benchEventData(b *testing.B) map[string][]byte {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", home+"/.config")
	b.Setenv("XDG_STATE_HOME", home+"/.state")
	b.Setenv("HOOKGUARD_AUDIT", "off")
	b.Setenv("HOOKGUARD_JUDGE", "off")
	os.Unsetenv("HOOKGUARD_POLICY")
	out := map[string][]byte{}
	for name, fields := range benchEvents {
		ev := map[string]any{"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
			"workspace_roots": []string{"/home/dev/project"}, "user_email": nil}
		for k, v := range fields {
			ev[k] = v
		}
		data, err := json.Marshal(ev)
		if err != nil {
			b.Fatal(err)
		}
		out[name] = data
	}
	// The two content-carrying events bench/hook.sh times: a prompt of about
	// 4 KiB (the README's start) and a read of a Go source file (a fixed copy,
	// so that the figure does not move with edits to the repository).
	readme, err1 := os.ReadFile("../../README.md")
	source, err2 := os.ReadFile("../../internal/bench/testdata/read-source.go.txt")
	if err1 != nil || err2 != nil {
		b.Fatal(err1, err2)
	}
	base := map[string]any{"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
		"workspace_roots": []string{"/home/dev/project"}, "user_email": nil, "attachments": []any{}}
	with := func(fields map[string]any) []byte {
		ev := map[string]any{}
		for k, v := range base {
			ev[k] = v
		}
		for k, v := range fields {
			ev[k] = v
		}
		data, _ := json.Marshal(ev)
		return data
	}
	out["prompt-4k"] = with(map[string]any{"hook_event_name": "beforeSubmitPrompt",
		"prompt": "Please update the docs so they match this draft:\n\n" + string(readme[:4000])})
	out["read-source"] = with(map[string]any{"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/judge/judge.go",
		"content": string(source)})
	return out
}

// BenchmarkResidentHook is the resident evaluator's work for one event of
// each kind (what `hookguard serve --resident` does per thin-client request,
// without the socket): the policy compiled once and kept, as in the server.
func BenchmarkResidentHook(b *testing.B) {
	events := benchEventData(b)
	cache := &pipelineCache{}
	old := loadPipeline
	loadPipeline = cache.load
	defer func() { loadPipeline = old }()
	for name, data := range events {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if rep := residentHook([]string{"--dialect", "cursor"}, data); rep.Code != 0 || len(rep.Stdout) == 0 {
					b.Fatalf("exit %d, answer %q", rep.Code, rep.Stdout)
				}
			}
		})
	}
}

// BenchmarkHookLarge is `hookguard hook` in-process for inputs near the
// 8 MiB cap (the kinds internal/bench/limits.py times whole-process): the
// work bounded by issue 12's 200 ms target, without process start.
func BenchmarkHookLarge(b *testing.B) {
	benchEventData(b) // private home, judge and audit off
	const size = 8<<20 - 4096
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	words := []string{"token", "password", "key", "secret", "the", "a", "AKIA", "ghp_", "sk-", "private key", "eyJ"}
	var prose strings.Builder
	for i := 0; prose.Len() < size-16; i++ {
		prose.WriteString(words[(i*7+i/3)%len(words)])
		prose.WriteByte(' ')
	}
	keys := map[string]string{}
	for i := range 250000 {
		keys[fmt.Sprintf("k%d", i)] = fmt.Sprintf("v %d token", i)
	}
	wide, _ := json.Marshal(keys)
	base := map[string]any{"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
		"workspace_roots": []string{"/home/dev/project"}, "user_email": nil, "attachments": []any{}}
	events := map[string]map[string]any{
		"shell-words":  {"hook_event_name": "beforeShellExecution", "command": fill("a "), "cwd": "/home/dev/project"},
		"prompt-prose": {"hook_event_name": "beforeSubmitPrompt", "prompt": prose.String()},
		"read-prose":   {"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/notes.txt", "content": prose.String()},
		"read-base64":  {"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/blob.txt", "content": fill("QUJD")},
		"read-minified": {"hook_event_name": "beforeReadFile", "file_path": "/home/dev/project/dist/app.min.js",
			"content": fill("var a=function(b){return b+1};")},
		"mcp-wide": {"hook_event_name": "beforeMCPExecution", "mcp_server_name": "x", "tool_name": "run", "tool_input": string(wide), "command": "npx x"},
	}
	for name, fields := range events {
		ev := maps.Clone(base)
		maps.Copy(ev, fields)
		data, err := json.Marshal(ev)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var out bytes.Buffer
				if code := run([]string{"hook"}, bytes.NewReader(data), &out, io.Discard); code != 0 || out.Len() == 0 {
					b.Fatalf("exit %d, answer %q", code, out.String())
				}
			}
		})
	}
}
