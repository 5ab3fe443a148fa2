package effects

import (
	"regexp"
	"strings"
	"sync"
)

// Inline code often reaches a library function under another name: Python's
// `import shutil as s` / `from os import system as run`, JavaScript's
// `const {execSync: sh} = require("child_process")`. The analysis reads
// qualified names (shutil.rmtree, os.system, execSync), so canonicalNames
// writes every such alias back as the name it stands for before the code is
// read; a name the code cannot be read without (a star import of a module
// that deletes, spawns or talks to the network) is reported instead.

var (
	// import a.b as c, d as e (a statement at the start of the code, of a
	// line, after ";" or ":")
	pyPlainImportRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[;\n:(]|\belse\b|\bthen\b)\s*import\s+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)`)
	})
	// from a.b import c as d, e — or (c as d,\n e)
	pyFromImportRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bfrom\s+([\w.]+)\s+import\s+(\*|\([^)]*\)|[\w \t,]+)`)
	})
	// const {execSync: sh, spawn} = require("child_process") / await import(…)
	jsDestructureRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*(?:require\s*\(|(?:await\s+)?import\s*\(|process\.binding\s*\()\s*['"\x60]([^'"\x60]+)['"\x60]`)
	})
	// import {execSync as sh} from "child_process"
	jsImportRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bimport\s*\{([^{}]*)\}\s*from\s*['"\x60]([^'"\x60]+)['"\x60]`)
	})
	// const n = require('net'), cp = require("node:child_process")
	jsRequireRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\b(?:const|let|var)\s+|,\s*)([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]((?:node:)?(?:net|tls|dgram|fs|fs/promises|child_process|os|path|http|https|dns|crypto|vm))['"]\s*\)`)
	})
	// const r = require; const sh = cp.execSync; let run = child.spawnSync.bind(child)
	jsAssignRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:const|let|var)\s+(\w+)\s*=\s*((?:\w+\.)*\w+)(?:\.bind\([^()]*\))?\s*(?:[;,\n]|$)`)
	})
)

// pyRiskyModules are modules whose star import brings deleting, spawning or
// network functions in under bare names.
var pyRiskyModules = map[string]bool{
	"os": true, "posix": true, "shutil": true, "subprocess": true, "pty": true, "socket": true, "ctypes": true,
	"builtins": true, "importlib": true, "runpy": true, "urllib": true, "urllib.request": true, "http.client": true,
	"requests": true, "httpx": true, "ftplib": true, "smtplib": true, "telnetlib": true, "paramiko": true,
	"pathlib": true, "commands": true, "sh": true, "plumbum": true,
}

// jsKnownTargets are JavaScript values that a plain assignment renames as a
// function (const r = require).
var jsKnownTargets = map[string]bool{"require": true, "eval": true, "Function": true}

// canonicalNames rewrites the aliases of lang's code as the names they stand
// for; hidden reports a star import of a risky module, whose bare names the
// analysis cannot tie to the module.
func canonicalNames(lang, code string) (out string, hidden bool) {
	if l, ok := langAliases[lang]; ok {
		lang = l
	}
	alias := map[string]string{}
	switch lang {
	case "python":
		if !strings.Contains(code, "import") {
			return code, false
		}
		code = pythonDynamicNames(code)
		for _, m := range pyPlainImportRe().FindAllStringSubmatch(code, 32) {
			for _, item := range strings.Split(m[1], ",") {
				f := strings.Fields(item)
				if len(f) == 3 && f[1] == "as" && f[2] != f[0] {
					alias[f[2]] = f[0]
				}
			}
		}
		for _, m := range pyFromImportRe().FindAllStringSubmatch(code, 32) {
			mod, names := m[1], strings.Trim(m[2], "() \t")
			if names == "*" {
				if pyRiskyModules[mod] || pyRiskyModules[strings.SplitN(mod, ".", 2)[0]] {
					hidden = true
				}
				continue
			}
			for _, item := range strings.Split(names, ",") {
				f := strings.Fields(item)
				switch {
				case len(f) == 1:
					alias[f[0]] = mod + "." + f[0]
				case len(f) == 3 && f[1] == "as":
					alias[f[2]] = mod + "." + f[0]
				}
			}
		}
	case "node":
		if !strings.Contains(code, "require") && !strings.Contains(code, "import") && !strings.Contains(code, "=") {
			return code, false
		}
		for _, re := range []*regexp.Regexp{jsDestructureRe(), jsImportRe()} {
			sep := ":"
			if re == jsImportRe() {
				sep = " as "
			}
			for _, m := range re.FindAllStringSubmatch(code, 32) {
				for _, item := range strings.Split(m[1], ",") {
					name, local, ok := strings.Cut(item, sep)
					name, local = strings.TrimSpace(name), strings.TrimSpace(local)
					if ok && isIdent(name) && isIdent(local) && name != local {
						alias[local] = name
					}
				}
			}
		}
		for _, m := range jsRequireRe().FindAllStringSubmatch(code, 32) {
			// const n = require('net'): the module under another name.
			if name := strings.TrimPrefix(m[2], "node:"); m[1] != name && isIdent(name) {
				alias[m[1]] = name
			}
		}
		for _, m := range jsAssignRe().FindAllStringSubmatch(code, 32) {
			local, target := m[1], m[2]
			last := target[strings.LastIndexByte(target, '.')+1:]
			if local == target || local == last {
				continue
			}
			if jsKnownTargets[target] || strings.Contains(target, ".") {
				// const r = require; const sh = cp.execSync: a function
				// under a new name (a plain const x = y copies a value).
				alias[local] = target
			}
		}
	default:
		return code, false
	}
	if len(alias) == 0 {
		return code, hidden
	}
	return replaceIdents(lang, code, alias), hidden
}

// isIdent reports a plain identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// replaceIdents replaces the identifiers of code that alias names, outside
// string literals and comments and not after a "." (a member of something
// else) or before ":" / "=" in an object or keyword argument (a key).
func replaceIdents(lang, code string, alias map[string]string) string {
	var b strings.Builder
	b.Grow(len(code) + 64)
	identStart := func(c byte) bool { return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	identPart := func(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '\'' || c == '"' || c == '`' && lang == "node":
			// A string literal (Python's triple quotes too) is copied whole.
			q := string(c)
			if lang == "python" && strings.HasPrefix(code[i:], strings.Repeat(q, 3)) {
				q = strings.Repeat(q, 3)
			}
			j := i + len(q)
			for j < len(code) && !strings.HasPrefix(code[j:], q) {
				if code[j] == '\\' {
					j++ // the escaped byte is part of the literal
				} else if code[j] == '\n' && len(q) == 1 && c != '`' {
					break
				}
				j++
			}
			j = min(len(code), j+len(q))
			b.WriteString(code[i:j])
			i = j
		case c == '#' && lang == "python" || c == '/' && lang == "node" && strings.HasPrefix(code[i:], "//"):
			j := strings.IndexByte(code[i:], '\n')
			if j < 0 {
				j = len(code) - i
			}
			b.WriteString(code[i : i+j])
			i += j
		case identStart(c):
			j := i + 1
			for j < len(code) && identPart(code[j]) {
				j++
			}
			word := code[i:j]
			to, ok := alias[word]
			if ok && i > 0 && (code[i-1] == '.' || identPart(code[i-1])) {
				ok = false // obj.s, or the inside of a longer name
			}
			if ok {
				rest := strings.TrimLeft(code[j:], " \t")
				if lang == "python" && strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") && insideCall(code[:i]) {
					ok = false // f(s=1): a keyword argument
				}
				if lang == "node" && strings.HasPrefix(rest, ":") {
					ok = false // {sh: 1}: an object key
				}
			}
			if ok {
				b.WriteString(to)
			} else {
				b.WriteString(word)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// insideCall reports whether the text before a position leaves a "(" open.
func insideCall(before string) bool {
	return strings.Count(before, "(") > strings.Count(before, ")")
}

var (
	pyJoinedLiteralRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(['"])([\w./-]*)['"]\s*\+\s*['"]([\w./-]*)['"]`)
	})
	pyDynImportRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:__import__|importlib\.import_module)\(\s*['"]([\w.]+)['"]\s*\)`)
	})
	pyGetattrRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`getattr\(\s*([\w.]+)\s*,\s*['"](\w+)['"]\s*\)`)
	})
	pyModuleAssignRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|;)\s*(\w+)\s*=\s*(os|shutil|subprocess|socket|pty|pathlib|requests|importlib|urllib\.request|http\.client|ctypes|builtins)\s*(?:;|$)`)
	})
)

// pythonDynamicNames writes Python's run-time lookups of names given as
// literals as the names: 'sh' + 'util' is 'shutil', __import__('shutil')
// and importlib.import_module('shutil') are shutil, getattr(shutil,
// 'rmtree') is shutil.rmtree, and o = os (after o = __import__('os')) is an
// import under another name.
func pythonDynamicNames(code string) string {
	if !strings.Contains(code, "__import__") && !strings.Contains(code, "import_module") && !strings.Contains(code, "getattr") {
		return code
	}
	for i := 0; i < 8; i++ {
		joined := pyJoinedLiteralRe().ReplaceAllString(code, "$1$2$3$1")
		if joined == code {
			break
		}
		code = joined
	}
	code = pyDynImportRe().ReplaceAllString(code, "$1")
	for i := 0; i < 4; i++ {
		next := pyGetattrRe().ReplaceAllString(code, "$1.$2")
		if next == code {
			break
		}
		code = next
	}
	// o = os: "import os as o".
	return pyModuleAssignRe().ReplaceAllString(code, ";import $2 as $1;")
}
