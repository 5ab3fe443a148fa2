package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
)

// FuzzEvaluateShell: the rule pass answers every command line with one of
// the four decisions, never panics, and never allows a line it could not
// parse.
func FuzzEvaluateShell(f *testing.F) {
	for _, s := range benchShell {
		f.Add(s)
	}
	for _, s := range []string{"$(printf r)m -rf /", "bash -c 'eval \"$X\"'", "a\\\n# c \\\nrm -rf ~", "cat <<EOF | sh\nid\nEOF",
		"find . -exec {} \\;", "x=1; $x", "echo ${A:-$(id)}", "((((", "`", "'unterminated"} {
		f.Add(s)
	}
	p, err := ParseDefault()
	if err != nil {
		f.Fatal(err)
	}
	ctx := Context{Cwd: "/home/dev/project", WorkspaceRoots: []string{"/home/dev/project"}, Home: "/home/dev"}
	f.Fuzz(func(t *testing.T, line string) {
		o := p.Evaluate(&hook.Event{Kind: hook.KindShell, Command: line}, ctx)
		switch o.Decision {
		case hook.Allow, hook.Ask, hook.Deny, hook.Judge:
		default:
			t.Fatalf("decision %q for %q", o.Decision, line)
		}
		if o.ParseError != "" && o.Decision == hook.Allow {
			t.Fatalf("unparsable line allowed: %q (%s)", line, o.ParseError)
		}
	})
}

// FuzzRedactCommandQuoting: a token written into a command in any mix of
// shell quoting (plain, '…', "…", $'\xNN', backslashes, pieces glued
// together) never survives RedactCommand: neither whole nor its tail.
func FuzzRedactCommandQuoting(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4}, uint8(4))
	f.Add([]byte{3, 3, 3}, uint8(1))
	f.Add([]byte{1}, uint8(20))
	f.Add([]byte{4, 0, 2}, uint8(9))
	p, err := ParseDefault()
	if err != nil {
		f.Fatal(err)
	}
	const token = "ghp_R8x2kLm9QpZ4vT7wN1sY6bH3cJ5dF0gA2eK8"
	tail := token[len(token)-16:]
	f.Fuzz(func(t *testing.T, styles []byte, chunk uint8) {
		size := int(chunk%12) + 1
		var b strings.Builder
		b.WriteString("curl -H \"Authorization: token \"")
		for i, k := 0, 0; i < len(token); i, k = i+size, k+1 {
			piece := token[i:min(len(token), i+size)]
			style := byte(0)
			if len(styles) > 0 {
				style = styles[k%len(styles)] % 5
			}
			switch style {
			case 0:
				b.WriteString(piece)
			case 1:
				b.WriteString("'" + piece + "'")
			case 2:
				b.WriteString("\"" + piece + "\"")
			case 3:
				b.WriteString("$'")
				for j := 0; j < len(piece); j++ {
					fmt.Fprintf(&b, "\\x%02x", piece[j])
				}
				b.WriteString("'")
			case 4:
				for j := 0; j < len(piece); j++ {
					b.WriteString("\\" + piece[j:j+1])
				}
			}
		}
		b.WriteString(" https://api.github.com/user")
		line := b.String()
		out := p.RedactCommand(line)
		if strings.Contains(out, token) || strings.Contains(out, tail) {
			t.Fatalf("the token survived redaction of %q: %q", line, out)
		}
	})
}
