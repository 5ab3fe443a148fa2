package effects

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/rules/shell"
)

// Env is what the analysis needs to know about where a command runs.
type Env struct {
	// Home is the user's home directory ("" when unknown).
	Home string
	// WorkspaceRoots are the event's workspace roots.
	WorkspaceRoots []string
	// Classify returns the rule pass's classes of a path argument (root,
	// home, home_sub, system, workspace, inside, build, source, outside,
	// temp, dynamic) relative to cwd.
	Classify func(arg, cwd string) []string
	// Placeholder, when not nil, are the classes of what find hands to
	// -exec as {}.
	Placeholder []string
	// FromPipe says stdin comes from another command of the same pipeline
	// whose output is not known (xargs turns it into arguments).
	FromPipe bool
}

// Analyze computes the effects record of one simple command.
func Analyze(c *shell.Command, env Env) *Record {
	r := &Record{Program: c.Name}
	a := analysis{c: c, env: env, r: r}
	a.run()
	return r
}

type analysis struct {
	c   *shell.Command
	env Env
	r   *Record
}

// elevating wrappers run the command as another user.
var elevating = map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true}

// loaderVars are environment variables that make programs load or run other
// code at start-up.
var loaderVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "BASH_ENV": true, "ENV": true,
		"PROMPT_COMMAND": true, "NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "PYTHONHOME": true,
		"PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true, "GIT_SSH_COMMAND": true, "GIT_SSH": true,
		"GIT_EXEC_PATH": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_PARAMETERS": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true,
		"GIT_EDITOR": true, "EDITOR": true, "VISUAL": true, "PAGER": true, "SHELLOPTS": true, "BASHOPTS": true, "IFS": true,
		"PS4": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
		"DOTNET_STARTUP_HOOKS": true, "GCONV_PATH": true, "LD_BIND_NOW": false, "PATH": true, "HISTFILE": false,
		"MAVEN_OPTS": true, "GRADLE_OPTS": true, "npm_config_script_shell": true, "NPM_CONFIG_SCRIPT_SHELL": true,
	}
})

func (a *analysis) run() {
	c, r := a.c, a.r
	for _, w := range c.Wrappers {
		if elevating[w] {
			r.Privileged = true
		}
	}
	for k := range c.Assigns {
		a.envVar(k)
	}
	a.redirects()
	a.metadataScan()
	if c.DynamicName {
		r.unknown("the program name is built at run time")
		return
	}
	if c.Name == "" {
		r.Known = true // assignments or redirections only
		return
	}
	spec := Lookup(c.Name)
	relative := !strings.HasPrefix(c.Program, "/") && strings.Contains(c.Program, "/")
	if spec == nil {
		if relative {
			r.Code = append(r.Code, CodeEffect{Kind: "file", What: c.Program})
			r.unknown("runs a workspace file: %s", c.Program)
		}
		return
	}
	if name := c.Program; relative && spec.Code != "project" {
		// ./name is a file in the workspace, not the system program of that name.
		r.Code = append(r.Code, CodeEffect{Kind: "file", What: name})
		r.unknown("runs a workspace file named like a program: %s", name)
		return
	}
	r.Known = true
	a.walk(spec)
	if c.DynamicCode {
		r.Code = append(r.Code, CodeEffect{Kind: "stdin", Lang: "shell", Found: []string{"only known at run time"}})
		r.unknown("runs shell code only known at run time")
	}
}

func (a *analysis) envVar(k string) {
	if loaderVars()[k] || strings.HasPrefix(k, "DYLD_") || strings.HasPrefix(k, "BASH_FUNC_") {
		a.r.Env = append(a.r.Env, k)
	}
}

func (a *analysis) redirects() {
	for _, rd := range a.c.Redirects {
		t := rd.Target
		if t == "" || t == "-" || isDigits(strings.TrimPrefix(t, "&")) {
			continue
		}
		switch {
		case strings.Contains(rd.Op, ">"):
			a.file(OpWrite, t, false)
		case strings.Contains(rd.Op, "<"):
			a.file(OpRead, t, false)
		}
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// file records a file effect with the classes of its path.
func (a *analysis) file(op, p string, recursive bool) {
	f := FileEffect{Op: op, Path: p, Recursive: recursive}
	dyn := strings.ContainsAny(p, "$`")
	if p == "{}" && a.env.Placeholder != nil {
		f.Classes = append(f.Classes, a.env.Placeholder...)
	} else if dyn {
		f.Dynamic = true
		f.Classes = []string{"dynamic"}
	} else {
		if a.env.Classify != nil {
			f.Classes = a.env.Classify(p, a.c.Cwd)
		}
		abs, tilde := a.absolute(p)
		f.Classes = append(f.Classes, sensitiveClasses(abs, tilde)...)
		for _, root := range a.env.WorkspaceRoots {
			root = path.Clean(root)
			base := path.Base(p)
			switch {
			case abs == root || path.Dir(abs) == root && (base == "*" || base == ".*"):
				f.Classes = append(f.Classes, ClassRoot)
			case root != "/" && strings.HasPrefix(root, abs+"/"):
				f.Classes = append(f.Classes, ClassAncestor)
			}
		}
		if a.env.Home != "" && path.Dir(abs) == a.env.Home && strings.HasPrefix(path.Base(abs), ".") {
			f.Classes = append(f.Classes, ClassDotfile)
		}
	}
	a.r.Files = append(a.r.Files, f)
	if op == OpWrite && len(path.Base(p)) > 1 && strings.HasPrefix(path.Base(p), "-") && !f.Dynamic {
		a.r.Concerns = append(a.r.Concerns, "creates a file named like an option ("+path.Base(p)+"): a later glob passes it to a program as an option")
	}
}

// absolute resolves p against the command's directory and home; tilde is its
// ~ form when it lies under home.
func (a *analysis) absolute(p string) (abs, tilde string) {
	home := a.env.Home
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return p, p
		}
		abs = home + p[1:]
	case strings.HasPrefix(p, "/"):
		abs = p
	case a.c.Cwd != "":
		abs = a.c.Cwd + "/" + p
	default:
		abs = p
	}
	abs = path.Clean(abs)
	if home != "" && (abs == home || strings.HasPrefix(abs, home+"/")) {
		tilde = "~" + abs[len(home):]
	}
	return abs, tilde
}

// walk reads the arguments against spec (and its subcommands).
func (a *analysis) walk(spec *Spec) {
	c, r := a.c, a.r
	args, dyn := c.Args, c.DynamicArgs
	if a.env.FromPipe && hasWrapper(c.Wrappers, "xargs") {
		// xargs appends what it reads to the arguments.
		args = append(append([]string{}, args...), "{xargs input}")
		dyn = append(append([]bool{}, dyn...), true)
	}
	cur := spec
	operands := spec.Operands
	first := spec.First
	var positionals []string
	var posDyn []bool
	endOpts := false
	subDone := len(spec.Subcommands) == 0
	for i := 0; i < len(args); i++ {
		arg, d := args[i], i < len(dyn) && dyn[i]
		if !endOpts && arg == "--" {
			endOpts = true
			continue
		}
		if !endOpts && len(arg) > 1 && arg[0] == '+' {
			if o := findOption(cur, "+"); o != nil {
				a.value(o.Value, arg[1:], d)
				continue
			}
		}
		if !endOpts && len(arg) > 1 && arg[0] == '-' && !(d && arg[1] == '$') {
			if cur.AnyOption {
				continue
			}
			consumed, ok := a.option(cur, arg, args, dyn, i, &operands, &first)
			if !ok {
				r.unknown("option %s of %s", arg, a.name(cur, spec))
				continue
			}
			i += consumed
			if r.stopped {
				break // the rest are the arguments of the code it runs
			}
			continue
		}
		if !subDone {
			if d {
				r.unknown("the subcommand is only known at run time")
				return
			}
			sub := findSub(cur, arg)
			if sub == nil {
				if cur.NoSubcommandOK {
					subDone = true
				} else {
					r.unknown("subcommand %q of %s", arg, a.name(cur, spec))
					return
				}
			} else {
				if r.Subcommand != "" {
					r.Subcommand += " "
				}
				r.Subcommand += sub.Names[0]
				cur = sub
				a.specEffects(sub)
				if sub.Operands != "" {
					operands = sub.Operands
				}
				first = sub.First
				subDone = len(sub.Subcommands) == 0
				continue
			}
		}
		positionals = append(positionals, arg)
		posDyn = append(posDyn, d)
		if cur.StopAtFirst && len(positionals) == 1 {
			// The rest belongs to the script or program run.
			for j := i + 1; j < len(args); j++ {
				positionals = append(positionals, args[j])
				posDyn = append(posDyn, j < len(dyn) && dyn[j])
			}
			break
		}
	}
	if !subDone && !cur.NoSubcommandOK && len(positionals) > 0 {
		r.unknown("%s without a known subcommand", a.name(cur, spec))
	}
	if cur == spec {
		a.specEffects(spec)
	}
	if first == OperandScript && len(positionals) == 0 && !r.codeGiven && !r.stopped {
		if lang := specLang(cur); lang != "" && (c.StdinFed || hasInputRedirect(c)) {
			// An interpreter with neither a script nor inline code reads its
			// code from stdin (python3 <<EOF, curl … | ruby).
			a.stdinCode(lang)
		}
	}
	if first == OperandScript && len(positionals) > 0 && !posDyn[0] {
		// A script the table knows as a project's own task runner
		// (python manage.py test): read its arguments against its entry.
		if s2 := Lookup(path.Base(positionals[0])); s2 != nil && s2.Code == "project" {
			sub := *c
			sub.Name, sub.Program = path.Base(positionals[0]), positionals[0]
			sub.Args, sub.DynamicArgs = positionals[1:], posDyn[1:]
			r.Program += " " + positionals[0]
			inner := analysis{c: &sub, env: a.env, r: r}
			inner.walk(s2)
			return
		}
	}
	a.operands(operands, first, positionals, posDyn)
}

func hasWrapper(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

func (a *analysis) name(cur, spec *Spec) string {
	if cur == spec {
		return spec.Names[0]
	}
	return spec.Names[0] + " " + a.r.Subcommand
}

func findSub(s *Spec, name string) *Spec {
	for _, sub := range s.Subcommands {
		for _, n := range sub.Names {
			if n == name {
				return sub
			}
		}
	}
	return nil
}

// specEffects records what a program or subcommand does by itself.
func (a *analysis) specEffects(s *Spec) {
	r := a.r
	switch s.Code {
	case "":
	case "project":
		r.Code = append(r.Code, CodeEffect{Kind: "project", What: "the workspace's own build, test or task definitions"})
	default:
		r.Code = append(r.Code, CodeEffect{Kind: s.Code})
	}
	if s.Network != "" {
		r.Network = append(r.Network, NetEffect{Dest: "its configured remote", Sends: map[string]string{"send": "workspace"}[s.Network]})
	}
	if s.Mutates != "" {
		r.Mutates = s.Mutates
	}
	if s.Privileged {
		r.Privileged = true
	}
}

// option matches one option word; it returns how many following arguments
// its value consumed.
func (a *analysis) option(s *Spec, arg string, args []string, dyn []bool, i int, operands, first *string) (int, bool) {
	// Exact spelling, or --name=value / -name=value.
	name, val, hasVal := strings.Cut(arg, "=")
	if o := findOption(s, arg); o != nil && o.UntilEnd {
		a.applyOption(o, operands, first)
		for k := i + 1; k < len(args); k++ {
			if args[k] == ";" || args[k] == "+" || args[k] == `\;` {
				return k - i, true
			}
		}
		return len(args) - 1 - i, true
	}
	if o := findOption(s, name); o != nil {
		if o.Value == "" {
			a.applyOption(o, operands, first)
			if hasVal {
				a.flagValue(o, val, false)
			}
			if o.DryRun && strings.HasPrefix(name, "--no-") {
				a.r.DryRun = false // --no-dry-run: the last spelling wins
			}
			return 0, true
		}
		if hasVal {
			a.value(o.Value, val, false)
			a.applyOption(o, operands, first)
			a.flagValue(o, val, false)
			a.nameFilter(name, val)
			return 0, true
		}
		if i+1 < len(args) {
			a.value(o.Value, args[i+1], i+1 < len(dyn) && dyn[i+1])
			a.applyOption(o, operands, first)
			a.flagValue(o, args[i+1], i+1 < len(dyn) && dyn[i+1])
			a.nameFilter(name, args[i+1])
			return 1, true
		}
		a.r.unknown("option %s without its value", arg)
		return 0, true
	}
	if strings.HasPrefix(arg, "--") || len(arg) < 2 {
		return 0, false
	}
	// A cluster of short options: -rf, -n5, -oFILE.
	for k := 1; k < len(arg); k++ {
		o := findOption(s, "-"+arg[k:k+1])
		if o == nil {
			return 0, false
		}
		a.applyOption(o, operands, first)
		if o.Value != "" {
			if rest := arg[k+1:]; rest != "" {
				a.value(o.Value, rest, false)
				return 0, true
			}
			if i+1 < len(args) {
				a.value(o.Value, args[i+1], i+1 < len(dyn) && dyn[i+1])
				return 1, true
			}
			a.r.unknown("option -%s without its value", arg[k:k+1])
			return 0, true
		}
	}
	return 0, true
}

// flagValue handles --flag=false style values of flags: a dry-run option set
// to a false value does not count.
func (a *analysis) flagValue(o *Option, val string, dyn bool) {
	if o.DryRun && dyn {
		a.r.DryRun = false
		a.r.Concerns = append(a.r.Concerns, "dry run chosen at run time: "+o.Names[0]+"="+val)
		return
	}
	if o.DryRun {
		switch strings.ToLower(val) {
		case "false", "0", "no", "off", "none", "never":
			a.r.DryRun = false
			a.r.Concerns = append(a.r.Concerns, "dry run turned off: "+o.Names[0]+"="+val)
		}
	}
}

func findOption(s *Spec, name string) *Option {
	for i := range s.Options {
		for _, n := range s.Options[i].Names {
			if n == name {
				return &s.Options[i]
			}
		}
	}
	return nil
}

func (a *analysis) applyOption(o *Option, operands, first *string) {
	if o.Operands != "" {
		*operands = o.Operands
	}
	if o.NoFirst {
		*first = ""
	}
	if o.Recursive {
		a.r.recursive = true
	}
	if o.DryRun {
		a.r.DryRun = true
	}
	if o.Deletes {
		a.r.deletes = true
	}
	if o.Filter {
		a.r.filtered = true
	}
	if o.Stop {
		a.r.stopped = true
	}
	if o.Concern != "" {
		a.r.Concerns = append(a.r.Concerns, o.Concern)
	}
}

// operands records the positional arguments' effects.
func (a *analysis) operands(kind, first string, pos []string, dyn []bool) {
	if len(pos) == 0 {
		return
	}
	if first != "" {
		a.r.firstArg = pos[0]
		a.value(first, pos[0], dyn[0])
		pos, dyn = pos[1:], dyn[1:]
	}
	switch kind {
	case OperandDest, OperandMove:
		if len(pos) == 0 {
			return
		}
		last := len(pos) - 1
		for i := 0; i < last; i++ {
			if kind == OperandMove {
				a.value(OperandDelete, pos[i], dyn[i])
			} else {
				a.value(OperandRead, pos[i], dyn[i])
			}
		}
		if last == 0 && kind == OperandDest {
			// cp FILE with no destination: an error, or (ln -s) into the cwd.
			return
		}
		a.value(OperandWrite, pos[last], dyn[last])
		return
	}
	for i, p := range pos {
		a.value(kind, p, dyn[i])
	}
}

// value records the effect of one argument of a given kind.
func (a *analysis) value(kind, v string, dyn bool) {
	r := a.r
	if strings.HasPrefix(kind, OperandCodePrefix) {
		lang := kind[len(OperandCodePrefix):]
		r.codeGiven = true
		if dyn {
			r.Code = append(r.Code, CodeEffect{Kind: "inline", Lang: lang, Found: []string{"only known at run time"}})
			r.unknown("%s code only known at run time", lang)
			return
		}
		ce := analyzeCode(lang, v)
		r.Code = append(r.Code, ce)
		for _, p := range ce.Deletes {
			a.file(OpDelete, p, true)
		}
		for _, f := range ce.Found {
			if f == foundUnanalyzable {
				r.unknown("%s code that cannot be analyzed", lang)
			}
		}
		a.codeFiles(ce, v)
		return
	}
	switch kind {
	case "", OperandNone, OperandAny:
		return
	case OperandEnv:
		k, _, _ := strings.Cut(v, "=")
		a.envVar(k)
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
		a.data("@"+v, dyn)
		return
	case OperandHeader:
		// A token in a header usually goes to the service it belongs to:
		// the judge decides whether this destination is that service.
		if dyn {
			a.r.Network = append(a.r.Network, NetEffect{Sends: "a run-time value in a header"})
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
	if dyn && v != "{xargs input}" {
		if kind == OperandRead && (a.env.FromPipe || v == "{}" || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`")) {
			// Names from the pipeline's or a substitution's own output: the
			// command that produces them is analyzed on its own.
			return
		}
		r.unknown("a %s operand only known at run time: %s", kind, v)
	}
	switch kind {
	case OperandRead:
		if v == "{xargs input}" {
			return
		}
		if v != "-" {
			a.file(OpRead, v, a.r.recursive)
		}
	case OperandWrite:
		if v == "{xargs input}" {
			r.unknown("writes files named by its input")
			return
		}
		if v != "-" {
			a.file(OpWrite, v, a.r.recursive)
		}
	case OperandDelete:
		if v == "{xargs input}" {
			r.unknown("deletes files named by its input")
			return
		}
		if a.r.filtered && len(a.r.filterNames) > 0 {
			// find DIR -name X -delete: the files named X below DIR.
			for _, n := range a.r.filterNames {
				a.file(OpDelete, strings.TrimSuffix(v, "/")+"/"+n, false)
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
		if dyn || v == "{xargs input}" {
			a.r.Concerns = append(a.r.Concerns, "signals processes chosen at run time ("+v+")")
		}
	case OperandList:
		if v == "{xargs input}" || dyn {
			return
		}
		a.file(OpRead, v, false)
		a.r.Files[len(a.r.Files)-1].Meta = true
	case OperandDiscard:
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
			r.Code = append(r.Code, CodeEffect{Kind: "stdin"})
			a.stdinCode("")
			return
		}
		if venvActivate(v) {
			r.Code = append(r.Code, CodeEffect{Kind: "project", What: v})
			return
		}
		r.Code = append(r.Code, CodeEffect{Kind: "file", What: v})
		r.unknown("runs the script %s", v)
	case OperandCommand:
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

func hasClass(cs []string, c string) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
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
	ce.Kind = "stdin"
	a.r.Code = append(a.r.Code, ce)
	for _, p := range ce.Deletes {
		a.file(OpDelete, p, true)
	}
	a.codeFiles(ce, a.c.Stdin)
	for _, f := range ce.Found {
		if f == foundUnanalyzable {
			a.r.unknown("%s code on stdin that cannot be analyzed", lang)
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
		if hasClass(cls, ClassSecret) {
			from = "secret file " + p
		}
	case v == "@-" || v == "-":
		from = "stdin"
	case dyn:
		switch {
		case strings.Contains(v, "$(") || strings.Contains(v, "`"):
			from = "substitution"
		case secretVar.MatchString(v):
			from = "environment"
			if m := secretVar.FindString(v); m != "" {
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
	if host := hostOf(dest); host != "" && !isASCII(host) {
		a.r.Concerns = append(a.r.Concerns, "the host name "+host+" has non-ASCII letters (a look-alike of a known host?)")
	}
}

// projectModules are Python modules that test, lint, format or package the
// workspace's own code, or only print.
var projectModules = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"pytest": true, "unittest": true, "doctest": true, "venv": true, "virtualenv": true, "black": true, "mypy": true,
		"ruff": true, "isort": true, "flake8": true, "pylint": true, "pyflakes": true, "pycodestyle": true, "coverage": true,
		"json.tool": true, "py_compile": true, "compileall": true, "timeit": true, "pydoc": true, "build": true,
		"tox": true, "nox": true, "pyright": true, "bandit": true, "cProfile": true, "profile": true, "trace": false,
		"pip": false, "http.server": false, "ensurepip": true, "site": true, "sysconfig": true, "platform": true,
		"django": true, "alembic": true, "uvicorn": true, "flask": true, "jupyter": true, "notebook": true, "IPython": true,
		"pre_commit": true, "hatch": true, "poetry": true, "pdm": true, "maturin": true, "twine": false, "tabulate": true,
	}
})

// module records python -m NAME.
func (a *analysis) module(name string, dyn bool) {
	switch {
	case dyn:
		a.r.unknown("a Python module only known at run time")
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
	texts := append([]string{a.c.Stdin}, a.c.Args...)
	for _, t := range texts {
		for _, h := range hostCandidates(t) {
			if _, meta := classifyHost(h); meta {
				a.r.Network = append(a.r.Network, NetEffect{Dest: h, Metadata: true})
				return
			}
		}
	}
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
		case harmlessGitCommands[strings.TrimSpace(val)]:
		default:
			a.r.Code = append(a.r.Code, CodeEffect{Kind: "config", Lang: "git", What: key + "=" + val})
			a.r.Concerns = append(a.r.Concerns, "makes git run a command through "+key+": "+short(val))
		}
		return
	}
}

// secretVar matches a variable whose name says it holds a credential.
var secretVar = lazyRegexp(`\$\{?[A-Za-z0-9_]*(?i:token|secret|passw|pwd|api_?key|access_?key|private|credential|auth|session|cookie)[A-Za-z0-9_]*\}?`)

// lazyRegexp compiles a pattern on first use, so that hook processes that
// never need it do not pay for it at start-up.
type lazyRe struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

func lazyRegexp(src string) *lazyRe { return &lazyRe{src: src} }

func (l *lazyRe) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// MatchString reports whether s contains a match.
func (l *lazyRe) MatchString(s string) bool { return l.get().MatchString(s) }

// FindString returns the leftmost match.
func (l *lazyRe) FindString(s string) string { return l.get().FindString(s) }

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

// codeFiles records the sensitive files inline code names: a credential it
// reads, and a start-up, scheduling or guard file it may write.
func (a *analysis) codeFiles(ce CodeEffect, code string) {
	writes := false
	for _, f := range ce.Found {
		if f == foundWrite {
			writes = true
		}
	}
	for _, p := range codePaths(code) {
		cls := a.classesOf(p)
		switch {
		case writes && (hasClass(cls, ClassPersistence) || hasClass(cls, ClassGuard) || hasClass(cls, ClassVCS)):
			a.file(OpWrite, p, false)
		case hasClass(cls, ClassSecret):
			a.file(OpRead, p, false)
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// nameFilter keeps find's -name and -iname values: they say what -delete removes.
func (a *analysis) nameFilter(opt, val string) {
	switch opt {
	case "-name", "-iname":
		if !strings.Contains(val, "/") {
			a.r.filterNames = append(a.r.filterNames, val)
		}
	}
}

// hostOf returns the host of a URL or host:port.
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
