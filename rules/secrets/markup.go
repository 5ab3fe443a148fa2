package secrets

import "strings"

// blankMarkup returns s with what stands between a secret's name and its
// value in escaped or marked-up text replaced by spaces of the same length:
// the backslash of an escaped quote, tab or line end (a notebook's source
// lines, a JSON document's strings: MAPBOX_TOKEN = \"sk.…\"\n), and HTML's
// formatting tags (Client Secret: <code>…</code>). Escaped line ends become
// a space and a line end, so that rules anchored at lines read them.
// Positions in the result are positions in s.
func blankMarkup(s string) string {
	if !strings.Contains(s, `\`) && !strings.Contains(s, "<") {
		return s
	}
	var b []byte
	set := func(i int, c byte) {
		if b == nil {
			b = []byte(s)
		}
		b[i] = c
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 >= len(s) {
				continue
			}
			switch s[i+1] {
			case '\\':
				i++ // an escaped backslash: neither starts an escape
			case '"', '\'', 't':
				set(i, ' ')
				if s[i+1] == 't' {
					set(i+1, ' ')
				}
				i++
			case 'n', 'r':
				set(i, ' ')
				set(i+1, '\n')
				i++
			}
		case '<':
			if n := formattingTag(s[i:]); n > 0 {
				for j := i; j < i+n; j++ {
					set(j, ' ')
				}
				i += n - 1
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// formattingTags are HTML elements that only format what they hold.
var formattingTags = map[string]bool{
	"code": true, "pre": true, "b": true, "strong": true, "em": true, "i": true, "u": true, "tt": true, "kbd": true,
	"samp": true, "var": true, "span": true, "p": true, "br": true, "td": true, "th": true, "li": true, "div": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "mark": true, "small": true, "font": true,
	"blockquote": true,
}

// formattingTag returns the length of the formatting tag s starts with
// (<code>, </code>, <span class="x">, <br/>), or 0.
func formattingTag(s string) int {
	end := strings.IndexByte(s[:min(len(s), 200)], '>')
	if end < 2 {
		return 0
	}
	name := strings.TrimPrefix(s[1:end], "/")
	name = strings.TrimSuffix(name, "/")
	if sp := strings.IndexAny(name, " \t\n"); sp >= 0 {
		if strings.ContainsAny(name[sp:], "<") {
			return 0
		}
		name = name[:sp]
	}
	if !formattingTags[strings.ToLower(name)] {
		return 0
	}
	return end + 1
}
