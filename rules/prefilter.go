package rules

import (
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookguard/hookguard/internal/hook"
)

// requiredLiterals derives a cheap prefilter from a pattern: clauses of
// lowercase strings such that, in any text the pattern matches, every clause
// has a member that occurs. It returns nil when nothing useful can be derived
// (the pattern is then always tried). This keeps regexp2, whose compile step
// costs tens of microseconds a pattern, off the start-up path of every rule a
// command cannot match.
//
// Negative lookarounds are removed first (they never make a match require
// text); positive ones become plain groups, since what they look for must be
// in the text too. Then the pattern is parsed with Go's regexp/syntax; patterns it cannot parse
// (backreferences, .NET-only syntax) get no prefilter.
func requiredLiterals(pattern string) [][]string {
	p := stripLookarounds(strings.TrimPrefix(pattern, "(?i)"))
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil
	}
	return clauses(re.Simplify())
}

// clauses returns the AND of OR-sets a match of re needs; empty means none.
func clauses(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		lit := strings.ToLower(string(re.Rune))
		if utf8.RuneCountInString(lit) < 2 {
			return nil
		}
		return [][]string{{lit}}
	case syntax.OpCapture, syntax.OpPlus:
		return clauses(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return clauses(re.Sub[0])
		}
	case syntax.OpConcat:
		var all [][]string
		for _, sub := range re.Sub {
			all = append(all, clauses(sub)...)
		}
		return all
	case syntax.OpAlternate:
		// One clause: for each branch, its most selective clause.
		var union []string
		for _, sub := range re.Sub {
			best := mostSelective(clauses(sub))
			if best == nil {
				return nil
			}
			union = append(union, best...)
		}
		return [][]string{union}
	}
	return nil
}

// mostSelective picks the clause whose shortest member is longest.
func mostSelective(cs [][]string) []string {
	var best []string
	for _, c := range cs {
		if best == nil || minLen(c) > minLen(best) {
			best = c
		}
	}
	return best
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if n := len(s); m < 0 || n < m {
			m = n
		}
	}
	return m
}

// stripLookarounds removes negative lookarounds ((?!…) and (?<!…)) and turns
// positive ones ((?=…) and (?<=…)) into non-capturing groups.
func stripLookarounds(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			b.WriteByte(p[i])
			b.WriteByte(p[i+1])
			i++
			continue
		}
		if p[i] == '[' {
			// A character class is copied whole: a '(' inside it opens nothing.
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for ; j < len(p) && p[j] != ']'; j++ {
				if p[j] == '\\' {
					j++
				}
			}
			if j >= len(p) {
				j = len(p) - 1
			}
			b.WriteString(p[i : j+1])
			i = j
			continue
		}
		if p[i] == '(' && i+2 < len(p) && p[i+1] == '?' && p[i+2] == '=' {
			b.WriteString("(?:")
			i += 2
			continue
		}
		if p[i] == '(' && i+3 < len(p) && p[i+1] == '?' && p[i+2] == '<' && p[i+3] == '=' {
			b.WriteString("(?:")
			i += 3
			continue
		}
		if p[i] == '(' && i+2 < len(p) && p[i+1] == '?' &&
			(p[i+2] == '!' || (p[i+2] == '<' && i+3 < len(p) && p[i+3] == '!')) {
			depth := 0
			j := i
			for ; j < len(p); j++ {
				if p[j] == '\\' {
					j++
					continue
				}
				if p[j] == '[' {
					// skip a character class
					for j++; j < len(p) && p[j] != ']'; j++ {
						if p[j] == '\\' {
							j++
						}
					}
					continue
				}
				if p[j] == '(' {
					depth++
				} else if p[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			i = j
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// rulePrefilter combines the patterns' clauses: the rule can only fire when
// all clauses of some pattern are satisfied. nil means no prefilter.
func rulePrefilter(patterns []string) [][][]string {
	var out [][][]string
	for _, p := range patterns {
		cs := requiredLiterals(p)
		if len(cs) == 0 {
			return nil
		}
		// Cheapest and most selective clauses first: a text usually fails on
		// the first one.
		sort.SliceStable(cs, func(i, j int) bool {
			if len(cs[i]) != len(cs[j]) {
				return len(cs[i]) < len(cs[j])
			}
			return minLen(cs[i]) > minLen(cs[j])
		})
		out = append(out, cs)
	}
	return out
}

// passesPrefilter reports whether lower (lowercased text) may match one of the patterns.
func passesPrefilter(patterns [][][]string, lower string, e *evaluation) bool {
	for _, cs := range patterns {
		if satisfies(cs, lower, e) {
			return true
		}
	}
	return false
}

func satisfies(cs [][]string, lower string, e *evaluation) bool {
	for _, clause := range cs {
		found := false
		for _, lit := range clause {
			if e.contains(lower, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// memoMin is the text length from which an evaluation remembers which
// literals a text holds: below it a search costs less than the lookup.
const memoMin = 64 << 10

// containsMemo remembers which literals one long text holds: an event's
// rules share many prefilter literals and keywords, and over megabytes each
// strings.Contains is a pass over the whole text.
type containsMemo struct {
	text string
	has  map[string]bool
	// also is a text that ends text (an MCP input, the end of its call
	// text): what text holds is a superset of what it holds, which is all a
	// prefilter needs.
	also string
}

// kindLiterals are the literals (prefilter literals and keywords) of one
// kind's rules, gathered on first use.
type kindLiterals struct {
	once sync.Once
	set  *pairIndex
}

// presence returns, for a long lower-cased text, a memo that already knows
// which of kind k's rule literals it holds: one pass over the text instead
// of one strings.Contains per literal (a file of megabytes and a hundred
// literals: most of the rule pass's time).
func (ix *index) presence(k hook.Kind, lower string) *containsMemo {
	kl := ix.literals[k]
	if kl == nil {
		return nil
	}
	kl.once.Do(func() {
		seen := map[string]bool{}
		var lits []string
		add := func(l string) {
			if len(l) >= 2 && !seen[l] {
				seen[l] = true
				lits = append(lits, l)
			}
		}
		for _, r := range ix.byKind[k] {
			for _, alt := range r.prefilterLiterals() {
				for _, clause := range alt {
					for _, l := range clause {
						add(l)
					}
				}
			}
			for _, l := range r.compiled.keywords {
				add(l)
			}
		}
		kl.set = newPairIndex(lits)
	})
	found := kl.set.present(lower)
	m := &containsMemo{text: lower, has: make(map[string]bool, len(found))}
	for i, l := range kl.set.lits {
		m.has[l] = found[i]
	}
	return m
}

// pairIndex finds which of many literals (two bytes or longer) occur in a
// text, by the two bytes they start with.
type pairIndex struct {
	lits []string
	// start[pair]..start[pair+1] are the positions in byPair of the
	// literals that start with pair.
	start  []int32
	byPair []int32
	// has has a bit for every pair some literal starts with: most
	// positions of a text are passed over on one cached load.
	has [1 << 10]uint64
}

func newPairIndex(lits []string) *pairIndex {
	ix := &pairIndex{lits: lits, start: make([]int32, 1<<16+1), byPair: make([]int32, len(lits))}
	pairOf := func(l string) int { return int(l[0])<<8 | int(l[1]) }
	for _, l := range lits {
		ix.start[pairOf(l)+1]++
		ix.has[pairOf(l)/64] |= 1 << (pairOf(l) % 64)
	}
	for i := 1; i < len(ix.start); i++ {
		ix.start[i] += ix.start[i-1]
	}
	next := slices.Clone(ix.start)
	for i, l := range lits {
		p := pairOf(l)
		ix.byPair[next[p]] = int32(i)
		next[p]++
	}
	return ix
}

// present reports, for each literal, whether text holds it. A pair whose
// literals are all found leaves the bitmap, so its later occurrences cost
// nothing more.
func (ix *pairIndex) present(text string) []bool {
	found := make([]bool, len(ix.lits))
	left := len(ix.lits)
	has := ix.has
	var open map[int]int32 // pair → its literals not found yet, once one is
	for pos := 0; pos+1 < len(text) && left > 0; pos++ {
		p := int(text[pos])<<8 | int(text[pos+1])
		if has[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, li := range ix.byPair[ix.start[p]:ix.start[p+1]] {
			if !found[li] && strings.HasPrefix(text[pos:], ix.lits[li]) {
				found[li] = true
				left--
				if open == nil {
					open = map[int]int32{}
				}
				n, ok := open[p]
				if !ok {
					n = ix.start[p+1] - ix.start[p]
				}
				if open[p] = n - 1; n == 1 {
					has[p/64] &^= 1 << (p % 64)
				}
			}
		}
	}
	return found
}

// contains is strings.Contains(lower, lit), remembered for long text.
func (e *evaluation) contains(lower, lit string) bool {
	if e == nil || len(lower) < memoMin {
		return strings.Contains(lower, lit)
	}
	if e.memo == nil || e.memo.text != lower && e.memo.also != lower {
		e.memo = &containsMemo{text: lower, has: map[string]bool{}}
	}
	has, ok := e.memo.has[lit]
	if !ok {
		has = strings.Contains(lower, lit)
		e.memo.has[lit] = has
	}
	return has
}
