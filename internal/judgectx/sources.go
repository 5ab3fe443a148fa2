package judgectx

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookguard/hookguard/rules/shell"
)

// Source is something a command runs whose text a reviewer would read: a
// workspace script, a package.json script, a make/just/task recipe.
type Source struct {
	// Kind says what it is: "script", "package.json script", "make recipe",
	// "just recipe" or "task".
	Kind string `json:"kind"`
	// Name is the script's or recipe's name ("build", "scripts/migrate.sh").
	Name string `json:"name"`
	// File is the file it was read from and Line the line its text starts on.
	File string `json:"file"`
	Line int    `json:"line"`
	// Body is its text (at most MaxBody bytes), Hash the SHA-256 of all of it.
	Body string `json:"body"`
	Hash string `json:"hash"`
	// Shell reports that Body is shell code (recipes, npm scripts, .sh files).
	Shell bool `json:"shell"`
}

// Limits on what is resolved.
const (
	MaxSources = 6
	MaxBody    = 16 << 10
	maxFile    = 1 << 20
	maxChain   = 4
)

var interpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true, "deno": true,
	"tsx": true, "ts-node": true, "pwsh": true, "Rscript": true, "lua": true}

var shellInterpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

// lifecycle are the npm commands that run the package.json script of the same name.
var lifecycle = map[string]bool{"test": true, "start": true, "stop": true, "restart": true, "t": true, "tst": true}

// Resolve finds what the command line runs inside the workspace roots, from
// cwd. Files outside every root are not read.
func Resolve(line, cwd string, roots []string) []Source {
	return ResolveSplit(shell.Split(line, shell.Options{}), cwd, roots)
}

// ResolveSplit is Resolve for a line already split (the rule pass's own
// reading of it, see rules.Outcome.Split), so it is not parsed again.
func ResolveSplit(res *shell.Result, cwd string, roots []string) []Source {
	r := &resolver{roots: roots, seen: map[string]bool{}}
	for _, c := range res.Commands {
		if len(r.out) >= MaxSources {
			break
		}
		dir := c.Cwd
		if dir == "" {
			dir = cwd
		}
		r.command(c, dir)
	}
	return r.out
}

type resolver struct {
	roots []string
	seen  map[string]bool
	out   []Source
}

func (r *resolver) add(s Source) {
	key := s.Kind + "\x00" + s.File + "\x00" + s.Name
	if r.seen[key] || len(r.out) >= MaxSources {
		return
	}
	r.seen[key] = true
	sum := sha256.Sum256([]byte(s.Body))
	s.Hash = hex.EncodeToString(sum[:])
	if len(s.Body) > MaxBody {
		s.Body = s.Body[:MaxBody] + "\n[… cut by hookguard]"
	}
	r.out = append(r.out, s)
}

func (r *resolver) command(c shell.Command, dir string) {
	args := c.Args
	switch {
	case strings.Contains(c.Program, "/"):
		r.script(c.Program, dir)
	case interpreters[c.Name]:
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				if a == "-c" || a == "-e" || a == "-m" || a == "--eval" {
					return // inline code: the rules split it already
				}
				continue
			}
			if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
				return
			}
			r.script(a, dir)
			return
		}
	case c.Name == "npm" || c.Name == "pnpm" || c.Name == "yarn" || c.Name == "bun":
		r.packageScript(c.Name, args, dir, 0)
	case c.Name == "make" || c.Name == "gmake":
		r.makeRecipe(args, dir)
	case c.Name == "just":
		r.justRecipe(args, dir)
	case c.Name == "task":
		r.task(args, dir)
	}
}

// inside returns the absolute form of p when it lies in a workspace root.
func (r *resolver) inside(p, dir string) (string, bool) {
	if !filepath.IsAbs(p) {
		if dir == "" {
			return "", false
		}
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	for _, root := range r.roots {
		root = filepath.Clean(root)
		if strings.HasPrefix(p, root+string(filepath.Separator)) {
			// A link out of the workspace is not followed.
			if real, err := filepath.EvalSymlinks(p); err == nil {
				if realRoot, err := filepath.EvalSymlinks(root); err == nil && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
					return "", false
				}
			}
			return p, true
		}
	}
	return "", false
}

// readText reads a regular text file of bounded size.
func readText(p string) (string, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxFile {
		return "", false
	}
	b, err := os.ReadFile(p)
	if err != nil || !utf8.Valid(b[:min(len(b), 4096)]) || strings.ContainsRune(string(b[:min(len(b), 4096)]), 0) {
		return "", false
	}
	return string(b), true
}

func (r *resolver) script(p, dir string) {
	abs, ok := r.inside(p, dir)
	if !ok {
		return
	}
	body, ok := readText(abs)
	if !ok {
		return
	}
	isShell := strings.HasSuffix(abs, ".sh") || strings.HasSuffix(abs, ".bash") || strings.HasSuffix(abs, ".zsh")
	if first, _, _ := strings.Cut(body, "\n"); strings.HasPrefix(first, "#!") {
		for sh := range shellInterpreters {
			if strings.HasSuffix(strings.Fields(first + " x")[0], "/"+sh) || strings.Contains(first, "env "+sh) {
				isShell = true
			}
		}
	}
	r.add(Source{Kind: "script", Name: p, File: abs, Line: 1, Body: body, Shell: isShell})
}

// packageScript resolves npm run NAME (and pnpm, yarn, bun), with the pre
// and post scripts and the scripts NAME runs in turn.
func (r *resolver) packageScript(tool string, args []string, dir string, depth int) {
	var name string
	rest := args
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	switch sub := rest[0]; {
	case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		if len(rest) < 2 {
			return
		}
		name = rest[1]
	case lifecycle[sub] && (tool == "npm" || tool == "pnpm" || tool == "yarn" || tool == "bun"):
		name = map[string]string{"t": "test", "tst": "test"}[sub]
		if name == "" {
			name = sub
		}
	case tool != "npm" && tool != "bun" && !builtinSubcommand[sub]:
		name = sub // pnpm NAME, yarn NAME
	default:
		return
	}
	pkgPath, scripts := findPackageJSON(dir, r)
	if scripts == nil {
		return
	}
	r.packageChain(pkgPath, scripts, name, depth)
}

var builtinSubcommand = map[string]bool{"install": true, "i": true, "add": true, "remove": true, "rm": true, "uninstall": true,
	"update": true, "up": true, "upgrade": true, "exec": true, "dlx": true, "x": true, "create": true, "init": true, "publish": true,
	"link": true, "unlink": true, "list": true, "ls": true, "why": true, "info": true, "view": true, "outdated": true, "audit": true,
	"config": true, "cache": true, "store": true, "version": true, "pack": true, "login": true, "logout": true, "workspace": true,
	"workspaces": true, "import": true, "dedupe": true, "prune": true, "rebuild": true, "patch": true, "set": true, "plugin": true}

func (r *resolver) packageChain(pkgPath string, scripts map[string]string, name string, depth int) {
	if depth > maxChain {
		return
	}
	for _, n := range []string{"pre" + name, name, "post" + name} {
		body, ok := scripts[n]
		if !ok {
			continue
		}
		r.add(Source{Kind: "package.json script", Name: n, File: pkgPath, Body: body, Shell: true})
		// Scripts that run other scripts: npm run x, pnpm x, yarn x.
		for _, c := range shell.Split(body, shell.Options{}).Commands {
			if (c.Name == "npm" || c.Name == "pnpm" || c.Name == "yarn" || c.Name == "bun") && len(c.Args) > 0 {
				next := c.Args[0]
				if (next == "run" || next == "run-script") && len(c.Args) > 1 {
					next = c.Args[1]
				}
				if _, ok := scripts[next]; ok && next != n {
					r.packageChain(pkgPath, scripts, next, depth+1)
				}
			}
		}
	}
}

// findPackageJSON reads the scripts of the package.json nearest to dir
// inside the workspace.
func findPackageJSON(dir string, r *resolver) (string, map[string]string) {
	for d := dir; d != "" && d != "/" && d != "."; d = filepath.Dir(d) {
		p, ok := r.inside(filepath.Join(d, "package.json"), "")
		if !ok {
			return "", nil
		}
		body, ok := readText(p)
		if !ok {
			continue
		}
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(body), &pkg) != nil {
			return "", nil
		}
		return p, pkg.Scripts
	}
	return "", nil
}

func (r *resolver) makeRecipe(args []string, dir string) {
	file := ""
	var targets []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" && i+1 < len(args):
			dir = filepath.Join(dir, args[i+1])
			i++
		case a == "-f" && i+1 < len(args):
			file = args[i+1]
			i++
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			targets = append(targets, a)
		}
	}
	names := []string{file}
	if file == "" {
		names = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	for _, n := range names {
		p, ok := r.inside(n, dir)
		if !ok {
			continue
		}
		body, ok := readText(p)
		if !ok {
			continue
		}
		recipes := makeRecipes(body)
		if len(targets) == 0 && len(recipes.order) > 0 {
			targets = recipes.order[:1]
		}
		for _, t := range targets {
			if rc, ok := recipes.byName[t]; ok {
				r.add(Source{Kind: "make recipe", Name: t, File: p, Line: rc.line, Body: rc.body, Shell: true})
			}
		}
		return
	}
}

type recipe struct {
	line int
	body string
}

type recipeSet struct {
	byName map[string]recipe
	order  []string
}

var makeTarget = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z0-9_./%-][A-Za-z0-9_./% -]*?)\s*::?(?:[^=]|$)`)
})

// makeRecipes reads a Makefile's rules: the target line and the
// tab-indented recipe under it (prerequisites stay on the target line).
func makeRecipes(body string) recipeSet {
	rs := recipeSet{byName: map[string]recipe{}}
	var cur []string
	var curLine int
	var text strings.Builder
	flush := func() {
		for _, t := range cur {
			if _, ok := rs.byName[t]; !ok && !strings.HasPrefix(t, ".") {
				rs.byName[t] = recipe{curLine, text.String()}
				rs.order = append(rs.order, t)
			}
		}
		cur = nil
		text.Reset()
	}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), maxFile)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "\t"):
			if cur != nil {
				text.WriteString(line + "\n")
			}
		case strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#"):
		default:
			flush()
			if m := makeTarget().FindStringSubmatch(line); m != nil {
				cur = strings.Fields(m[1])
				curLine = n
				text.WriteString(line + "\n")
			}
		}
	}
	flush()
	return rs
}

// justRecipe reads a justfile recipe: "name args:" and its indented lines.
func (r *resolver) justRecipe(args []string, dir string) {
	name := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			name = a
			break
		}
	}
	for _, n := range []string{"justfile", "Justfile", ".justfile"} {
		p, ok := r.inside(n, dir)
		if !ok {
			continue
		}
		body, ok := readText(p)
		if !ok {
			continue
		}
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || !strings.Contains(l, ":") || strings.Contains(l, ":=") {
				continue
			}
			head := strings.TrimPrefix(strings.TrimPrefix(l, "@"), "[private] ")
			rname := strings.Fields(strings.SplitN(head, ":", 2)[0] + " x")[0]
			if name != "" && rname != name {
				continue
			}
			var b strings.Builder
			b.WriteString(l + "\n")
			for _, next := range lines[i+1:] {
				if next == "" || (next[0] != ' ' && next[0] != '\t') {
					break
				}
				b.WriteString(next + "\n")
			}
			r.add(Source{Kind: "just recipe", Name: rname, File: p, Line: i + 1, Body: b.String(), Shell: true})
			return
		}
		return
	}
}

// task reads a Taskfile task: its block of the YAML as written.
func (r *resolver) task(args []string, dir string) {
	name := "default"
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			name = a
			break
		}
	}
	for _, n := range []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"} {
		p, ok := r.inside(n, dir)
		if !ok {
			continue
		}
		body, ok := readText(p)
		if !ok {
			continue
		}
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			trimmed := strings.TrimSpace(l)
			if trimmed != name+":" && trimmed != `"`+name+`":` {
				continue
			}
			indent := len(l) - len(strings.TrimLeft(l, " "))
			var b strings.Builder
			b.WriteString(l + "\n")
			for _, next := range lines[i+1:] {
				if strings.TrimSpace(next) != "" && len(next)-len(strings.TrimLeft(next, " ")) <= indent {
					break
				}
				b.WriteString(next + "\n")
			}
			r.add(Source{Kind: "task", Name: name, File: p, Line: i + 1, Body: b.String(), Shell: false})
			return
		}
		return
	}
}
