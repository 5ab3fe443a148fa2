package rules

import (
	"github.com/hookguard/hookguard/rules/effects"
	"path"
	"slices"
	"strings"

	"github.com/hookguard/hookguard/rules/shell"
)

var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/var",
	"/opt", "/sys", "/proc", "/dev", "/srv", "/snap", "/System", "/Library", "/Applications",
	"/private", "/cores", "/Volumes", "/mnt", "/media", "/run"}

var tempDirs = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm"}

// classifyPath sorts one path argument into the classes rules can require:
// where it is, and what it is (the sensitive classes of rules/effects).
func classifyPath(arg, cwd string, ctx Context) []string {
	out := locationClasses(arg, cwd, ctx)
	if arg != "" {
		out = append(out, effects.PathClassesOf(arg, cwd, ctx.Home)...)
		// host:target pairs (docker -v ~/.aws:/aws, scp key host:/tmp):
		// the host side is a path too.
		if i := strings.IndexByte(arg, ':'); i > 0 && !strings.Contains(arg, "://") && (arg[0] == '/' || arg[0] == '~' || arg[0] == '.' || arg[0] == '$') {
			out = append(out, effects.PathClassesOf(arg[:i], cwd, ctx.Home)...)
		}
	}
	return out
}

// locationClasses sorts one path argument by where it is.
func locationClasses(arg, cwd string, ctx Context) []string {
	if arg == "" {
		return nil
	}
	if strings.ContainsAny(arg, "$`") {
		if effects.GuardedBuildOutput(arg) {
			// "${WORKSPACE:?}/node_modules": a build output wherever it is.
			return []string{PathBuild}
		}
		return []string{PathDynamic}
	}
	home := ctx.Home
	if arg == "~" || strings.HasPrefix(arg, "~/") {
		if home == "" {
			rest := strings.TrimPrefix(strings.TrimPrefix(arg, "~"), "/")
			if rest == "" || rest == "*" || rest == ".*" {
				return []string{PathHome}
			}
			return []string{PathHomeSub, PathOutside}
		}
		arg = home + strings.TrimPrefix(arg, "~")
	} else if strings.HasPrefix(arg, "~") {
		// ~user: another user's home.
		return []string{PathOutside, PathHome}
	}
	abs := arg
	if !strings.HasPrefix(arg, "/") {
		if cwd == "" {
			return []string{PathDynamic}
		}
		abs = cwd + "/" + arg
	}
	// A trailing glob means everything in its directory.
	base := path.Base(abs)
	target := path.Clean(abs)
	everything := false
	if strings.ContainsAny(base, "*?[") {
		target = path.Dir(path.Clean(abs))
		everything = base == "*" || base == ".*" || base == "*.*" || base == "{*,.*}" || base == "**"
		if !everything {
			target = path.Join(target, base)
		}
	}
	var out []string
	add := func(c string) { out = append(out, c) }
	switch {
	case target == "/":
		add(PathRoot)
		return out
	case home != "" && target == home, isHomeDir(target):
		add(PathHome)
		return out
	}
	for _, root := range ctx.WorkspaceRoots {
		root = path.Clean(root)
		switch {
		case target == root || (root != "/" && strings.HasPrefix(root, target+"/")):
			add(PathWorkspace)
			return out
		case strings.HasPrefix(target, root+"/"):
			add(PathInside)
			if ctx.build.contains(target[len(root)+1:]) {
				add(PathBuild)
			} else {
				add(PathSource)
			}
			return out
		}
	}
	// Home before temp and system: a home directory may itself live under /tmp
	// or /var (CI runners, containers).
	if home != "" && home != "/" && strings.HasPrefix(target, home+"/") {
		return []string{PathOutside, PathHomeSub}
	}
	for _, t := range tempDirs {
		if target == t || strings.HasPrefix(target, t+"/") {
			if target == t && !everything {
				// /tmp itself (rm -rf /tmp): the folder every program
				// shares. What is in it (/tmp/*) is temporary files.
				add(PathSystem)
			}
			add(PathTemp)
			return out
		}
	}
	for _, s := range systemDirs {
		if target == s || strings.HasPrefix(target, s+"/") {
			if target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" {
				return []string{PathTemp}
			}
			add(PathSystem)
			add(PathOutside)
			return out
		}
	}
	add(PathOutside)
	if underHomes(target) {
		add(PathHomeSub)
	}
	return out
}

// isHomeDir reports whether p is a home directory by its shape (/root, /home/x, /Users/x).
func isHomeDir(p string) bool {
	if p == "/root" || p == "/home" || p == "/Users" {
		return true
	}
	for _, pre := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

func underHomes(p string) bool {
	return strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/") || strings.HasPrefix(p, "/root/")
}

// pathArgs returns the arguments of c that name files, and their classes.
// placeholder, when not nil, classifies the {} of a find -exec command.
// withClasses false skips the classification (only the texts are wanted).
// looksLikeCode reports an argument that is code, not a path: it holds a
// quoted string and a call or a statement separator.
func looksLikeCode(arg string) bool {
	return strings.ContainsAny(arg, "'\"") && strings.ContainsAny(arg, "(;\n") && strings.ContainsAny(arg, " \n")
}

func pathArgs(c *shell.Command, ctx Context, placeholder, examples map[string]bool, exportLoads, withClasses bool) ([]string, []map[string]bool) {
	var paths []string
	var classes []map[string]bool
	cwdInWS := inWorkspace(c.Cwd, ctx)
	for _, w := range c.Wrappers {
		if w == "xargs" || w == "parallel" {
			// The real arguments arrive on stdin: unknown until run time,
			// or what the find right before it names.
			paths = append(paths, "(arguments from xargs)")
			if placeholder != nil && w == "xargs" {
				classes = append(classes, placeholder)
			} else {
				classes = append(classes, map[string]bool{PathDynamic: true})
			}
			break
		}
	}
	if effects.PrintsNoContent(c) {
		// grep -c KEY .env, grep -q, grep -l: counts, names or an exit
		// status, never the lines.
		return paths, classes
	}
	endOfFlags := false
	for i, a := range c.Args {
		dynamic := i < len(c.DynamicArgs) && c.DynamicArgs[i]
		arg := a
		if !endOfFlags {
			if a == "--" {
				endOfFlags = true
				continue
			}
			if strings.HasPrefix(a, "-") && a != "-" {
				if _, v, ok := strings.Cut(a, "="); ok && (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~")) {
					arg = v
				} else {
					continue
				}
			}
		}
		if k, v, ok := strings.Cut(arg, "="); ok && (k == "of" || k == "if") {
			arg = v
		}
		// curl -d @file, -F name=@file.
		if _, v, ok := strings.Cut(arg, "=@"); ok {
			arg = v
		} else if strings.HasPrefix(arg, "@") && len(arg) > 1 {
			arg = arg[1:]
		}
		if strings.Contains(arg, "://") {
			continue
		}
		if looksLikeCode(arg) {
			// python3 -c "…c.read('~/.aws/config')…": the paths the code
			// names in quotes, each classified on its own (the whole string,
			// read as one path, has a component .aws and ends in code).
			for _, cp := range effects.CodePathWords(arg) {
				var set map[string]bool
				if withClasses {
					set = map[string]bool{}
					for _, cl := range classifyPath(cp, c.Cwd, ctx) {
						set[cl] = true
					}
				}
				for _, form := range argForms(cp, c.Cwd, ctx.Home, dynamic, cwdInWS) {
					paths = append(paths, form)
					classes = append(classes, set)
				}
			}
			continue
		}
		if len(examples) > 0 && !dynamic && examples[path.Join(c.Cwd, arg)] {
			continue // a copy of an example file made just before: not a secret
		}
		if exportLoads && c.Via == shell.ViaExportSubst && !dynamic && slices.Contains(effects.PathClassesOf(arg, c.Cwd, ctx.Home), effects.ClassEnvFile) {
			// export $(grep -v '^#' .env | xargs): the file's variables are
			// loaded, as source .env does, not printed.
			continue
		}
		var set map[string]bool
		if withClasses {
			set = map[string]bool{}
			if dynamic && !effects.GuardedBuildOutput(arg) {
				set[PathDynamic] = true
			} else {
				for _, cl := range classifyPath(arg, c.Cwd, ctx) {
					set[cl] = true
				}
			}
		}
		if arg == "{}" && withClasses {
			// find -exec / xargs -I placeholder: what find names, or unknown.
			set = map[string]bool{PathDynamic: true}
			if placeholder != nil {
				set = placeholder
			}
		}
		for _, form := range argForms(arg, c.Cwd, ctx.Home, dynamic, cwdInWS) {
			paths = append(paths, form)
			classes = append(classes, set)
		}
	}
	inWS := cwdInWS
	for _, r := range c.Redirects {
		if r.Op == "<" || r.Op == "<>" {
			var set map[string]bool
			if withClasses {
				set = map[string]bool{}
				for _, cl := range classifyPath(r.Target, c.Cwd, ctx) {
					set[cl] = true
				}
			}
			for _, form := range argForms(r.Target, c.Cwd, ctx.Home, false, inWS) {
				paths = append(paths, form)
				classes = append(classes, set)
			}
		}
	}
	return paths, classes
}

// argForms gives a path argument as written, resolved against the working
// directory when it is relative and the directory is outside every workspace,
// and in ~ form when it lies under home: rules then see
// `cd ~/.ssh && cat id_rsa` as ~/.ssh/id_rsa.
func argForms(arg, cwd, home string, dynamic, cwdInWorkspace bool) []string {
	forms := homeForms(arg, home)
	if dynamic || cwdInWorkspace || cwd == "" || arg == "" || strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, "~") || strings.Contains(arg, "://") {
		return forms
	}
	abs := path.Join(cwd, arg)
	for _, f := range homeForms(abs, home) {
		if f != arg {
			forms = append(forms, f)
		}
	}
	return forms
}

// homeForms gives a path argument as written and, when it lies under home,
// also in its ~ form, so patterns can say ~/.npmrc whoever the user is.
func homeForms(arg, home string) []string {
	if home != "" && home != "/" && (arg == home || strings.HasPrefix(arg, home+"/")) {
		return []string{arg, "~" + arg[len(home):]}
	}
	return []string{arg}
}

// writeTargets lists the files a command writes, moves over or removes, each
// also in its ~ form when it lies under home.
func writeTargets(c *shell.Command, home string) []string {
	var out []string
	for _, t := range rawWriteTargets(c) {
		out = append(out, homeForms(t, home)...)
	}
	return out
}

func rawWriteTargets(c *shell.Command) []string {
	var out []string
	for _, r := range c.Redirects {
		if strings.Contains(r.Op, ">") && !strings.HasPrefix(r.Target, "/dev/tcp/") && !strings.HasPrefix(r.Target, "/dev/udp/") {
			out = append(out, r.Target) // bash's /dev/tcp/HOST/PORT is a connection (effects read it as one)
		}
	}
	nonFlag := func() []string {
		var xs []string
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") {
				xs = append(xs, a)
			}
		}
		return xs
	}
	switch c.Name {
	case "chmod":
		// A mode that gives no one new the right to write or to run as
		// another user (chmod 600 ~/.ssh/authorized_keys) changes nothing
		// about who can log in: not a write.
		if xs := nonFlag(); len(xs) > 0 && !effects.NarrowingMode(xs[0], false) {
			out = append(out, xs...)
		}
	case "tee", "rm", "unlink", "shred", "truncate", "touch", "chown", "chattr", "rmdir", "mv":
		out = append(out, nonFlag()...)
	case "cp", "ln", "install", "rsync", "scp":
		if xs := nonFlag(); len(xs) > 0 {
			out = append(out, xs[len(xs)-1])
		}
	case "sed", "perl", "gsed":
		inPlace := false
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-i") || a == "--in-place" || strings.HasPrefix(a, "-pi") {
				inPlace = true
			}
		}
		if xs := nonFlag(); inPlace && len(xs) > 1 {
			out = append(out, xs[1:]...)
		}
	case "dd":
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// findPlaceholder classifies what a find command hands to -exec as {}: the
// classes of its start paths. With a filter (-name, -type, …) find names
// things below a workspace root, not the root itself.
// workspaceBase reports a name that is the last component of a workspace
// root.
func workspaceBase(name string, ctx Context) bool {
	name = strings.Trim(name, `"'`)
	for _, r := range ctx.WorkspaceRoots {
		if r = strings.TrimSuffix(r, "/"); r != "" && path.Base(r) == name {
			return true
		}
	}
	return false
}

func findPlaceholder(c *shell.Command, ctx Context) map[string]bool {
	set := map[string]bool{}
	filtered := false
	starts := 0
	inExpr := false
	var names []string // -name/-iname patterns
	ancestor := false  // a start path above a workspace root: it reaches other folders too
	orred := false     // -o: the names are alternatives to other tests
	negated := false   // ! or -not: what a name test excludes is matched
	otherTests := false
	pathGlob := false // -path with a glob
	for i, a := range c.Args {
		if !inExpr && (strings.HasPrefix(a, "-") || a == "(" || a == "!") {
			if a == "-H" || a == "-L" || a == "-P" {
				continue
			}
			inExpr = true
		}
		if !inExpr {
			starts++
			dyn := i < len(c.DynamicArgs) && c.DynamicArgs[i]
			if dyn {
				set[PathDynamic] = true
				continue
			}
			for _, cl := range classifyPath(a, c.Cwd, ctx) {
				set[cl] = true
			}
			ancestor = ancestor || ancestorOfWorkspace(effects.NormalizePath(a, c.Cwd, ctx.Home), ctx)
			continue
		}
		if (a == "-name" || a == "-iname") && i+1 < len(c.Args) {
			names = append(names, c.Args[i+1])
		}
		if (a == "-path" || a == "-ipath" || a == "-wholename") && i+1 < len(c.Args) && strings.ContainsAny(c.Args[i+1], "*?[") {
			// -path '*/migrations/*.py': every file of a kind, by where it lies.
			pathGlob = true
		}
		switch a {
		case "-o", "-or":
			orred = true
		case "!", "-not":
			orred, negated = true, true
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin",
			"-ctime", "-cmin", "-size", "-empty", "-user", "-group", "-perm", "-lname", "-ilname":
			otherTests = true
		}
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
			"-type", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-empty",
			"-user", "-group", "-perm", "-lname", "-ilname", "-mindepth":
			filtered = true
		}
	}
	if starts == 0 {
		for _, cl := range classifyPath(".", c.Cwd, ctx) {
			set[cl] = true
		}
	}
	// find ~/projects -mindepth 1 -maxdepth 1 ! -name shop-api: every
	// folder next to the workspace (other projects), not what is inside it.
	siblings := ancestor && (negated && len(names) == 1 && workspaceBase(names[0], ctx) || len(names) == 0 && !otherTests && !orred)
	if filtered && set[PathWorkspace] && !siblings {
		delete(set, PathWorkspace)
		set[PathInside] = true
		depth := slices.Contains(c.Args, "-maxdepth") || slices.Contains(c.Args, "-mindepth")
		if len(names) == 0 && !otherTests && !orred && !slices.Contains(c.Args, "-prune") &&
			(!depth || !slices.Contains(c.Args, "-type")) {
			// find . -type f: a type is no filter of what a project holds;
			// find . -mindepth 1 -maxdepth 1: every entry of the root.
			set[effects.ClassEveryFile] = true
		}
	}
	if len(names) > 0 && !orred && set[PathTemp] && set[PathSystem] {
		// find /tmp -name 'pytest-of-*': what it names lies inside the temp
		// folder, not the folder itself.
		delete(set, PathSystem)
	}
	if !ancestor && (set[PathSource] || set[PathInside] && !set[PathBuild]) {
		// find . -name __pycache__ -exec rm -rf {} +: what it names is a
		// build output when every name it looks for is one.
		// -name '*.pyc' -o -name __pycache__ -prune: alternatives that are
		// all name tests of build outputs still name only build outputs.
		build := len(names) > 0 && (!orred || !negated && !otherTests && everyAlternativeNamed(c.Args))
		for _, n := range names {
			build = build && ctx.build.contains(n)
		}
		if build {
			delete(set, PathSource)
			set[PathBuild] = true
		} else if pathGlob || slices.ContainsFunc(names, func(n string) bool { return strings.ContainsAny(n, "*?[") }) {
			set[effects.ClassMatches] = true // find . -name '*.ts': every file of a kind
		}
	}
	return set
}

// everyAlternativeNamed reports a find expression whose every -o
// alternative has a -name or -iname test (-name '*.pyc' -o -name
// __pycache__ -prune), so that what it matches is what those names say.
func everyAlternativeNamed(args []string) bool {
	named := false
	for i, a := range args {
		switch a {
		case "-name", "-iname":
			named = i+1 < len(args)
		case "-o", "-or":
			if !named {
				return false
			}
			named = false
		}
	}
	return named
}

// nameSet is a set of path component names, exact or path.Match globs.
type nameSet struct {
	exact    map[string]bool
	suffixes []string // from "*.ext" globs
	prefixes []string // from "name-*" globs
	globs    []string // any other glob
	paths    []string // names of more than one component (vendor/bundle)
}

func newNameSet(names []string) *nameSet {
	ns := &nameSet{exact: make(map[string]bool, len(names))}
	for _, n := range names {
		ns.exact[n] = true // a glob in a path (rm -rf *.egg-info) matches itself
		if strings.Contains(n, "/") {
			ns.paths = append(ns.paths, strings.Trim(n, "/"))
			continue
		}
		if !strings.ContainsAny(n, "*?[") {
			continue
		}
		switch rest := n[1:]; {
		case n[0] == '*' && !strings.ContainsAny(rest, "*?["):
			ns.suffixes = append(ns.suffixes, rest)
		case strings.HasSuffix(n, "*") && !strings.ContainsAny(n[:len(n)-1], "*?["):
			ns.prefixes = append(ns.prefixes, n[:len(n)-1])
		default:
			ns.globs = append(ns.globs, n)
		}
	}
	return ns
}

func (ns *nameSet) match(part string) bool {
	if ns.exact[part] {
		return true
	}
	if i := strings.LastIndexByte(part, '['); i >= 0 && strings.HasSuffix(part, "]") && len(part) > i+2 && len(part)-i <= 10 &&
		!strings.ContainsAny(part[i+1:len(part)-1], "*?[]!^-\\") {
		// *.py[co]: every name the class stands for is in the set.
		for _, c := range part[i+1 : len(part)-1] {
			if !ns.match(part[:i] + string(c)) {
				return false
			}
		}
		return true
	}
	for _, s := range ns.suffixes {
		if strings.HasSuffix(part, s) {
			return true
		}
	}
	for _, p := range ns.prefixes {
		if strings.HasPrefix(part, p) {
			return true
		}
	}
	for _, g := range ns.globs {
		if ok, _ := path.Match(g, part); ok {
			return true
		}
	}
	return false
}

// contains reports whether some component of rel (a path inside a workspace
// root) is in the set: rel is, or lies in, something the workspace can
// regenerate.
func (ns *nameSet) contains(rel string) bool {
	if ns == nil || len(ns.exact) == 0 {
		return false
	}
	for _, p := range ns.paths {
		if strings.Contains("/"+rel+"/", "/"+p+"/") {
			return true
		}
	}
	for rel != "" {
		part, rest, _ := strings.Cut(rel, "/")
		if ns.match(part) {
			return true
		}
		rel = rest
	}
	return false
}

// inWorkspace reports whether dir is a workspace root or inside one.
func inWorkspace(dir string, ctx Context) bool {
	if dir == "" {
		return false
	}
	for _, root := range ctx.WorkspaceRoots {
		if dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, "/")+"/") {
			return true
		}
	}
	return false
}

// ancestorOfWorkspace reports a directory strictly above a workspace root.
func ancestorOfWorkspace(abs string, ctx Context) bool {
	if abs == "" {
		return false
	}
	for _, root := range ctx.WorkspaceRoots {
		root = path.Clean(root)
		if root != abs && (abs == "/" || strings.HasPrefix(root, abs+"/")) {
			return true
		}
	}
	return false
}

// networkPrograms can carry a variable's value off the machine.
var networkPrograms = map[string]bool{"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "http": true,
	"https": true, "xh": true, "scp": true, "rsync": true, "ssh": true, "sftp": true, "ftp": true, "telnet": true, "openssl": true,
	"python": true, "python3": true, "node": true, "perl": true, "ruby": true, "php": true, "deno": true, "bun": true, "dig": true,
	"nslookup": true, "host": true, "ping": true, "mail": true, "sendmail": true, "gh": true, "aws": true, "gsutil": true,
	// and print the whole environment, with what was loaded into it
	"env": true, "printenv": true, "set": true, "declare": true, "typeset": true, "compgen": true}

// sendsNothing reports a line none of whose commands can send data off the
// machine or print the environment by itself (it may still run project
// code: go test ./...).
func sendsNothing(cmds []shell.Command) bool {
	for i := range cmds {
		if networkPrograms[cmds[i].Name] || cmds[i].DynamicName {
			return false
		}
	}
	return true
}

// exampleCopy returns the file a cp makes from an example, sample or
// template file (cp .env.example .env), as an absolute path; "" for any
// other command, or one that may leave the old file in place (-n, -u).
func exampleCopy(c *shell.Command) string {
	if c.Name != "cp" || c.DynamicName {
		return ""
	}
	var ops []string
	for i, a := range c.Args {
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return ""
		}
		if strings.HasPrefix(a, "-") {
			if strings.ContainsAny(strings.TrimLeft(a, "-"), "nut") && !strings.HasPrefix(a, "--") || a == "--no-clobber" ||
				strings.HasPrefix(a, "--update") || strings.HasPrefix(a, "--target-directory") {
				return ""
			}
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) != 2 {
		return ""
	}
	base := strings.ToLower(path.Base(ops[0]))
	for _, w := range []string{"example", "sample", "template", ".dist", "defaults"} {
		if strings.Contains(base, w) {
			return path.Join(c.Cwd, ops[1])
		}
	}
	return ""
}
