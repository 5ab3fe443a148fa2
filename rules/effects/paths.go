package effects

import (
	"path"
	"strings"
	"sync"
)

// Sensitive path classes the effects add to the rules' classes (root, home,
// home_sub, system, workspace, inside, build, source, outside, temp, dynamic).
const (
	ClassSecret      = "secret"           // credentials, keys, tokens, .env files
	ClassGuard       = "guard"            // the guard's and the agent's own configuration
	ClassVCS         = "vcs"              // version-control data that holds history, config or hooks
	ClassVCSOther    = "vcs_other"        // other files inside .git (locks, messages)
	ClassPersistence = "persistence"      // what runs later by itself: shell start-up, cron, services, …
	ClassDotfile     = "dotfile"          // a dotfile or dot-folder directly in the home directory
	ClassCache       = "cache"            // a cache a tool rebuilds on its own (~/.cache, DerivedData)
	ClassAgent       = "agent"            // the agent's instructions and rules (not its permissions)
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
}

// sensitiveClasses returns the sensitive classes of a path: its absolute
// form and its form with the home directory as ~ (or "").
func sensitiveClasses(abs, tilde string) []string {
	pathsOnce.Do(compilePaths)
	ac := strings.Split(abs, "/")
	var tc []string
	if tilde != "" {
		tc = strings.Split(tilde, "/")
	}
	var out []string
	for i := range compiledPaths {
		cp := &compiledPaths[i]
		if cp.m.match(abs, ac, tilde, tc) && !cp.except.match(abs, ac, tilde, tc) {
			out = append(out, cp.class)
		}
	}
	return out
}

var (
	pathsOnce     sync.Once
	compiledPaths []compiledClass
)

type compiledClass struct {
	class     string
	m, except pathMatcher
}

func compilePaths() {
	compiledPaths = nil
	for _, pc := range pathTable() {
		cc := compiledClass{class: pc.Class, m: newPathMatcher(pc.Patterns), except: newPathMatcher(pc.Except)}
		// A glob could be a disguise of a credential or start-up file; for
		// the agent's notes and caches it is just a glob.
		cc.m.globAware = pc.Class != ClassAgent && pc.Class != ClassCache
		compiledPaths = append(compiledPaths, cc)
	}
}

// pathMatcher holds a list of patterns sorted by how they can be checked fast.
type pathMatcher struct {
	names     map[string]bool // exact base names
	dirNames  map[string]bool // exact folder names (any component)
	nameGlobs []string
	dirGlobs  []string
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
				m.dirGlobs = append(m.dirGlobs, body)
			case dir:
				m.dirNames[body] = true
			case glob:
				m.nameGlobs = append(m.nameGlobs, body)
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
		if globMatch(g, last) {
			return true
		}
	}
	for i, c := range comps {
		if m.dirNames[c] {
			return true
		}
		for _, g := range m.dirGlobs {
			if globMatch(g, c) {
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

// matchGlobPath matches a path written with globs (/e??/sh*w, ~/.ss?/*):
// a glob component matches a pattern component it could expand to.
func (m *pathMatcher) matchGlobPath(comps []string) bool {
	disguise := false
	for _, c := range comps {
		if strings.ContainsAny(c, globChars) && literalChars(c) >= 2 {
			disguise = true
			break
		}
	}
	if !disguise {
		return false // only bare wildcards (*, ?): nothing could be disguised
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

// NameClasses returns the sensitive classes of files named by find -name
// patterns (find ~ -name .env -exec cat {} \;: what {} stands for).
func NameClasses(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, sensitiveClasses("/_/"+n, "")...)
	}
	return out
}

// globMatch is path.Match with fast paths for the common shapes *.ext,
// prefix* and *word*.
func globMatch(pat, s string) bool {
	if i := strings.IndexAny(pat, globChars); i >= 0 {
		rest := pat[i+1:]
		if pat[i] == '*' && !strings.ContainsAny(rest, globChars) {
			return len(s) >= i+len(rest) && strings.HasPrefix(s, pat[:i]) && strings.HasSuffix(s, rest)
		}
	}
	ok, _ := path.Match(pat, s)
	return ok
}
