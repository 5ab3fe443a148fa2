// Package text holds the small string helpers every part of hookguard shares:
// folding text to one line and cutting it to a size with a visible marker.
package text

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// OneLine folds every run of white space (newlines included) to one space.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Truncate cuts s to at most max bytes (on a rune boundary) and says how much
// was cut, so a reader (a person or the model) knows the text goes on.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < 0 {
		max = 0
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" …[truncated by hookguard: %d more bytes]", len(s)-cut)
}

// KeepEnds cuts s to about max bytes by dropping its middle, keeping both
// ends (where commands and paths carry their meaning), on rune boundaries.
func KeepEnds(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head := max / 2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - max/2
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "\n…\n" + s[tail:]
}

// ASCIILower lowercases ASCII letters only, so byte offsets stay those of s
// (strings.ToLower may change the length of non-ASCII text).
func ASCIILower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, len(s))
	copy(b, s)
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return OwnString(b)
}

// OwnString is string(b) without the copy, for a slice its caller made and
// never touches again (what strings.Builder does): on text of megabytes the
// copy is page faults and collector work in a process that lives for one
// event.
func OwnString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Digits reports a non-empty string of ASCII digits only.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Lower is strings.ToLower, faster on long text that is mostly ASCII with
// some other letters (a source file with an em dash): ASCII bytes are
// lowered by a comparison, and only the other runes go through
// unicode.ToLower. Invalid UTF-8 becomes U+FFFD, as in strings.ToLower.
func Lower(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += size
	}
	return OwnString(b)
}
