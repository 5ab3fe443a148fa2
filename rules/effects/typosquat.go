package effects

import (
	_ "embed"
	"strings"
	"sync"
)

// popularPackagesText is the list of widely used packages (see the file).
//
//go:embed popular-packages.txt
var popularPackagesText string

// popularPackages is popular-packages.txt as a set, read on first use.
var popularPackages = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, line := range strings.Split(popularPackagesText, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			set[strings.ToLower(line)] = true
		}
	}
	return set
})

// minSquatLen is the shortest name compared: short names are one edit
// from many others by chance (tsc, tsx, nx, vite).
const minSquatLen = 6

// TyposquatOf returns the well-known package that a package name is one
// edit away from (a letter added, dropped, changed or two swapped), or ""
// when there is none or the name is itself well known.
func TyposquatOf(spec string) string {
	name := strings.ToLower(packageName(spec))
	pop := popularPackages()
	if len(name) < minSquatLen || pop[name] {
		return ""
	}
	best := ""
	for p := range pop {
		if len(p) >= minSquatLen && len(p)-len(name) <= 1 && len(name)-len(p) <= 1 && oneEdit(name, p) && (best == "" || p < best) {
			best = p
		}
	}
	return best
}

// packageName is the name in a package spec: without a version
// (name@1.2, @scope/name@latest, name==1.0, name>=2), extras (name[socks])
// or a trailing slash.
func packageName(spec string) string {
	s := spec
	if i := strings.IndexByte(s[min(1, len(s)):], '@'); i >= 0 {
		s = s[:i+min(1, len(s))]
	}
	if i := strings.IndexAny(s, "=<>!~[;"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.TrimSuffix(s, "/"))
}

// oneEdit reports whether a and b differ by exactly one insertion,
// deletion, substitution or swap of two adjacent letters.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) == len(b) {
		diff := -1
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// A second difference: only a swap of the two.
					return i == diff+1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	// b is a with one letter added.
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return a[i:] == b[i+1:]
}
