package judgectx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	write(t, root, "scripts/a.sh", "#!/usr/bin/env bash\necho a\n")
	write(t, root, "tools/b.py", "print('b')\n")
	write(t, root, "package.json", `{"scripts":{"prebuild":"rm -rf dist","build":"tsc && npm run bundle","bundle":"esbuild src/index.ts"}}`)
	write(t, root, "Makefile", "VERSION := 1\n.PHONY: test\ntest: deps\n\tgo test ./...\n\tgo vet ./...\n\ndeps:\n\tgo mod download\n")
	write(t, root, "justfile", "default:\n  just --list\n\ndeploy env:\n  ./deploy.sh {{env}}\n")
	write(t, root, "Taskfile.yml", "version: '3'\ntasks:\n  lint:\n    cmds:\n      - golangci-lint run\n  fmt:\n    cmds: [gofmt -w .]\n")
	outside := write(t, t.TempDir(), "evil.sh", "echo outside\n")
	for _, tc := range []struct {
		line string
		want []string // kind/name pairs
	}{
		{"./scripts/a.sh --x", []string{"script ./scripts/a.sh"}},
		{"bash scripts/a.sh", []string{"script scripts/a.sh"}},
		{"python3 -u tools/b.py", []string{"script tools/b.py"}},
		{"npm run build", []string{"package.json script prebuild", "package.json script build", "package.json script bundle"}},
		{"pnpm build", []string{"package.json script prebuild", "package.json script build", "package.json script bundle"}},
		{"make", []string{"make recipe test"}},
		{"make deps", []string{"make recipe deps"}},
		{"just deploy staging", []string{"just recipe deploy"}},
		{"task lint", []string{"task lint"}},
		{"bash " + outside, nil},
		{"python3 -c 'print(1)'", nil},
		{"npm install", nil},
	} {
		var got []string
		for _, s := range Resolve(tc.line, root, []string{root}) {
			got = append(got, s.Kind+" "+s.Name)
			if s.Hash == "" || s.Body == "" {
				t.Errorf("%s: %s without body or hash", tc.line, s.Name)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Resolve(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	src := Resolve("make test", root, []string{root})
	if len(src) != 1 || src[0].Line != 3 || !strings.Contains(src[0].Body, "go vet") || strings.Contains(src[0].Body, "go mod download") {
		t.Errorf("make test: %+v", src)
	}
}

func TestIntent(t *testing.T) {
	dir := t.TempDir()
	claude := write(t, dir, "c.jsonl", `{"type":"user","message":{"role":"user","content":"one"}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"}]}}
{"type":"assistant","message":{"role":"assistant","content":"ok"}}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"two"}]}}
`)
	cursorJSONL := write(t, dir, "cursor.jsonl", `{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\nfix the test\n</user_query>"}]}}
{"role":"assistant","message":{"content":[{"type":"text","text":"done"}]}}
`)
	cursorText := write(t, dir, "cursor.txt", "user:\n<user_query>\nadd a flag\n</user_query>\n\nassistant:\nsure\n\nuser:\nand docs\n")
	for path, want := range map[string]string{claude: "one\n\ntwo", cursorJSONL: "fix the test", cursorText: "add a flag\n\nand docs",
		filepath.Join(dir, "missing.jsonl"): ""} {
		if got := Intent(path); got != want {
			t.Errorf("Intent(%s) = %q, want %q", filepath.Base(path), got, want)
		}
	}
	// Only the tail is read: a huge transcript still gives the last request.
	big := strings.Repeat(`{"type":"assistant","message":{"role":"assistant","content":"`+strings.Repeat("x", 1000)+`"}}`+"\n", 200) +
		`{"type":"user","message":{"role":"user","content":"latest"}}` + "\n"
	if got := Intent(write(t, dir, "big.jsonl", big)); got != "latest" {
		t.Errorf("big transcript: %q", got)
	}
}

func TestWorkspaceFacts(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, root, ".git/config", "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://gitlab.example.com/acme/shop.git\n")
	f := WorkspaceFacts(filepath.Join(root, "src"), []string{root}, []string{"main"})
	if f.Branch != "main" || !f.Protected || f.RemoteHost != "gitlab.example.com" || !f.InWorkspace {
		t.Errorf("%+v", f)
	}
	if f := WorkspaceFacts("/elsewhere", []string{root}, nil); f.InWorkspace || f.Branch != "" {
		t.Errorf("outside: %+v", f)
	}
}
