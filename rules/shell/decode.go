package shell

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxDecoded bounds the text a decoding stage produces for the analysis.
const maxDecoded = 64 << 10

// decodeStage is the output of a pipeline stage that only re-encodes what
// it reads (base64 -d, openssl base64 -d, xxd -r -p, rev, a rot13 tr) when
// its input is known: code hidden that way (echo … | base64 -d | bash, eval
// "$(echo … | base64 -d)") is then read as what it is. ok is false for any
// other command, input that does not decode, or output that is not text.
func decodeStage(name string, args []string, in string) (string, bool) {
	var out []byte
	switch {
	case name == "base64" && decodes(args):
		out = decodeBase64(in)
	case name == "openssl" && len(args) >= 2 && (args[0] == "base64" || args[0] == "enc" && slices.Contains(args, "-base64") || args[0] == "enc" && slices.Contains(args, "-a")) &&
		slices.Contains(args, "-d"):
		out = decodeBase64(in)
	case name == "xxd" && (slices.Contains(args, "-r") && slices.Contains(args, "-p") || slices.Contains(args, "-rp") || slices.Contains(args, "-pr")):
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		if err != nil {
			return "", false
		}
		out = b
	case name == "rev" && len(args) == 0:
		lines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		for i, l := range lines {
			r := []rune(l)
			slices.Reverse(r)
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n") + "\n", true
	case name == "tr" && len(args) == 2 && rot13Sets(args[0], args[1]):
		return strings.Map(rot13, in), true
	default:
		return "", false
	}
	if out == nil || len(out) > maxDecoded || !utf8.Valid(out) || strings.ContainsRune(string(out), 0) {
		return "", false
	}
	return string(out), true
}

func decodes(args []string) bool {
	for _, a := range args {
		switch a {
		case "-d", "--decode", "-D", "-di", "-id", "-i":
		default:
			return false // a file, a wrap width: not only a decoder of its input
		}
	}
	return slices.Contains(args, "-d") || slices.Contains(args, "--decode") || slices.Contains(args, "-D") ||
		slices.Contains(args, "-di") || slices.Contains(args, "-id")
}

// decodeBase64 decodes standard or URL-safe base64, padded or not, with
// line breaks; nil when it does not decode.
func decodeBase64(in string) []byte {
	s := strings.Join(strings.Fields(in), "")
	s = strings.TrimRight(s, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(s)
	if err != nil || len(s) == 0 {
		return nil
	}
	return b
}

func rot13Sets(a, b string) bool {
	switch a + " " + b {
	case "A-Za-z N-ZA-Mn-za-m", "a-zA-Z n-za-mN-ZA-M", "a-z n-za-m", "A-Z N-ZA-M":
		return true
	}
	return false
}

func rot13(r rune) rune {
	switch {
	case 'a' <= r && r <= 'z':
		return 'a' + (r-'a'+13)%26
	case 'A' <= r && r <= 'Z':
		return 'A' + (r-'A'+13)%26
	}
	return r
}

// staticWords returns the words of a simple command made only of literal
// and quoted text (no expansion), or false.
func staticWords(ce *syntax.CallExpr) ([]string, bool) {
	if len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		var b strings.Builder
		for _, p := range w.Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				b.WriteString(x.Value)
			case *syntax.SglQuoted:
				if x.Dollar {
					return nil, false
				}
				b.WriteString(x.Value)
			case *syntax.DblQuoted:
				for _, q := range x.Parts {
					l, ok := q.(*syntax.Lit)
					if !ok {
						return nil, false
					}
					b.WriteString(l.Value)
				}
			default:
				return nil, false
			}
		}
		out = append(out, b.String())
	}
	return out, true
}

// decodedOutput is the output of a substitution that prints literal text
// through decoding stages only ($(echo … | base64 -d)), or false.
func decodedOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return "", false
	}
	var stages []*syntax.Stmt
	stmt := cs.Stmts[0]
	if b, ok := stmt.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe && len(stmt.Redirs) == 0 {
		stages = flattenPipe(b, nil)
	} else if ce, ok := stmt.Cmd.(*syntax.CallExpr); ok {
		return decodedCall(ce, stmt.Redirs)
	} else {
		return "", false
	}
	text, ok := "", false
	for i, st := range stages {
		ce, isCall := st.Cmd.(*syntax.CallExpr)
		if !isCall || len(st.Redirs) > 0 {
			return "", false
		}
		words, static := staticWords(ce)
		if !static {
			return "", false
		}
		if i == 0 {
			switch words[0] {
			case "echo":
				in := echoOut(argsOf(words[1:]))
				if in == nil {
					return "", false
				}
				text = in.text
			case "printf":
				t, ok := printfOut(argsOf(words[1:]))
				if !ok {
					return "", false
				}
				text = t
			default:
				return "", false
			}
			continue
		}
		if text, ok = decodeStage(words[0], words[1:], text); !ok {
			return "", false
		}
	}
	return strings.TrimRight(text, "\n"), ok
}

// decodedCall is the output of one decoding command of literal text: a
// decoder given a here-string (base64 -d <<< '…', rev <<< '…'), or printf
// and echo -e whose escapes spell other text (printf '\x72\x6d'). A plain
// echo or printf is left as it was.
func decodedCall(ce *syntax.CallExpr, redirs []*syntax.Redirect) (string, bool) {
	words, static := staticWords(ce)
	if !static {
		return "", false
	}
	if len(redirs) == 1 && redirs[0].Op == syntax.WordHdoc && redirs[0].Word != nil {
		in, ok := staticWords(&syntax.CallExpr{Args: []*syntax.Word{redirs[0].Word}})
		if !ok {
			return "", false
		}
		out, ok := decodeStage(words[0], words[1:], in[0]+"\n")
		return strings.TrimRight(out, "\n"), ok
	}
	if len(redirs) == 0 && len(words) == 2 && (words[0] == "echo" || words[0] == "printf") && words[1] != "" &&
		!strings.HasPrefix(words[1], "-") && !strings.ContainsAny(words[1], " \t\n%\\") {
		// $(echo chmod), $(printf tee): one plain word, printed as it is.
		return words[1], true
	}
	// printf '%s' 'cu' 'rl …' joins its arguments: what it prints is
	// other text than its words, like escapes are.
	formats := words[0] == "printf" && len(words) > 2 && strings.Contains(words[1], "%")
	if len(redirs) > 0 || !formats && !strings.Contains(strings.Join(words[1:], " "), "\\") {
		return "", false
	}
	switch words[0] {
	case "printf":
		t, ok := printfOut(argsOf(words[1:]))
		return strings.TrimRight(t, "\n"), ok
	case "echo":
		if in := echoOut(argsOf(words[1:])); in != nil && len(words) > 1 && strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "e") {
			return strings.TrimRight(in.text, "\n"), true
		}
	}
	return "", false
}

func argsOf(words []string) []arg {
	out := make([]arg, len(words))
	for i, w := range words {
		out[i] = arg{s: w}
	}
	return out
}
