package secrets

import (
	"regexp"
	"strings"
	"sync"
)

// A secret is often written in pieces the rules cannot read as one: a JSON
// string with escaped slashes (https:\/\/hooks.slack.com\/services\/…), an
// HTML page with character entities (<code>&quot;80db…&quot;</code>), source
// code that joins string literals ("sk-ant-api03-" + "f9_Z…" +\n "GwAr…").
// scanViews reads the stretches of text around such spellings as they read
// once unescaped and joined, and reports what it finds at the positions of
// the text the finding was read from.

// viewReach is how far around a spelling the view reads.
const viewReach = 320

// htmlEntities are the character entities read in a view.
var htmlEntities = []struct{ name, char string }{
	{"&quot;", `"`}, {"&#34;", `"`}, {"&#x22;", `"`}, {"&apos;", "'"}, {"&#39;", "'"}, {"&#x27;", "'"},
	{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&#47;", "/"}, {"&#x2F;", "/"}, {"&#x2f;", "/"},
}

// scanViews finds the secrets that only the unescaped and joined reading
// of text shows.
func scanViews(text string, o Options, w *work) []Finding {
	regions := viewRegions(text)
	var out []Finding
	for _, r := range regions {
		view, at := readView(text[r[0]:r[1]])
		if view == text[r[0]:r[1]] {
			continue
		}
		for _, f := range scanPlain(view, o, w) {
			if f.End <= f.Start || f.End > len(view) {
				continue
			}
			f.Start, f.End = r[0]+at[f.Start], r[0]+at[f.End-1]+1
			f.Line = 1 + strings.Count(text[:f.Start], "\n")
			out = append(out, f)
		}
		if w.incomplete != "" {
			break
		}
	}
	return out
}

// viewRegions returns the merged stretches of text around the spellings a
// view reads differently.
func viewRegions(text string) [][2]int {
	var pos []int
	for i := 0; i < len(text) && len(pos) < 4096; i++ {
		switch text[i] {
		case '\\':
			if i+1 < len(text) && text[i+1] == '/' {
				pos = append(pos, i)
				i++
			}
		case '&':
			if entityAt(text[i:]) > 0 {
				pos = append(pos, i)
			}
		case '"', '\'':
			if n := joinAt(text, i); n > 0 {
				pos = append(pos, i)
				i += n - 1
			}
		}
	}
	var out [][2]int
	for _, p := range pos {
		lo, hi := max(0, p-viewReach), min(len(text), p+viewReach)
		if n := len(out); n > 0 && lo <= out[n-1][1] {
			out[n-1][1] = hi
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

// entityAt returns the length of the character entity s starts with, or 0.
func entityAt(s string) int {
	if len(s) < 4 || s[1] != 'q' && s[1] != '#' && s[1] != 'a' && s[1] != 'l' && s[1] != 'g' {
		return 0
	}
	for _, e := range htmlEntities {
		if strings.HasPrefix(s, e.name) {
			return len(e.name)
		}
	}
	return 0
}

// joinAt returns the length of a concatenation that starts at the closing
// quote text[i] and ends with the opening quote of the next literal (" + ",
// "\n\t+ ", ' . ', " .. "), or 0.
func joinAt(text string, i int) int {
	q := text[i]
	j := skipBlanks(text, i+1)
	switch {
	case j < len(text) && text[j] == '+':
		j++
	case j+1 < len(text) && text[j] == '.' && text[j+1] == '.':
		j += 2
	case j < len(text) && text[j] == '.' && j > i+1:
		j++ // PHP's and Perl's "a" . "b" (with a blank before the dot)
	default:
		return 0
	}
	j = skipBlanks(text, j)
	if j >= len(text) || text[j] != q {
		return 0
	}
	return j + 1 - i
}

// skipBlanks returns the index of the first byte at or after i that is not
// a space, a tab or a line end (at most 40 of them).
func skipBlanks(text string, i int) int {
	for n := 0; i < len(text) && n < 40; i, n = i+1, n+1 {
		if c := text[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return i
}

// readView returns s with escaped slashes and character entities read and
// concatenated literals joined; at[i] is the offset in s of the view's
// byte i.
func readView(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && s[i+1] == '/':
			b.WriteByte('/')
			at = append(at, i)
			i += 2
			continue
		case c == '&':
			if n := entityAt(s[i:]); n > 0 {
				for _, e := range htmlEntities {
					if strings.HasPrefix(s[i:], e.name) {
						b.WriteString(e.char)
						at = append(at, i)
						break
					}
				}
				i += n
				continue
			}
		case c == '"' || c == '\'':
			if n := joinAt(s, i); n > 0 {
				i += n // "a" + "b": ab
				continue
			}
		}
		b.WriteByte(s[i])
		at = append(at, i)
		i++
	}
	return b.String(), at
}

// A secret may also be split over variables that code joins later
// (const a = "sk_live_51"; const b = "TGaI…"; new Stripe(a + b + c)).
// scanJoinedNames resolves such joins of variables assigned string literals
// and reads the joined value; a finding spans the literals it was made of.

// maxJoinScan bounds the text scanJoinedNames and scanJoinedPieces read
// (prompts and source files of ordinary size).
const maxJoinScan = 64 << 10

// assignedLiteral is a variable's literal value and where it is written.
type assignedLiteral struct {
	value      string
	start, end int
}

// assignedLiterals finds NAME = "literal" (also :=, and a type annotation
// before =) by scanning for "=" followed by a quote: cheaper than an
// expression over every byte.
func assignedLiterals(text string) map[string]assignedLiteral {
	var vars map[string]assignedLiteral
	for i := 1; i < len(text) && len(vars) < 256; i++ {
		if text[i] != '=' || i+1 < len(text) && text[i+1] == '=' || strings.IndexByte("=!<>+-*/%&|^", text[i-1]) >= 0 && text[i-1] != ':' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		value, vs, k, ok := literalAt(text, j)
		if !ok {
			continue
		}
		// The name before "=" (or ":="), past blanks and a type annotation.
		e := i
		if e > 0 && text[e-1] == ':' {
			e--
		}
		for e > 0 && (text[e-1] == ' ' || text[e-1] == '\t') {
			e--
		}
		b := e
		for b > 0 && identByte(text[b-1]) {
			b--
		}
		if c := strings.LastIndexByte(text[max(0, b-40):b], ':'); c >= 0 && b-40+c >= 0 {
			// const a: string = "…": the name is before the colon.
			colon := max(0, b-40) + c
			e = colon
			for e > 0 && (text[e-1] == ' ' || text[e-1] == '\t') {
				e--
			}
			b = e
			for b > 0 && identByte(text[b-1]) {
				b--
			}
		}
		if b == e || text[b] >= '0' && text[b] <= '9' {
			continue
		}
		if vars == nil {
			vars = map[string]assignedLiteral{}
		}
		vars[text[b:e]] = assignedLiteral{value, vs, k}
		i = k
	}
	return vars
}

// literalAt reads the quoted literal that opens at text[i] (a quote), at
// most 200 bytes on one line without escapes: its value and where the value
// starts and ends.
func literalAt(text string, i int) (value string, start, end int, ok bool) {
	if i >= len(text) || text[i] != '"' && text[i] != '\'' && text[i] != '`' {
		return "", 0, 0, false
	}
	q := text[i]
	k := i + 1
	for k < len(text) && k-i <= 201 && text[k] != q && text[k] != '\n' && text[k] != '\\' {
		k++
	}
	if k >= len(text) || text[k] != q || k == i+1 {
		return "", 0, 0, false
	}
	return text[i+1 : k], i + 1, k, true
}

// spanFindings scans a value joined from pieces and reports what it finds
// at text[lo:hi], the stretch the pieces were read from (only a provider's
// token format when tokenOnly: the joined text is not a sentence).
func spanFindings(text, joined string, lo, hi int, tokenOnly bool, o Options, w *work) []Finding {
	var out []Finding
	for _, f := range scanPlain(joined, o, w) {
		if tokenOnly && f.Confidence != Token {
			continue
		}
		f.Start, f.End = lo, hi
		f.Line = 1 + strings.Count(text[:lo], "\n")
		out = append(out, f)
	}
	return out
}

// identByte reports a byte of an identifier.
func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func scanJoinedNames(text string, o Options, w *work) []Finding {
	if len(text) > maxJoinScan || strings.Count(text, "+") == 0 {
		return nil
	}
	vars := assignedLiterals(text)
	// operand reads one operand of a + chain at i: a variable assigned a
	// literal, or a literal itself ("sk_li" + "ve_51" + skA + skB).
	operand := func(i int) (value string, lo, hi, next int, ok bool) {
		if i < len(text) && (text[i] == '"' || text[i] == '\'') {
			value, lo, hi, ok := literalAt(text, i)
			return value, lo, hi, hi + 1, ok
		}
		e := i
		for e < len(text) && identByte(text[e]) {
			e++
		}
		if l, found := vars[text[i:e]]; found && e > i {
			return l.value, l.start, l.end, e, true
		}
		return "", 0, 0, 0, false
	}
	var out []Finding
	for i := 0; i < len(text); i++ {
		if text[i] != '+' {
			continue
		}
		// The operand before this +: a name or a literal.
		b := i
		for b > 0 && (text[b-1] == ' ' || text[b-1] == '\t') {
			b--
		}
		s := b
		if s > 0 && (text[s-1] == '"' || text[s-1] == '\'') {
			q := text[s-1]
			s--
			for s > 0 && text[s-1] != q && text[s-1] != '\n' && b-s < 201 {
				s--
			}
			if s == 0 || text[s-1] != q {
				continue
			}
			s--
		} else {
			for s > 0 && identByte(text[s-1]) {
				s--
			}
		}
		value, lo, hi, _, ok := operand(s)
		if !ok {
			continue
		}
		joined := value
		n, names := 1, 0
		if text[s] != '"' && text[s] != '\'' {
			names++
		}
		j := i
		for j < len(text) && text[j] == '+' {
			k := j + 1
			for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n') {
				k++
			}
			v, l2, h2, next, ok := operand(k)
			if !ok {
				break
			}
			if text[k] != '"' && text[k] != '\'' {
				names++
			}
			joined += v
			lo, hi = min(lo, l2), max(hi, h2)
			n++
			for j = next; j < len(text) && (text[j] == ' ' || text[j] == '\t'); j++ {
			}
		}
		i = max(i, j-1)
		// Literals alone are joined by scanViews; a chain with a variable
		// in it is this pass's.
		if n < 2 || names == 0 || len(joined) < 16 {
			continue
		}
		out = append(out, spanFindings(text, joined, lo, hi, false, o, w)...)
	}
	return out
}

var (
	literalListRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`["'\x60][^"'\x60\s]{1,100}["'\x60](?:\s*,\s*["'\x60][^"'\x60\s]{1,100}["'\x60])+`)
	})
	joinSepAfterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*[\]}]\s*,\s*["']([^"'\n]{0,3})["']\s*\)`)
	})
	joinSepBeforeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`["']([^"'\n]{0,3})["']\.join\(\s*[\[(]?\s*$`)
	})
	spelledPrefixRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(ghp|gho|ghu|ghs|github_pat|glpat|xoxb|xoxp|npm|hf|pypi|shpat|sk|rk)\b[^.\n]{0,30}?\b(underscore|dash|hyphen)\b|\b(ghp|gho|ghu|ghs|glpat|npm|hf|shpat)(_)`)
	})
	listItemRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("[\"'\x60]([^\"'\x60\n]{1,100})[\"'\x60]")
	})
	quotedPieceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("[\"'\\x60]([A-Za-z0-9_.+/=-]{6,120})[\"'\\x60]")
	})
	// linePieceRe is a token-like run that ends its line, alone or after a
	// label ("part 2: V3B_r7D1…").
	linePieceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|[:=]\s*)([A-Za-z0-9_.+/=-]{8,120})[ \t]*$`)
	})
)

// joinWords say that pieces of a value are to be put together (with
// their capitalized forms, for a sentence's start).
var joinWords = sync.OnceValue(func() []string {
	words := []string{"half", "halves", "two parts", "in parts", "pieces", "concatenat", "glue", "join them", "put together",
		"combine", "first part", "second part"}
	for _, w := range words[:len(words):len(words)] {
		words = append(words, strings.ToUpper(w[:1])+w[1:])
	}
	return words
})

// scanJoinedPieces reads a provider's token written in pieces: a list of
// short literals (strings.Join([]string{"shp", "at_", "396b…"}, ""),
// "".join([…])), or quoted pieces a sentence says to put together ("first
// half is `hf_leXG…` and the second half is `XwA8…`"). Only a provider's
// token format counts in the joined text (it is not a sentence); a finding
// spans the pieces.
func scanJoinedPieces(text string, o Options, w *work) []Finding {
	if len(text) > maxJoinScan {
		return nil
	}
	var out []Finding
	report := func(joined string, lo, hi int) { out = append(out, spanFindings(text, joined, lo, hi, true, o, w)...) }
	for lineStart := 0; lineStart < len(text); {
		end := strings.IndexByte(text[lineStart:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += lineStart
		}
		line := text[lineStart:end]
		from := lineStart
		lineStart = end + 1
		if strings.Count(line, `", "`)+strings.Count(line, `","`)+strings.Count(line, `', '`)+strings.Count(line, `','`) < 2 {
			continue // a list of three or more literals on one line has two of these
		}
		for _, m := range literalListRe().FindAllStringIndex(line, 8) {
			m[0], m[1] = m[0]+from, m[1]+from
			pieces := listItemRe().FindAllStringSubmatch(text[m[0]:m[1]], 32)
			if len(pieces) < 3 {
				continue // two literals are a pair of values, not a value in pieces
			}
			// strings.Join([]string{"dop", "v1", "…"}, "_"), "_".join([…]):
			// the separator, when the call names one.
			sep := ""
			if sm := joinSepAfterRe().FindStringSubmatch(text[m[1]:min(len(text), m[1]+24)]); sm != nil {
				sep = sm[1]
			} else if sm := joinSepBeforeRe().FindStringSubmatch(text[max(0, m[0]-24):m[0]]); sm != nil {
				sep = sm[1]
			}
			var b strings.Builder
			for k, p := range pieces {
				if k > 0 {
					b.WriteString(sep)
				}
				b.WriteString(p[1])
			}
			if b.Len() >= 20 {
				report(b.String(), m[0], m[1])
			}
		}
	}
	// Pieces a sentence says to put together: read around the words that
	// say so (not over the whole text: a source file holds many quotes).
	tried := 0
	for _, word := range joinWords() {
		for from, seen := 0, 0; from < len(text) && seen < 4 && tried < 4; seen++ {
			i := strings.Index(text[from:], word)
			if i < 0 {
				break
			}
			i += from
			from = i + len(word)
			lo, hi := max(0, i-300), min(len(text), i+300)
			pieces := quotedPieceRe().FindAllStringSubmatchIndex(text[lo:hi], 8)
			if len(pieces) >= 2 && tried < 4 {
				// "it starts with ghp and an underscore, then `4Zkr…`, then
				// `Z5G3…`": every piece, after a kind spelled out in words.
				var all strings.Builder
				if pm := spelledPrefixRe().FindStringSubmatch(text[lo:hi]); pm != nil {
					if pm[1] == "" {
						pm[1], pm[2] = pm[3], pm[4]
					}
					all.WriteString(strings.ToLower(pm[1]))
					if strings.EqualFold(pm[2], "dash") || strings.EqualFold(pm[2], "hyphen") || pm[2] == "-" {
						all.WriteString("-")
					} else {
						all.WriteString("_")
					}
				}
				for _, pc := range pieces[:min(len(pieces), 6)] {
					all.WriteString(text[lo+pc[2] : lo+pc[3]])
				}
				tried++
				report(all.String(), lo+pieces[0][0], lo+pieces[min(len(pieces), 6)-1][1])
			}
			if len(pieces) < 2 && tried < 4 {
				// part 1: github_pat_11RQ…\npart 2: V3B_r7D1…: the pieces
				// unquoted, each ending its line, the first with its kind.
				lines := linePieceRe().FindAllStringSubmatchIndex(text[lo:hi], 8)
				if len(lines) >= 2 {
					first := text[lo+lines[0][2] : lo+lines[0][3]]
					if strings.ContainsAny(first[:min(len(first), 12)], "_-.") {
						var all strings.Builder
						for _, pc := range lines[:min(len(lines), 6)] {
							all.WriteString(text[lo+pc[2] : lo+pc[3]])
						}
						tried++
						report(all.String(), lo+lines[0][2], lo+lines[min(len(lines), 6)-1][3])
					}
				}
			}
			for k := 0; k+1 < len(pieces) && tried < 4; k++ {
				a, b := pieces[k], pieces[k+1]
				first := text[lo+a[2] : lo+a[3]]
				if b[0]-a[1] > 200 || len(first) < 8 || !strings.ContainsAny(first[:min(len(first), 12)], "_-.") {
					continue // the first piece of a token starts with its kind (hf_, ghp_, sk-, glpat-)
				}
				tried++
				report(first+text[lo+b[2]:lo+b[3]], lo+a[0], lo+b[1])
			}
		}
	}
	return out
}
