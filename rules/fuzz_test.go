package rules

import (
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
