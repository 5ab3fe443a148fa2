package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds what one word may expand to; a word that would give
// more is left as written (and reads as a glob-like pattern).
const maxBraceWords = 64

// braceWords expands the brace expressions of an unquoted word the way the
// shell does before anything else (rm -rf ./{dist,build} is rm -rf ./dist
// ./build; f{1..3} is f1 f2 f3). It returns nil when w has none, or when it
// would expand to more than maxBraceWords words.
func braceWords(w *syntax.Word) []*syntax.Word {
	if w == nil || !literalBrace(w) {
		return nil
	}
	orig := *w
	if !syntax.SplitBraces(w) {
		return nil
	}
	out, ok := expandParts(w.Parts)
	if !ok || len(out) == 0 {
		*w = orig // left as written
		return nil
	}
	words := make([]*syntax.Word, len(out))
	for i, parts := range out {
		words[i] = &syntax.Word{Parts: parts}
	}
	return words
}

// braced returns words with their brace expressions expanded, each in
// place of the word it came from.
func braced(words []*syntax.Word) []*syntax.Word {
	var out []*syntax.Word
	for i, w := range words {
		exp := braceWords(w)
		if exp == nil {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]*syntax.Word, 0, len(words)+len(exp)), words[:i]...)
		}
		out = append(out, exp...)
	}
	if out == nil {
		return words
	}
	return out
}

// literalBrace reports an unquoted literal part with a brace in it.
func literalBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsRune(l.Value, '{') {
			return true
		}
	}
	return false
}

// expandParts returns every sequence of parts the brace expressions in parts
// stand for.
func expandParts(parts []syntax.WordPart) ([][]syntax.WordPart, bool) {
	out := [][]syntax.WordPart{nil}
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			for i := range out {
				out[i] = append(out[i], p)
			}
			continue
		}
		var alts [][]syntax.WordPart
		if b.Sequence {
			seq, ok := sequence(b)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				alts = append(alts, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, e := range b.Elems {
				sub, ok := expandParts(e.Parts)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
		}
		if len(out)*len(alts) > maxBraceWords {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(out)*len(alts))
		for _, prefix := range out {
			for _, alt := range alts {
				joined := append(append([]syntax.WordPart{}, prefix...), alt...)
				next = append(next, joined)
			}
		}
		out = next
	}
	return out, true
}

// sequence is {x..y[..step]} of integers or single letters.
func sequence(b *syntax.BraceExp) ([]string, bool) {
	lit := func(w *syntax.Word) string { return w.Lit() }
	if len(b.Elems) < 2 || len(b.Elems) > 3 {
		return nil, false
	}
	from, to := lit(b.Elems[0]), lit(b.Elems[1])
	step := 1
	if len(b.Elems) == 3 {
		n, err := strconv.Atoi(lit(b.Elems[2]))
		if err != nil || n == 0 {
			return nil, false
		}
		step = max(n, -n)
	}
	var out []string
	if a, err1 := strconv.Atoi(from); err1 == nil {
		z, err2 := strconv.Atoi(to)
		if err2 != nil || (z-a)/step > maxBraceWords || (a-z)/step > maxBraceWords {
			return nil, false
		}
		width := 0
		if len(from) > 1 && from[0] == '0' || len(to) > 1 && to[0] == '0' {
			width = max(len(from), len(to)) // {01..10}: zero-padded
		}
		for _, i := range steps(a, z, step) {
			s := strconv.Itoa(i)
			for len(s) < width {
				s = "0" + s
			}
			out = append(out, s)
		}
		return out, true
	}
	if len(from) == 1 && len(to) == 1 {
		for _, i := range steps(int(from[0]), int(to[0]), step) {
			out = append(out, string(rune(i)))
		}
		return out, len(out) <= maxBraceWords
	}
	return nil, false
}

// steps counts from a to z (either way) by step, at most maxBraceWords+1
// values.
func steps(a, z, step int) []int {
	var out []int
	for i := a; len(out) <= maxBraceWords; {
		out = append(out, i)
		if i == z {
			break
		}
		if a < z {
			i += step
			if i > z {
				break
			}
		} else {
			i -= step
			if i < z {
				break
			}
		}
	}
	return out
}
