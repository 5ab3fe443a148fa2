package effects

import (
	"path"
	"strings"
)

// Sensitive path classes the effects add to the rules' classes (root, home,
// home_sub, system, workspace, inside, build, source, outside, temp, dynamic).
const (
	ClassSecret      = "secret"      // credentials, keys, tokens, .env files
	ClassGuard       = "guard"       // the guard's and the agent's own configuration
	ClassVCS         = "vcs"         // version-control data that holds history, config or hooks
	ClassVCSOther    = "vcs_other"   // other files inside .git (locks, messages)
	ClassPersistence = "persistence" // what runs later by itself: shell start-up, cron, services, …
	ClassDotfile     = "dotfile"     // a dotfile or dot-folder directly in the home directory
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

// sensitiveClasses returns the sensitive classes of p: an absolute path, its
// form with the home directory as ~ (or ""), and whether it lies in a workspace.
func sensitiveClasses(abs, tilde string) []string {
	var out []string
	for _, pc := range pathTable() {
		if matchAny(pc.Patterns, abs, tilde) && !matchAny(pc.Except, abs, tilde) {
			out = append(out, pc.Class)
		}
	}
	return out
}

func matchAny(patterns []string, abs, tilde string) bool {
	for _, p := range patterns {
		if matchPathPattern(p, abs) || (tilde != "" && matchPathPattern(p, tilde)) {
			return true
		}
	}
	return false
}

// matchPathPattern matches one paths.yaml pattern (see PathClasses).
func matchPathPattern(pat, p string) bool {
	if p == "" {
		return false
	}
	if !strings.Contains(strings.TrimSuffix(pat, "/"), "/") {
		// A base-name pattern: any component (a folder pattern) or the base.
		dir := strings.HasSuffix(pat, "/")
		name := strings.TrimSuffix(pat, "/")
		parts := strings.Split(p, "/")
		for i, part := range parts {
			if ok, _ := path.Match(name, part); ok {
				if dir || i == len(parts)-1 {
					return true
				}
			}
		}
		return false
	}
	anchored := strings.HasPrefix(pat, "/") || strings.HasPrefix(pat, "~")
	starts := []string{p}
	if !anchored {
		// A relative pattern (.git/hooks/) matches from any component on.
		starts = starts[:0]
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && i+1 < len(p) {
				starts = append(starts, p[i+1:])
			}
		}
		if !strings.HasPrefix(p, "/") {
			starts = append(starts, p)
		}
	}
	for _, q := range starts {
		if anchored || strings.HasSuffix(pat, "/") {
			// An anchored pattern also covers what lies below what it names.
			if globPrefix(strings.TrimSuffix(pat, "/"), q) {
				return true
			}
			continue
		}
		if ok, _ := path.Match(pat, q); ok {
			return true
		}
	}
	return false
}

// globPrefix reports whether p is the folder matched by pattern prefix or lies in it.
func globPrefix(prefix, p string) bool {
	pp := strings.Split(prefix, "/")
	ps := strings.Split(p, "/")
	if len(ps) < len(pp) {
		return false
	}
	for i := range pp {
		if ok, _ := path.Match(pp[i], ps[i]); !ok {
			return false
		}
	}
	return true
}
