package effects

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
)

// Sensitive path classes the effects add to the rules' classes (root, home,
// home_sub, system, workspace, inside, build, source, outside, temp, dynamic).
const (
	ClassSecret      = "secret"           // credentials, keys, tokens, .env files
	ClassEnvFile     = "env_file"         // .env files (also secret)
	ClassMaybeSecret = "maybe_secret"     // config that often holds a credential, or a name that says so
	ClassGuard       = "guard"            // the guard's and the agent's own configuration
	ClassVCS         = "vcs"              // version-control data that holds history, config or hooks
	ClassVCSOther    = "vcs_other"        // other files inside .git (locks, messages)
	ClassPersistence = "persistence"      // what runs later by itself: shell start-up, cron, services, …
	ClassDotfile     = "dotfile"          // a dotfile or dot-folder directly in the home directory
	ClassCache       = "cache"            // a cache a tool rebuilds on its own (~/.cache, DerivedData)
	ClassAgent       = "agent"            // the agent's instructions and rules (not its permissions)
	ClassCI          = "ci"               // CI pipeline definitions: they run with the repository's secrets
	ClassHooks       = "hooks"            // a project's git hook scripts (.husky/, .githooks/): they run on later commits
	ClassData        = "data"             // local database files: data that is usually in no version control
	ClassMatches     = "matches"          // what find names by a name glob (-name '*.ts'): every file of a kind
	ClassEveryFile   = "every_file"       // what find names with no test but its type from a workspace root: every file, .git's too
	ClassRoot        = "workspace_root"   // a workspace root itself (or everything in it)
	ClassAncestor    = "workspace_parent" // a folder that contains a workspace root
)

// PathClasses is the table of sensitive paths (paths.yaml). Patterns are
// matched against the path with the home directory written as ~ and against
// the absolute path; a pattern ending in / matches the folder and what is in
// it; * matches within one component; a pattern with no / matches the base
// name anywhere.
type PathClasses struct {
	Class    string   `yaml:"class"`
	Patterns []string `yaml:"patterns"`
	// Except are look-alikes that are not in the class (id_rsa.pub, .env.example).
	Except []string `yaml:"except,omitempty"`
	// Words and Extensions add every base name that contains one of the
	// words and ends with one of the extensions ("" for none).
	Words      []string `yaml:"words,omitempty"`
	Extensions []string `yaml:"extensions,omitempty"`
	// Examples are paths in and out of the class (checked by the tests).
	Examples PathExamples `yaml:"examples,omitempty"`
}

// PathExamples are the examples of a path class.
type PathExamples struct {
	Match   []string `yaml:"match,omitempty"`
	NoMatch []string `yaml:"no_match,omitempty"`
}

// sensitiveClasses returns the sensitive classes of a path: its absolute
// form and its form with the home directory as ~ (or "").
func sensitiveClasses(abs, tilde string) []string {
	key := abs + "\x00" + tilde
	classCache.mu.Lock()
	if out, ok := classCache.m[key]; ok {
		classCache.mu.Unlock()
		return slices.Clone(out)
	}
	classCache.mu.Unlock()
	out := classesOf(abs, tilde, nil)
	classCache.mu.Lock()
	if classCache.m == nil || len(classCache.m) >= classCacheSize {
		classCache.m = make(map[string][]string, 64)
	}
	classCache.m[key] = out
	classCache.mu.Unlock()
	return slices.Clone(out)
}

// classesOf is sensitiveClasses limited to the classes only allows (all
// when nil).
func classesOf(abs, tilde string, only map[string]bool) []string {
	pathsOnce.Do(compilePaths)
	ac := strings.Split(abs, "/")
	inferred := false
	if tilde == "" {
		tilde, inferred = otherHome(abs), true
	}
	var tc []string
	if tilde != "" {
		tc = strings.Split(tilde, "/")
	}
	var out []string
	for i := range compiledPaths {
		cp := &compiledPaths[i]
		if only != nil && !only[cp.class] {
			continue
		}
		if inferred && cp.class == ClassCache && !cp.m.match(abs, ac, "", nil) {
			continue // another user's cache is not ours to clean
		}
		if (cp.m.match(abs, ac, tilde, tc) || cp.nameLike(ac[len(ac)-1])) && !cp.except.match(abs, ac, tilde, tc) {
			out = append(out, cp.class)
			if cp.class == ClassEnvFile {
				out = append(out, ClassSecret)
			}
		}
	}
	if last := tilde[strings.LastIndexByte(tilde, '/')+1:]; tilde != "" && strings.ContainsAny(tilde, globChars) &&
		literalChars(last) >= 2 && !everyFileWithExtension(last) {
		// ~/.config/*/hosts.yml: a glob that names one of the table's own
		// example files (~/.config/gh/hosts.yml) is in that file's class
		// (its last part named, not every file or every *.csv of a folder).
		for _, pc := range pathTable() {
			if (only != nil && !only[pc.Class]) || slices.Contains(out, pc.Class) || pc.Class == ClassCache || pc.Class == ClassData {
				continue
			}
			for _, ex := range pc.Examples.Match {
				if ok, _ := path.Match(tilde, ex); ok {
					out = append(out, pc.Class)
					break
				}
			}
		}
	}
	return out
}

// otherHome returns the ~ form of a path inside any user's home directory
// (/home/NAME, /Users/NAME, /root), so that another account's start-up files
// and credentials are classed like ours — the hook may run under a HOME that
// is not the one the agent's paths live in; "" for other paths.
func otherHome(abs string) string {
	if rest, ok := strings.CutPrefix(abs, "/root/"); ok {
		return "~/" + rest
	}
	for _, base := range []string{"/home/", "/Users/"} {
		rest, ok := strings.CutPrefix(abs, base)
		if !ok {
			continue
		}
		if _, tail, ok := strings.Cut(rest, "/"); ok && tail != "" && !strings.HasPrefix(rest, "Shared/") {
			return "~/" + tail
		}
	}
	return ""
}

// nameLike reports a base name with one of the class's words and extensions.
func (cc *compiledClass) nameLike(base string) bool {
	if len(cc.words) == 0 {
		return false
	}
	low := strings.ToLower(base)
	ext := ""
	if i := strings.LastIndexByte(low, '.'); i > 0 {
		ext = low[i:]
	}
	if !cc.exts[ext] {
		return false
	}
	for _, w := range cc.words {
		if strings.Contains(low, w) && !strings.Contains(low, "author") {
			return true
		}
	}
	return false
}

var (
	pathsOnce     sync.Once
	compiledPaths []compiledClass
)

type compiledClass struct {
	class     string
	m, except pathMatcher
	words     []string
	exts      map[string]bool
}

func compilePaths() {
	compiledPaths = nil
	for _, pc := range pathTable() {
		cc := compiledClass{class: pc.Class, m: newPathMatcher(pc.Patterns), except: newPathMatcher(pc.Except), words: pc.Words}
		if len(pc.Words) > 0 {
			cc.exts = map[string]bool{}
			for _, e := range pc.Extensions {
				cc.exts[e] = true
			}
		}
		// A glob could be a disguise of a credential or start-up file; for
		// the agent's notes and caches it is just a glob.
		cc.m.globAware = pc.Class != ClassAgent && pc.Class != ClassCache && pc.Class != ClassCI && pc.Class != ClassHooks && pc.Class != ClassData
		compiledPaths = append(compiledPaths, cc)
	}
}

// pathMatcher holds a list of patterns sorted by how they can be checked fast.
type pathMatcher struct {
	names     map[string]bool // exact base names
	dirNames  map[string]bool // exact folder names (any component)
	nameGlobs []nameGlob
	dirGlobs  []nameGlob
	rel       map[string][]relPattern // relative patterns by their first component
	relGlob   []relPattern
	anchored  []anchoredPattern
	// globAware matches paths written with globs against what they could expand to.
	globAware bool
}

type relPattern struct {
	parts []string
	dir   bool
}

type anchoredPattern struct {
	literal string // the pattern up to its first glob character
	parts   []string
}

const globChars = "*?["

func newPathMatcher(patterns []string) pathMatcher {
	m := pathMatcher{names: map[string]bool{}, dirNames: map[string]bool{}, rel: map[string][]relPattern{}}
	for _, pat := range patterns {
		dir := strings.HasSuffix(pat, "/")
		body := strings.TrimSuffix(pat, "/")
		switch {
		case strings.HasPrefix(body, "/") || strings.HasPrefix(body, "~"):
			lit := body
			if i := strings.IndexAny(body, globChars); i >= 0 {
				lit = body[:i]
			}
			m.anchored = append(m.anchored, anchoredPattern{literal: lit, parts: strings.Split(body, "/")})
		case !strings.Contains(body, "/"):
			glob := strings.ContainsAny(body, globChars)
			switch {
			case dir && glob:
				m.dirGlobs = append(m.dirGlobs, compileGlob(body))
			case dir:
				m.dirNames[body] = true
			case glob:
				m.nameGlobs = append(m.nameGlobs, compileGlob(body))
			default:
				m.names[body] = true
			}
		default:
			rp := relPattern{parts: strings.Split(body, "/"), dir: dir}
			if strings.ContainsAny(rp.parts[0], globChars) {
				m.relGlob = append(m.relGlob, rp)
			} else {
				m.rel[rp.parts[0]] = append(m.rel[rp.parts[0]], rp)
			}
		}
	}
	return m
}

func (m *pathMatcher) match(abs string, ac []string, tilde string, tc []string) bool {
	return m.matchOne(abs, ac) || (tilde != "" && m.matchOne(tilde, tc))
}

func (m *pathMatcher) matchOne(p string, comps []string) bool {
	if p == "" || len(comps) == 0 {
		return false
	}
	last := comps[len(comps)-1]
	if m.names[last] {
		return true
	}
	for _, g := range m.nameGlobs {
		if g.match(last) {
			return true
		}
	}
	for i, c := range comps {
		if m.dirNames[c] {
			return true
		}
		for _, g := range m.dirGlobs {
			if g.match(c) {
				return true
			}
		}
		for _, rp := range m.rel[c] {
			if rp.matchAt(comps, i) {
				return true
			}
		}
		for _, rp := range m.relGlob {
			if rp.matchAt(comps, i) {
				return true
			}
		}
	}
	for _, ap := range m.anchored {
		if strings.HasPrefix(p, ap.literal) && partsPrefix(ap.parts, comps) {
			return true
		}
	}
	if m.globAware && strings.ContainsAny(p, globChars) {
		return m.matchGlobPath(comps)
	}
	return false
}

// everyFileOf matches a literal folder followed by a bare * (.cursor/*,
// ~/.ssh/*) against the patterns of two or more components that could
// name a file in it; bare names (hooks.json) are not tried, or src/* would
// match every protected name.
func (m *pathMatcher) everyFileOf(comps []string) bool {
	n := len(comps)
	if n < 2 || comps[n-1] != "*" || strings.ContainsAny(strings.Join(comps[:n-1], "/"), globChars) {
		return false
	}
	// parts match comps[at:], the trailing * standing for any last part.
	matches := func(parts []string, at int, dir bool) bool {
		if at+len(parts) < n || at+len(parts) > n && !dir {
			return false
		}
		for k, part := range parts {
			switch c := at + k; {
			case c == n-1:
				return true // the * names this part (or a folder above the rest)
			case c >= n || !globEq(part, comps[c]):
				return false
			}
		}
		return false
	}
	for i := range comps[:n-1] {
		for _, rps := range m.rel {
			for _, rp := range rps {
				if matches(rp.parts, i, rp.dir) {
					return true
				}
			}
		}
	}
	for _, ap := range m.anchored {
		if matches(ap.parts, 0, true) {
			return true
		}
	}
	return false
}

// everyFileWithExtension reports a glob that stands for every file of one
// extension (*.json): it names no file in disguise. An extension that is
// itself secret (*.tfstate) is matched by the name patterns.
func everyFileWithExtension(c string) bool {
	ext, ok := strings.CutPrefix(c, "*.")
	if !ok || ext == "" {
		return false
	}
	for _, r := range ext {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// matchGlobPath matches a path written with globs (/e??/sh*w, ~/.ss?/*):
// a glob component matches a pattern component it could expand to.
func (m *pathMatcher) matchGlobPath(comps []string) bool {
	disguise := false
	for _, c := range comps {
		if strings.ContainsAny(c, globChars) && literalChars(c) >= 2 && !everyFileWithExtension(c) {
			disguise = true
			break
		}
	}
	if !disguise {
		// Only bare wildcards (*, ?): nothing could be disguised, but every
		// file of a named folder (.cursor/*) holds what the folder holds.
		return m.everyFileOf(comps)
	}
	last := comps[len(comps)-1]
	for name := range m.names {
		if globEq(name, last) {
			return true
		}
	}
	for i, c := range comps {
		for name := range m.dirNames {
			if globEq(name, c) {
				return true
			}
		}
		for _, rps := range m.rel {
			for _, rp := range rps {
				if rp.matchAtGlob(comps, i) {
					return true
				}
			}
		}
	}
	for _, ap := range m.anchored {
		if len(comps) >= len(ap.parts) {
			ok := true
			for k, part := range ap.parts {
				if !globEq(part, comps[k]) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

func (rp relPattern) matchAtGlob(comps []string, i int) bool {
	if i+len(rp.parts) > len(comps) || (!rp.dir && i+len(rp.parts) != len(comps)) {
		return false
	}
	for k, part := range rp.parts {
		if !globEq(part, comps[i+k]) {
			return false
		}
	}
	return true
}

// globEq reports whether a pattern component and a path component (either of
// them may hold globs) can name the same thing.
func globEq(pat, comp string) bool {
	if ok, _ := path.Match(pat, comp); ok {
		return true
	}
	if literalChars(comp) < 2 {
		return false // *, ?* and the like could be anything: not a disguise
	}
	if strings.HasPrefix(pat, ".") && !strings.HasPrefix(comp, ".") {
		return false // the shell's * and ? do not match a leading dot (dist/*.js is not .mongorc.js)
	}
	ok, _ := path.Match(comp, pat)
	return ok
}

func literalChars(s string) int {
	n := 0
	inClass := false
	for _, r := range s {
		switch {
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case r == '*' || r == '?' || inClass:
		default:
			n++
		}
	}
	return n
}

// matchAt matches a relative pattern at component i: a folder pattern also
// covers what lies below it, a file pattern must end the path.
func (rp relPattern) matchAt(comps []string, i int) bool {
	if i+len(rp.parts) > len(comps) || (!rp.dir && i+len(rp.parts) != len(comps)) {
		return false
	}
	for k, part := range rp.parts {
		if ok, _ := path.Match(part, comps[i+k]); !ok {
			return false
		}
	}
	return true
}

// partsPrefix reports whether the pattern parts match the first components.
func partsPrefix(parts, comps []string) bool {
	if len(comps) < len(parts) {
		return false
	}
	for k, part := range parts {
		if ok, _ := path.Match(part, comps[k]); !ok {
			return false
		}
	}
	return true
}

// matchPathPattern matches one paths.yaml pattern against a path (tests and
// one-off checks; sensitiveClasses uses the compiled form).
func matchPathPattern(pat, p string) bool {
	m := newPathMatcher([]string{pat})
	m.globAware = true
	return m.matchOne(p, strings.Split(p, "/"))
}

// classCache remembers sensitiveClasses' answers: a command line names the
// same paths to many rules and to the effects analysis, and a resident
// evaluator sees them again. The answers depend only on the paths and the
// embedded tables.
var classCache struct {
	mu sync.Mutex
	m  map[string][]string
}

// ResetPathClassCache forgets the remembered path classes, so that a
// benchmark can measure an event as a fresh hook process sees it.
func ResetPathClassCache() {
	classCache.mu.Lock()
	classCache.m = nil
	classCache.mu.Unlock()
}

// classCacheSize bounds classCache; it starts over when full.
const classCacheSize = 4096

// PathClassesOf returns the sensitive classes (secret, env_file,
// maybe_secret, guard, agent, vcs, persistence, cache, …) of a path as an
// event names it, after normalization: \ separators, percent-encoding,
// $HOME and ${HOME}, ~ and ~user, . and .. and doubled slashes. Paths under
// /Users/ and Windows drive paths are on case-insensitive file systems and
// are also matched in lower case. A relative path is taken from cwd.
func PathClassesOf(p, cwd, home string) []string {
	if strings.HasPrefix(p, "${") {
		if m := defaultedPathRe().FindStringSubmatch(p); m != nil {
			// ${XDG_CONFIG_HOME:-$HOME/.config}/gh/hosts.yml: when the
			// variable is unset, the default is the path; what it names
			// counts.
			def := strings.Replace(strings.Replace(m[1], "${HOME}", "~", 1), "$HOME", "~", 1)
			if !strings.ContainsAny(def+m[2], "$`") {
				return PathClassesOf(def+m[2], cwd, home)
			}
		}
	}
	abs, tilde := normalizedForms(p, cwd, home)
	if abs == "" {
		return nil
	}
	out := sensitiveClasses(abs, tilde)
	if low := strings.ToLower(abs); low != abs {
		// On a case-insensitive file system every class holds in any case;
		// elsewhere the files that run or guard (.Git/hooks, .CURSOR/hooks.json)
		// are still protected in any spelling.
		all := caseInsensitive(abs)
		for _, c := range sensitiveClasses(low, strings.ToLower(tilde)) {
			if !slices.Contains(out, c) && (all || c == ClassGuard || c == ClassVCS || c == ClassPersistence || c == ClassAgent) {
				out = append(out, c)
			}
		}
	}
	return out
}

// normalizedForms returns p normalized (NormalizePath) and its ~ form when
// it lies under home ("" for either when there is none).
func normalizedForms(p, cwd, home string) (abs, tilde string) {
	abs = NormalizePath(p, cwd, home)
	if abs != "" && home != "" && home != "/" && (abs == home || strings.HasPrefix(abs, home+"/")) {
		tilde = "~" + abs[len(home):]
	}
	return abs, tilde
}

// IsSecretPath reports whether the credential table classes p (normalized
// as PathClassesOf does) as a secret: PathClassesOf's answer for that one
// class, at a fraction of its cost.
func IsSecretPath(p, cwd, home string) bool {
	abs, tilde := normalizedForms(p, cwd, home)
	if abs == "" {
		return false
	}
	only := map[string]bool{ClassSecret: true, ClassEnvFile: true}
	if len(classesOf(abs, tilde, only)) > 0 {
		return true
	}
	if low := strings.ToLower(abs); low != abs && caseInsensitive(abs) {
		return len(classesOf(low, strings.ToLower(tilde), only)) > 0
	}
	return false
}

// NormalizePath makes an absolute, clean path of p as an event names it
// (see PathClassesOf); "" when it cannot.
func NormalizePath(p, cwd, home string) string {
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "file://") {
		p = strings.TrimPrefix(p, "file://")
		if i := strings.IndexByte(p, '/'); i > 0 {
			p = p[i:] // file://localhost/etc/passwd
		}
	}
	if strings.Contains(p, "%") {
		if dec, err := url.PathUnescape(p); err == nil {
			p = dec
		}
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if len(p) >= 3 && p[1] == ':' && p[2] == '/' {
		p = "/" + strings.ToLower(p[:1]) + p[2:] // C:/Users/x → /c/Users/x
	}
	if home != "" {
		for _, v := range []string{"${HOME}", "$HOME", "%USERPROFILE%", "$env:USERPROFILE"} {
			if strings.HasPrefix(p, v) {
				p = home + p[len(v):]
			}
		}
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		p = home + p[1:]
	case strings.HasPrefix(p, "~"):
		// ~user: that user's home, by the usual layout.
		user, rest, _ := strings.Cut(p[1:], "/")
		base := "/home/"
		if strings.HasPrefix(home, "/Users/") {
			base = "/Users/"
		}
		if user == "root" {
			base = "/"
		}
		p = base + user + "/" + rest
	case !strings.HasPrefix(p, "/"):
		if cwd == "" {
			return ""
		}
		p = cwd + "/" + p
	}
	return path.Clean(p)
}

// caseInsensitive reports paths on file systems that ignore case by default
// (macOS home folders and volumes, Windows drives).
func caseInsensitive(abs string) bool {
	return strings.HasPrefix(abs, "/Users/") || strings.HasPrefix(abs, "/Volumes/") || strings.HasPrefix(abs, "/Library/") ||
		len(abs) >= 3 && abs[0] == '/' && abs[2] == '/' && abs[1] >= 'a' && abs[1] <= 'z'
}

// NameClasses returns the sensitive classes of files named by find -name
// patterns (find ~ -name .env -exec cat {} \;: what {} stands for).
func NameClasses(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, sensitiveClasses("/_/"+n, "")...)
		if !strings.ContainsAny(n, globChars) {
			continue
		}
		// A glob (-name '*.env*', -name 'id_*'): the classes of the
		// credential files it can name, when its own letters point at them
		// (*.json names credentials.json too, but says nothing of secrets).
		lit := strings.ToLower(strings.Map(func(r rune) rune {
			if strings.ContainsRune(globChars, r) {
				return -1
			}
			return r
		}, n))
		for _, s := range secretSampleNames {
			if strings.Contains(lit, s.hint) && globMatch(n, s.name) {
				out = append(out, sensitiveClasses("/_/"+s.name, "")...)
			}
		}
	}
	return out
}

// secretSampleNames are names of credential files a find -name glob may
// name, each with the letters a glob must hold to count as aiming at it.
var secretSampleNames = []struct{ name, hint string }{
	{".env", "env"}, {".env.local", "env"}, {".env.production", "env"}, {"id_rsa", "id_"}, {"id_ed25519", "id_"},
	{"server.pem", "pem"}, {"server.key", "key"}, {"credentials", "cred"}, {"credentials.json", "cred"},
	{".npmrc", "npmrc"}, {".pypirc", "pypirc"}, {".netrc", "netrc"}, {".pgpass", "pgpass"},
	{".git-credentials", "cred"}, {"terraform.tfstate", "tfstate"}, {"secrets.yaml", "secret"}, {"secrets.json", "secret"},
	{"id_rsa.ppk", "ppk"}, {"keystore.jks", "jks"}, {"cert.p12", "p12"}, {"cert.pfx", "pfx"},
}

// globMatch is path.Match with a fast path for a single * (*.ext,
// prefix*).
func globMatch(pat, s string) bool {
	return compileGlob(pat).match(s)
}

// nameGlob is a glob over one path component, split once where it is a
// literal start and end around a single * (id_*, *.pem): those match with
// two string comparisons on every path the hook classifies.
type nameGlob struct {
	pat, prefix, suffix string
	simple              bool
}

func compileGlob(pat string) nameGlob {
	g := nameGlob{pat: pat}
	if i := strings.IndexAny(pat, globChars); i >= 0 {
		rest := pat[i+1:]
		if pat[i] == '*' && !strings.ContainsAny(rest, globChars) {
			g.prefix, g.suffix, g.simple = pat[:i], rest, true
		}
	}
	return g
}

func (g nameGlob) match(s string) bool {
	if g.simple {
		return len(s) >= len(g.prefix)+len(g.suffix) && strings.HasPrefix(s, g.prefix) && strings.HasSuffix(s, g.suffix)
	}
	ok, _ := path.Match(g.pat, s)
	return ok
}
