package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxLayers is how many encodings deep a secret is looked for (base64 of
// percent-encoded text is two layers).
const maxLayers = 2

// maxDecoded bounds the bytes decoded in one scan.
const maxDecoded = 1 << 20

// probeBytes is how much of a long encoded run is decoded first to see
// whether it holds text.
const probeBytes = 3 << 10

// segment is an encoded run of the text and what it decodes to.
type segment struct {
	start, end int
	encoding   string
	decoded    string
}

// scanEncoded finds base64, hex and percent-encoded runs in text, decodes
// those that decode to text, and scans the result (again, up to maxLayers).
// A finding inside a decoded run covers the whole run.
func scanEncoded(text string, o Options, layer int, w *work) []Finding {
	if layer > maxLayers {
		return nil
	}
	var out []Finding
	budget := maxDecoded
	segs, dropped := encodedSegments(text, &budget)
	if dropped {
		w.fail("the text holds more encoded text than the secret scan decodes (limit " + itoa(maxDecoded>>20) + " MiB)")
	}
	for _, seg := range segs {
		inner := scanPlain(seg.decoded, o, w)
		inner = append(inner, scanEncoded(seg.decoded, o, layer+1, w)...)
		for _, f := range inner {
			enc := seg.encoding
			if f.Encoding != "" {
				enc += "+" + f.Encoding
			}
			out = append(out, Finding{RuleID: f.RuleID, Line: 1 + strings.Count(text[:seg.start], "\n"),
				Start: seg.start, End: seg.end, Encoding: enc, Confidence: f.Confidence, base: f.base})
		}
	}
	return out
}

// encodedSegments returns the encoded runs of text that decode to text, up
// to budget decoded bytes, and whether runs were left out for the budget.
func encodedSegments(text string, budget *int) (segs []segment, dropped bool) {
	add := func(start, end int, enc, dec string) {
		if !textLike(dec) {
			return
		}
		if len(dec) > *budget {
			dropped = true
			return
		}
		*budget -= len(dec)
		segs = append(segs, segment{start, end, enc, dec})
	}
	// fits tells whether a run whose decoding would be about size bytes
	// is worth decoding: a long run is first tried on a prefix, so a blob
	// that decodes to binary (an inlined image or font) costs no budget
	// and no decoding, and text beyond the budget is not decoded at all.
	fits := func(raw string, size int, decode func(string) (string, bool)) bool {
		if size <= probeBytes {
			return true // add weighs it against the budget
		}
		if head, ok := decode(raw[:probeBytes/3*4]); !ok || !textLike(head) {
			return false
		}
		if size > *budget {
			dropped = true
			return false
		}
		return true
	}
	hexDecode := func(s string) (string, bool) {
		dec, err := hex.DecodeString(s)
		return string(dec), err == nil
	}
	// Runs of the base64 alphabet (hex is a subset), padded or not.
	for i := 0; i < len(text); {
		if !b64Byte(text[i]) {
			i++
			continue
		}
		j := i
		allHex := true
		for j < len(text) && b64Byte(text[j]) {
			allHex = allHex && hexByte(text[j])
			j++
		}
		end := j
		for end < len(text) && end-j < 2 && text[end] == '=' {
			end++
		}
		switch raw := text[i:end]; {
		case j-i < 24:
		case allHex && j-i >= 40 && (j-i)%2 == 0:
			if !fits(raw, len(raw)/2, hexDecode) {
				break
			}
			if dec, ok := hexDecode(raw); ok {
				add(i, end, "hex", dec)
			}
		default:
			if !fits(raw, len(raw)/4*3, decodeBase64) {
				break
			}
			if dec, ok := decodeBase64(raw); ok {
				add(i, end, "base64", dec)
			}
		}
		i = end
	}
	// Words with percent escapes.
	for i := 0; i < len(text); {
		p := strings.IndexByte(text[i:], '%')
		if p < 0 {
			break
		}
		p += i
		lo, hi := p, p
		for lo > 0 && !delimiter(text[lo-1]) {
			lo--
		}
		for hi < len(text) && !delimiter(text[hi]) {
			hi++
		}
		if raw := text[lo:hi]; strings.Count(raw, "%") >= 2 || percentEscapes(raw) >= 1 && len(raw) >= 16 {
			if dec, err := url.QueryUnescape(raw); err == nil && dec != raw {
				add(lo, hi, "percent", dec)
			} else if dec, err := url.PathUnescape(raw); err == nil && dec != raw {
				add(lo, hi, "percent", dec)
			}
		}
		i = max(hi, p+1)
	}
	return segs, dropped
}

// percentEscapes counts the %XX escapes (two hex digits) in s.
func percentEscapes(s string) int {
	n := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && hexByte(s[i+1]) && hexByte(s[i+2]) {
			n++
		}
	}
	return n
}

func b64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

func hexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeBase64 decodes standard or URL-safe base64, padded or not.
func decodeBase64(s string) (string, bool) {
	trim := strings.TrimRight(s, "=")
	if strings.ContainsAny(trim, "-_") && strings.ContainsAny(trim, "+/") {
		return "", false
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(trim, "-_") {
		enc = base64.RawURLEncoding
	}
	if len(trim)%4 == 1 {
		return "", false
	}
	dec, err := enc.DecodeString(trim)
	if err != nil {
		return "", false
	}
	return string(dec), true
}

// textLike reports whether decoded bytes read as text (a key, a URL, a
// config), not as binary (a hash, an image).
func textLike(s string) bool {
	if len(s) < 8 || !utf8.ValidString(s) {
		return false
	}
	printable := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\r' || c == '\t' || c >= 0x80 {
			printable++
		}
	}
	return printable*100 >= len(s)*95
}
