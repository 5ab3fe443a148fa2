// The normalized text of commands and words: quoting, base names, paths.

package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func assignText(assigns map[string]string, dyn []string, ce *syntax.CallExpr) string {
	if ce == nil || len(ce.Assigns) == 0 {
		return ""
	}
	var b strings.Builder
	for i, a := range ce.Assigns {
		if a.Name == nil {
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Name.Value)
		b.WriteByte('=')
		b.WriteString(quoteArg(assigns[a.Name.Value], slices.Contains(dyn, a.Name.Value)))
	}
	return b.String()
}

// CommandText is the normalized text of a command, as in Command.Text: the
// name and the arguments, each quoted only when it would not read back as one
// word. Callers that rewrite arguments (the rules write home as ~) use it to
// get text in the same form.
func CommandText(name string, dynamicName bool, args []string, dynamicArgs []bool) string {
	var b strings.Builder
	n := len(name)
	for _, a := range args {
		n += 1 + len(a)
	}
	b.Grow(n + 8)
	if dynamicName {
		b.WriteString(name)
	} else {
		b.WriteString(quoteArg(name, false))
	}
	for i, a := range args {
		b.WriteByte(' ')
		b.WriteString(quoteArg(a, i < len(dynamicArgs) && dynamicArgs[i]))
	}
	return b.String()
}

// Quote quotes s as one shell word (for joining argv back into a line).
func Quote(s string) string {
	if !needsQuote(s) && !strings.ContainsAny(s, "*?[]{}~") {
		return s
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// quoteArg quotes s for Text only when it would not read back as one word:
// whitespace, quotes and shell operators. Globs, ~, = and braces are left as
// they are so that rules can match "rm -rf *" or "dd of=/dev/sda" literally.
// A dynamic arg is in source form already and is only wrapped in double
// quotes when it holds whitespace.
func quoteArg(s string, dyn bool) string {
	if dyn {
		single := len(s) > 3 && (s[0] == '$' || s[0] == '<' || s[0] == '>') && s[1] == '(' && s[len(s)-1] == ')'
		if !single && strings.ContainsAny(s, " \t\n") {
			return `"` + s + `"`
		}
		return s
	}
	if !needsQuote(s) {
		return s
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return s
	}
	return q
}

func needsQuote(s string) bool {
	if s == "" || s[0] == '#' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r', '\'', '"', '`', '$', ';', '&', '|', '<', '>', '(', ')', '\\':
			return true
		default:
			if c < 0x20 || c == 0x7f {
				return true
			}
		}
	}
	return false
}

// srcText returns src[from:to] with bounds checked.
func srcText(src string, from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if !from.IsValid() || !to.IsValid() || a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// baseName reduces a program path to its base name ("/bin/rm" → "rm").
func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// joinCwd resolves dir against cwd ("" when unknown).
func joinCwd(cwd, dir string) string {
	if dir == "" {
		return cwd
	}
	if strings.HasPrefix(dir, "/") {
		return path.Clean(dir)
	}
	if cwd == "" || strings.HasPrefix(dir, "~") {
		return ""
	}
	return path.Join(cwd, dir)
}
