package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// optSpec describes the options of a wrapper program.
type optSpec struct {
	shortArg string   // short options that take a value (-u root, -uroot)
	longArg  []string // long options that take a value when not written --opt=value
}

// skipOpts walks the options of a wrapper starting at argv[1] and returns the
// index of the first operand. onVal, if not nil, sees every option value
// (name without dashes, value).
func skipOpts(argv []arg, spec optSpec, onVal func(opt, val string)) int {
	i := 1
	for i < len(argv) {
		a := argv[i]
		if a.dyn {
			return i
		}
		v := a.s
		if v == "--" {
			return i + 1
		}
		if len(v) < 2 || v[0] != '-' {
			return i
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			if !hasVal && slices.Contains(spec.longArg, name) && i+1 < len(argv) {
				val = argv[i+1].s
				i++
				hasVal = true
			}
			if hasVal && onVal != nil {
				onVal(name, val)
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(spec.shortArg, v[j]) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(argv) {
				i++
				val = argv[i].s
			}
			if onVal != nil {
				onVal(v[j:j+1], val)
			}
			break
		}
		i++
	}
	return i
}

var (
	sudoSpec    = optSpec{shortArg: "ugpCrtUTDR", longArg: []string{"user", "group", "host", "prompt", "close-from", "role", "type", "other-user", "command-timeout", "chdir", "chroot"}}
	doasSpec    = optSpec{shortArg: "uC"}
	pkexecSpec  = optSpec{longArg: []string{"user"}}
	envSpec     = optSpec{shortArg: "uCSP", longArg: []string{"unset", "chdir", "split-string"}}
	execSpec    = optSpec{shortArg: "a"}
	niceSpec    = optSpec{shortArg: "n", longArg: []string{"adjustment"}}
	timeoutSpec = optSpec{shortArg: "sk", longArg: []string{"signal", "kill-after"}}
	flockSpec   = optSpec{shortArg: "wEF", longArg: []string{"timeout", "wait", "conflict-exit-code"}}
	timeSpec    = optSpec{shortArg: "fo", longArg: []string{"format", "output"}}
	stdbufSpec  = optSpec{shortArg: "ioe", longArg: []string{"input", "output", "error"}}
	ioniceSpec  = optSpec{shortArg: "cnpPu", longArg: []string{"class", "classdata", "pid", "pgid", "uid"}}
	xargsSpec   = optSpec{shortArg: "IanPsdEL", longArg: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var", "eof"}}
	watchSpec   = optSpec{shortArg: "nq", longArg: []string{"interval"}}
	straceSpec  = optSpec{shortArg: "oepsuabEIPSX", longArg: []string{"output", "trace", "signal", "attach", "user", "string-limit"}}
	caffSpec    = optSpec{shortArg: "tw"}
	chrootSpec  = optSpec{longArg: []string{"userspec", "groups"}}
	// GNU parallel: options before the command; its inputs follow ":::".
	parallelSpec = optSpec{shortArg: "jPSnNdaCI", longArg: []string{"jobs", "max-procs", "sshlogin", "joblog", "results", "halt",
		"delay", "timeout", "retries", "max-args", "colsep", "delimiter", "arg-file", "tmpdir", "env", "workdir", "tag-string",
		"memfree", "load", "basefile", "transferfile", "return"}}
	plainSpec = optSpec{}
)

// shells are the programs whose -c argument, stdin or heredoc is shell code.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "rbash": true, "yash": true, "fish": true}

// command unwraps argv, emits the command it reaches and follows what that
// command runs in turn (nested shells, eval, find -exec, …).
func (s *splitter) command(c Command, argv []arg, st *state, fr *frame, stdin *input) (int, *input) {
	// Unwrap wrappers, outermost first (a bare xargs runs echo).
	for (len(argv) > 1 || len(argv) == 1 && baseName(argv[0].s) == "xargs") && !argv[0].dyn {
		name := baseName(argv[0].s)
		rest, ok := s.unwrap(name, argv, &c, st)
		if !ok || len(rest) == 0 {
			break
		}
		c.Wrappers = append(c.Wrappers, name)
		if name == "xargs" {
			c.Via = viaXargs
			// Known input becomes arguments (echo /etc | xargs rm -rf); the
			// command's own stdin is not the pipe.
			if stdin != nil && stdin.known && !stdin.dyn && !xargsReplaces(argv[:len(argv)-len(rest)]) {
				fields := strings.Fields(strings.ReplaceAll(stdin.text, "\x00", " "))
				if len(fields) > 0 && len(fields) <= MaxCommands {
					extra := make([]arg, 0, len(rest)+len(fields))
					extra = append(extra, rest...)
					for _, f := range fields {
						extra = append(extra, arg{s: f})
					}
					rest = extra
				}
			}
			stdin = nil
		}
		argv = rest
	}
	if name, ok := toolBinName(argv[0]); ok {
		// "$(which python3)", "$(go env GOPATH)/bin/tflint": a program
		// found on PATH or in a tool manager's bin folder, by its name.
		c.Name, c.Program = name, argv[0].s
		c.FoundProgram = true
	} else if argv[0].dyn {
		c.DynamicName = true
		c.Name = argv[0].s
		c.NameSubst = argv[0].substID
	} else {
		c.Name = baseName(argv[0].s)
		c.Program = argv[0].s
		if strings.ContainsAny(argv[0].s, "?*[") {
			// /???/?m -rf ~: a glob the shell expands to a program's path.
			// When it can name one of the programs below only, it is that
			// program; otherwise the name stays as written (not known).
			if name, ok := globProgram(argv[0].s); ok {
				c.Name = name
			}
		}
	}
	args := argv[1:]
	var code *arg
	codeVia := ""
	shellProc := false // the code runs in a new shell process
	elsewhere := false // the code runs on another machine or in a container
	if !c.DynamicName {
		switch name := c.Name; {
		case shells[name]:
			shellProc = true
			code, codeVia = shellCode(args, stdin)
			if code == nil && codeVia != "" {
				c.DynamicCode = true // code from a pipe or stdin only known at run time
			}
		case name == "eval":
			if len(args) == 1 && envSetupOutput(args[0]) {
				// eval "$(pyenv init -)": the tool prints exports and
				// functions for this shell; its own command is checked.
				code, codeVia = &arg{s: ":"}, viaEval
				args[0].dyn = false // known to be that tool's set-up
			} else if len(args) > 0 {
				code, codeVia = joinArgs(args), viaEval
			}
		case name == "su" || name == "runuser" || name == "script" || name == "flock":
			// su -c CMD, script -qc CMD /dev/null, flock LOCK -c CMD: a
			// shell runs the command.
			v, ok := optValue(args, "c", "command")
			if !ok && name == "script" {
				v, ok = clusterValue(args, 'c') // script -qc CMD
			}
			if ok {
				code, codeVia, shellProc = &v, viaBashC, true
			} else if name == "script" {
				// BSD and macOS: script [-adkpqr] [-F pipe] [-t time] FILE
				// COMMAND…: the command runs with its output recorded.
				i := 0
				for i < len(args) && strings.HasPrefix(args[i].s, "-") && args[i].s != "--" {
					if args[i].s == "-t" || args[i].s == "-F" || args[i].s == "-T" {
						i++
					}
					i++
				}
				if i < len(args) && args[i].s == "--" {
					i++
				}
				if i+1 < len(args) && !args[i].dyn {
					code, codeVia = quoteArgs(args[i+1:]), viaEval
				}
			}
		case name == "docker" || name == "podman" || name == "nerdctl" || name == "docker-compose":
			if inner := containerExecArgs(name, args); len(inner) > 0 {
				code, codeVia = quoteArgs(inner), viaContainer
			}
		case name == "watch":
			exec := false
			i := skipOpts(argv, watchSpec, nil)
			for _, a := range args[:max(i-1, 0)] {
				if a.s == "-x" || a.s == "--exec" {
					exec = true
				}
			}
			switch {
			case exec && i < len(argv):
				// watch -x perl -e '…': the command and its own arguments.
				code, codeVia, shellProc = quoteArgs(argv[i:]), viaWatch, true
			case i < len(argv):
				code, codeVia, shellProc = joinArgs(argv[i:]), viaWatch, true
			}
		default:
			if rc, rv, away := runnerCode(name, args); rc != nil {
				code, codeVia, elsewhere = rc, rv, away
				shellProc = rv != viaTrap // a trap runs in this shell
			}
		}
	}
	if code != nil && code.dyn {
		c.DynamicCode = true
		if code.subst && codeVia == viaEval {
			c.DynamicName = true
		}
	}
	if stdin != nil && stdin.known {
		c.Stdin = stdin.text
	}
	c.StdinFed = stdin != nil
	c.CodeSplit = code != nil && !code.dyn && !code.subst && fr.depth+1 <= s.maxDepth
	idx := s.emit(c, args)
	if idx < 0 {
		return idx, nil
	}
	var out *input
	if !c.DynamicName {
		switch c.Name {
		case "cd", "pushd", "popd":
			if c.Via != viaXargs {
				st.cwd = s.chdir(c.Name, args, st)
			}
		case "unset", "read", "mapfile", "readarray":
			for _, a := range args {
				if !strings.HasPrefix(a.s, "-") {
					st.unset(a.s)
				}
			}
		case "set":
			if len(args) > 0 && args[0].s == "--" && !anyDyn(args) {
				// set -- rm -rf ~; "$@": the positional parameters.
				st.params = append([]arg{}, args[1:]...)
			}
		case "echo":
			out = echoOut(args)
		case "printf":
			if !anyDyn(args) || !anySubst(args) {
				if t, ok := printfOut(args); ok {
					out = &input{text: t, known: true, dyn: anyDyn(args), via: viaPipe}
				}
			}
		case "cat":
			if stdin != nil && stdin.known && !hasFileArgs(args) {
				out = &input{text: stdin.text, known: true, dyn: stdin.dyn, via: viaPipe}
			}
		case "base64", "openssl", "xxd", "rev", "tr":
			// echo … | base64 -d | bash: the decoded text is what runs.
			if stdin != nil && stdin.known && !stdin.dyn && !anyDyn(args) {
				words := make([]string, len(args))
				for i, a := range args {
					words[i] = a.s
				}
				if t, ok := decodeStage(c.Name, words, stdin.text); ok {
					out = &input{text: t, known: true, via: viaPipe}
				}
			}
		case "find":
			s.findExec(args, st, fr)
		case "source", ".":
			if len(args) > 0 && args[0].dyn {
				s.res.Commands[idx].DynamicCode = true
			}
		}
		if out != nil && out.known && !out.dyn {
			s.res.Commands[idx].Output, s.res.Commands[idx].OutputKnown = out.text, true
		}
		if out != nil {
			for _, r := range c.Redirects {
				if strings.Contains(r.Op, ">") {
					out = nil
					break
				}
			}
		}
	}
	if code != nil && !code.subst {
		if fr.depth+1 > s.maxDepth {
			s.res.DepthExceeded = true
		} else {
			cst := st
			if shellProc {
				cst = st.child(c.Assigns)
				cst.cwd = c.Cwd
				if shells[c.Name] && codeVia == viaBashC {
					// sh -c 'rm -f "$1"' _ {}: $1 … are the words after $0.
					if params := shellCodeParams(args); params != nil {
						cst.params = params
						for i := 1; i <= 9; i++ {
							switch {
							case i <= len(params) && !params[i-1].dyn:
								cst.set(strconv.Itoa(i), params[i-1].s, false)
							case i <= len(params):
								cst.unset(strconv.Itoa(i))
							default:
								cst.set(strconv.Itoa(i), "", false)
							}
						}
					}
				}
			}
			if codeVia == viaContainer || elsewhere {
				// Inside a container: its own filesystem, directory unknown.
				cst = st.child(nil)
				cst.cwd = ""
			}
			s.parseAndWalk(code.s, cst, fr, nil, codeVia)
		}
	}
	return idx, out
}

// unwrap strips one wrapper; ok is false when name is not a wrapper.
func (s *splitter) unwrap(name string, argv []arg, c *Command, st *state) (rest []arg, ok bool) {
	var spec optSpec
	var onVal func(opt, val string)
	cwd, setCwd := "", false
	var assigns [][2]string
	var prepend []arg
	switch name {
	case "sudo":
		spec = sudoSpec
		onVal = func(opt, val string) {
			if opt == "D" || opt == "chdir" {
				cwd, setCwd = val, true
			}
		}
	case "doas":
		spec = doasSpec
	case "pkexec":
		spec = pkexecSpec
	case "env":
		spec = envSpec
		onVal = func(opt, val string) {
			switch opt {
			case "C", "chdir":
				cwd, setCwd = val, true
			case "S", "split-string":
				// env -S 'sh -c "curl … | sh"': the string is split into
				// words with quotes honored, as env does.
				for _, f := range splitStringWords(val) {
					prepend = append(prepend, arg{s: f})
				}
			}
		}
	case "command":
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a.s, "-") || a.s == "--" {
				break
			}
			if strings.ContainsAny(a.s, "vV") {
				return nil, false // command -v only looks the name up
			}
		}
		spec = plainSpec
	case "builtin", "nohup", "setsid", "unbuffer", "busybox", "chronic", "dbus-run-session":
		spec = plainSpec
	case "taskset":
		// taskset [-c] MASK COMMAND…; with -p it changes a running
		// process's affinity and runs nothing.
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a.s, "-") {
				break
			}
			if a.s == "--pid" || !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "p") {
				return nil, false
			}
		}
		spec = plainSpec
	case "entr":
		// entr [-acdnprz] UTILITY…: runs the utility each time a file it
		// watches changes; with -s the utility is shell code.
		spec = plainSpec
	case "exec":
		spec = execSpec
	case "nice":
		spec = niceSpec
	case "timeout", "gtimeout":
		spec = timeoutSpec
	case "chroot":
		spec = chrootSpec
	case "time":
		spec = timeSpec
	case "stdbuf":
		spec = stdbufSpec
	case "ionice":
		spec = ioniceSpec
	case "xargs":
		spec = xargsSpec
		onVal = func(opt, val string) {
			if opt == "a" || opt == "arg-file" {
				c.ArgFile = s.homeDir(val, st)
			}
		}
	case "parallel":
		spec = parallelSpec
		onVal = func(opt, val string) {
			if opt == "a" || opt == "arg-file" {
				c.ArgFile = s.homeDir(val, st)
			}
		}
	case "strace", "ltrace":
		spec = straceSpec
	case "caffeinate":
		spec = caffSpec
	case "flock":
		// flock LOCKFILE COMMAND…: the command runs holding the lock
		// (flock LOCKFILE -c CMD is read as a shell running CMD).
		spec = flockSpec
		j := skipOpts(argv, spec, nil)
		if j+1 >= len(argv) || argv[j+1].s == "-c" || argv[j+1].s == "--command" || strings.HasPrefix(argv[j].s, "-") {
			return nil, false
		}
	default:
		return nil, false
	}
	i := skipOpts(argv, spec, onVal)
	switch name {
	case "env":
		// env -S 'GOFLAGS=-mod=mod go' test: the split string's own
		// assignments come first.
		for len(prepend) > 0 && isAssign(prepend[0].s) {
			k, v, _ := strings.Cut(prepend[0].s, "=")
			assigns = append(assigns, [2]string{k, v})
			prepend = prepend[1:]
		}
		// PATH=$PATH: the name is written out, only the value is known at run time.
		for len(prepend) == 0 && i < len(argv) && isAssign(argv[i].s) {
			k, v, _ := strings.Cut(argv[i].s, "=")
			assigns = append(assigns, [2]string{k, v})
			i++
		}
	case "sudo":
		// sudo EDITOR=tee visudo …: sudo sets the variables for the command.
		for i < len(argv) && isAssign(argv[i].s) {
			k, v, _ := strings.Cut(argv[i].s, "=")
			assigns = append(assigns, [2]string{k, v})
			i++
		}
	case "timeout", "gtimeout":
		i++ // the duration
	case "entr":
		for _, a := range argv[1:i] {
			if strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "s") {
				prepend = []arg{{s: "sh"}, {s: "-c"}}
			}
		}
	case "flock":
		i++ // the lock file
	case "taskset":
		i++ // the CPU mask or list
	case "chroot":
		// chroot NEWROOT [COMMAND…]: without a command, a shell there.
		i++
		if i >= len(argv) {
			prepend = []arg{{s: "sh"}}
		}
	case "parallel":
		// parallel CMD ::: A B C runs CMD once per input: read as CMD with
		// every input (in place of {} when the command names it).
		for j := i; j < len(argv); j++ {
			if v := argv[j].s; v == ":::" || v == ":::+" || v == "::::" || v == "::::+" {
				cmd, inputs := argv[i:j], argv[j+1:]
				if v == "::::" || v == "::::+" {
					inputs = []arg{{s: "{parallel input}", dyn: true}} // read from files
				}
				var kept []arg
				for _, in := range inputs {
					if s := in.s; s == ":::" || s == ":::+" || s == "::::" || s == "::::+" {
						break
					}
					kept = append(kept, in)
				}
				if len(cmd) == 0 && len(kept) > 0 {
					// parallel ::: 'make lint' 'make test': each input is a
					// command line, run by a shell.
					var lines []string
					dyn := false
					for _, in := range kept {
						lines = append(lines, in.s)
						dyn = dyn || in.dyn
					}
					cmd = []arg{{s: "sh"}, {s: "-c"}, {s: strings.Join(lines, "\n"), dyn: dyn}}
					kept = nil
				}
				if len(cmd) == 1 && strings.ContainsAny(cmd[0].s, " \t;|&") {
					// parallel 'curl -F f=@{} …' ::: …: one string, run by a shell.
					text := cmd[0].s
					var ins []string
					for _, in := range kept {
						ins = append(ins, in.s)
					}
					if strings.Contains(text, "{}") {
						text = strings.ReplaceAll(text, "{}", strings.Join(ins, " "))
					} else {
						text += " " + strings.Join(ins, " ")
					}
					cmd = []arg{{s: "sh"}, {s: "-c"}, {s: text, dyn: cmd[0].dyn}}
					kept = nil
				}
				out := make([]arg, 0, len(cmd)+len(kept))
				placed := false
				for _, a := range cmd {
					if strings.Contains(a.s, "{}") && len(kept) > 0 {
						for _, in := range kept {
							b := in
							b.s = strings.ReplaceAll(a.s, "{}", in.s)
							out = append(out, b)
						}
						placed = true
						continue
					}
					out = append(out, a)
				}
				if !placed {
					out = append(out, kept...)
				}
				argv = append(argv[:i:i], out...)
				break
			}
		}
	}
	if i >= len(argv) {
		if name == "xargs" && len(prepend) == 0 {
			// xargs with no command runs echo with what it reads.
			prepend = []arg{{s: "echo"}}
		}
		if len(prepend) == 0 {
			return nil, true
		}
		rest = prepend
	} else if len(prepend) > 0 {
		rest = append(prepend, argv[i:]...)
	} else {
		rest = argv[i:]
	}
	if setCwd {
		c.Cwd = joinCwd(c.Cwd, s.homeDir(cwd, st))
	}
	if len(assigns) > 0 {
		if c.Assigns == nil {
			c.Assigns = make(map[string]string, len(assigns))
		}
		for _, kv := range assigns {
			c.Assigns[kv[0]] = kv[1]
		}
	}
	return rest, true
}

func (s *splitter) homeDir(dir string, st *state) string {
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		return s.tilde(dir, st)
	}
	return dir
}

// splitStringWords splits env -S's string into words the way env does:
// blanks separate words, single and double quotes group, a backslash
// escapes the next character. A word it cannot read ends the split.
func splitStringWords(v string) []string {
	var out []string
	var b strings.Builder
	inWord := false
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				out = append(out, b.String())
				b.Reset()
				inWord = false
			}
		case ch == '\'':
			j := strings.IndexByte(v[i+1:], '\'')
			if j < 0 {
				return append(out, b.String()+v[i+1:])
			}
			b.WriteString(v[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
			}
			inWord = true
		case ch == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
			inWord = true
		default:
			b.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}

// globbedPrograms are the programs a glob in the command position is
// checked against: the ones whose effects matter most.
var globbedPrograms = []string{"rm", "rmdir", "mv", "cp", "dd", "ln", "sh", "bash", "zsh", "dash", "ksh", "curl", "wget", "nc",
	"ncat", "socat", "python", "python3", "perl", "ruby", "node", "php", "chmod", "chown", "shred", "mkfs", "kill", "pkill",
	"sudo", "su", "cat", "base64", "tar", "find", "xargs", "crontab", "ssh", "scp", "git", "truncate", "tee", "openssl"}

// globProgram returns the one program of globbedPrograms a glob in the
// command position can name, in the system's bin folders or by itself.
func globProgram(pattern string) (string, bool) {
	found := ""
	for _, name := range globbedPrograms {
		match := false
		if strings.Contains(pattern, "/") {
			for _, dir := range []string{"/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/"} {
				if ok, _ := path.Match(pattern, dir+name); ok {
					match = true
					break
				}
			}
		} else if ok, _ := path.Match(pattern, name); ok {
			match = true
		}
		if match {
			if found != "" {
				return "", false // more than one: not known
			}
			found = name
		}
	}
	return found, found != ""
}
