package shell

import (
	"strings"
	"testing"
)

// TestDecodeStage: each re-encoding stage gives back the text it hides, and
// declines what it cannot read whole.
func TestDecodeStage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		in   string
		want string
		ok   bool
	}{
		{"base64", []string{"-d"}, "bHMgLWxh\n", "ls -la", true},
		{"base64", []string{"--decode"}, "bHMgLWxh", "ls -la", true},
		{"base64", []string{"-D"}, "bHMg\nLWxh\n", "ls -la", true},
		{"base64", []string{"-d", "payload.b64"}, "bHMgLWxh", "", false}, // reads a file, not its input
		{"base64", nil, "ls -la", "", false},                             // encodes
		{"base64", []string{"-d"}, "not base64 at all!", "", false},
		{"openssl", []string{"base64", "-d"}, "bHMgLWxh", "ls -la", true},
		{"xxd", []string{"-r", "-p"}, "6c73202d6c61", "ls -la", true},
		{"rev", nil, "al- sl\n", "ls -la\n", true},
		{"tr", []string{"A-Za-z", "N-ZA-Mn-za-m"}, "yf -yn", "ls -la", true},
		{"tr", []string{"a-z", "A-Z"}, "ls -la", "", false},
		{"base64", []string{"-d"}, "//79/A==", "", false}, // not text
	} {
		got, ok := decodeStage(c.name, c.args, c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("%s %v on %q: %q, %v; want %q, %v", c.name, c.args, c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestSplitDecodedCode: code hidden by a decoding stage is split as the code
// it is, whether piped to a shell or evaluated from a substitution.
func TestSplitDecodedCode(t *testing.T) {
	for _, line := range []string{
		`echo bHMgLWxh | base64 -d | bash`,
		`eval "$(echo bHMgLWxh | base64 -d)"`,
		`bash -c "$(printf %s 6c73202d6c61 | xxd -r -p)"`,
		`eval "$(echo 'al- sl' | rev)"`,
		`eval "$(base64 -d <<< 'bHMgLWxh')"`,
		`eval "$(rev <<< 'al- sl')"`,
		`eval "$(printf '\x6c\x73\x20\x2d\x6c\x61')"`,
		`eval "$(printf '\154\163 -la')"`,
		`ls${IFS}-la`,
	} {
		res := Split(line, Options{})
		checkInvariants(t, res)
		found := false
		for _, c := range res.Commands {
			found = found || c.Name == "ls" && strings.Join(c.Args, " ") == "-la"
		}
		if !found {
			t.Errorf("%s: the decoded `ls -la` was not split out: %+v", line, res.Commands)
		}
	}
}

// TestSplitArraysAndPositionals: arrays set on the line with known elements
// and set -- read back as the words they hold; an appended array does not.
func TestSplitArraysAndPositionals(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{`cmd=(npm test); "${cmd[@]}"`, "npm test"},
		{`set -- src/a.ts src/b.ts; wc -l "$@"`, "wc -l src/a.ts src/b.ts"},
		{`c=(r m); "${c[0]}${c[1]}" -f x.txt`, "rm -f x.txt"},
		{`a=(ls); a+=(-la); "${a[@]}"`, ""},
	} {
		res := Split(c.line, Options{})
		checkInvariants(t, res)
		got := ""
		for _, cmd := range res.Commands {
			if !cmd.DynamicName && cmd.Name != "set" {
				got = strings.TrimSpace(cmd.Name + " " + strings.Join(cmd.Args, " "))
			}
		}
		if got != c.want {
			t.Errorf("%s: read as %q, want %q", c.line, got, c.want)
		}
	}
}
