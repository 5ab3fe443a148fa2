package shell

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// quoting modes for word parts.
const (
	modeUnquoted = iota
	modeDouble
	modeHeredoc
)

// wordBuf accumulates one resolved word.
type wordBuf struct {
	b     strings.Builder
	dyn   bool // a part is only known at run time
	subst bool // a part is a command or process substitution
	split bool // an unquoted expansion holds blanks: the word splits into fields
}

// word resolves w: quotes removed, ~ and known variables substituted, and the
// parts known only at run time kept in their source form. Command and process
// substitutions found inside are added to subs.
func (s *splitter) word(w *syntax.Word, st *state, fr *frame, subs *[]subst) arg {
	if w == nil || len(w.Parts) == 0 {
		return arg{}
	}
	// Fast path: one plain literal.
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsRune(l.Value, '\\') && (l.Value == "" || l.Value[0] != '~') {
			return arg{s: l.Value}
		}
		if q, ok := w.Parts[0].(*syntax.SglQuoted); ok && !q.Dollar {
			return arg{s: q.Value}
		}
	}
	var wb wordBuf
	s.parts(&wb, w.Parts, modeUnquoted, st, fr, subs)
	return arg{s: wb.b.String(), dyn: wb.dyn, subst: wb.subst, split: wb.split}
}

func (s *splitter) parts(wb *wordBuf, parts []syntax.WordPart, mode int, st *state, fr *frame, subs *[]subst) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if mode == modeUnquoted && i == 0 && strings.HasPrefix(v, "~") {
				v = s.tilde(v, st)
			}
			unescape(&wb.b, v, mode)
		case *syntax.SglQuoted:
			if p.Dollar {
				wb.b.WriteString(ansiC(p.Value))
			} else {
				wb.b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			s.parts(wb, p.Parts, modeDouble, st, fr, subs)
		case *syntax.ParamExp:
			if v, ok := s.param(p, st); ok {
				wb.b.WriteString(v)
				if mode == modeUnquoted && strings.ContainsAny(v, st.ifs()) {
					wb.split = true
				}
				continue
			}
			wb.dyn = true
			if target, ok := indirectName(p, st); ok {
				wb.b.WriteString("$" + target) // ${!k} after k=AWS_SECRET_ACCESS_KEY: $AWS_SECRET_ACCESS_KEY
			} else if def, ok := st.lookup(defaultKey + paramName(p)); ok && paramName(p) != "" && p.Exp == nil && p.Slice == nil && p.Repl == nil {
				wb.b.WriteString(def) // $D after D=${X:-/srv}: ${X:-/srv}
			} else {
				wb.b.WriteString(srcText(fr.src, p.Pos(), p.End()))
			}
			n := len(*subs)
			collectSubsts(p, subs)
			if len(*subs) > n {
				wb.subst = true
			}
		case *syntax.CmdSubst:
			*subs = append(*subs, subst{stmts: p.Stmts, via: viaCmdSubst})
			if v, ok := s.knownOutput(p, st); ok {
				wb.b.WriteString(v) // "$(pwd)/build", "$(git rev-parse --show-toplevel)/dist"
				if mode == modeUnquoted && strings.ContainsAny(v, st.ifs()) {
					wb.split = true // $(echo … | base64 -d) as a command: its words
				}
				continue
			}
			wb.dyn, wb.subst = true, true
			wb.b.WriteString(srcText(fr.src, p.Pos(), p.End()))
		case *syntax.ProcSubst:
			wb.dyn, wb.subst = true, true
			wb.b.WriteString(srcText(fr.src, p.Pos(), p.End()))
			*subs = append(*subs, subst{stmts: p.Stmts, via: viaProcSubst})
		case *syntax.ExtGlob, *syntax.BraceExp:
			// Globs and braces stay literal and are not dynamic.
			wb.b.WriteString(srcText(fr.src, p.Pos(), p.End()))
		default: // ArithmExp and anything new
			wb.dyn = true
			wb.b.WriteString(srcText(fr.src, p.Pos(), p.End()))
			n := len(*subs)
			collectSubsts(p, subs)
			if len(*subs) > n {
				wb.subst = true
			}
		}
	}
}

// knownOutput is the output of a command substitution whose output is
// known before running in every way that matters for paths: $(pwd), $(git
// rev-parse --show-toplevel) inside a workspace root (that root), $(mktemp
// [-d]) (a fresh temporary path), $(which NAME) and $(command -v NAME) (the
// program in the system's bin folder) and $(date +FORMAT) with a format that
// makes no / or space (a stand-in of digits).
func (s *splitter) knownOutput(cs *syntax.CmdSubst, st *state) (string, bool) {
	if isPwd(cs) {
		return st.cwd, st.cwd != ""
	}
	if v, ok := decodedOutput(cs); ok {
		return v, true // eval "$(echo … | base64 -d)": the code it hides
	}
	if v, ok := s.pathOfOutput(cs, st); ok {
		return v, true // $(dirname "$PWD"), $(basename $HOME)
	}
	if v, ok := s.cdPwd(cs, st); ok {
		return v, true // $(cd ../.. && pwd)
	}
	if v, ok := s.printedOutput(cs, st); ok {
		return v, true // $(printf '%s ' rm -rf "$HOME/work"), $(echo 'npm test')
	}
	words, ok := plainCall(cs)
	if !ok {
		return "", false
	}
	switch {
	case len(words) == 3 && words[0] == "git" && words[1] == "rev-parse" && words[2] == "--show-toplevel":
		if st.cwd == "" {
			return "", false
		}
		best := ""
		for _, r := range s.opts.WorkspaceRoots {
			r = strings.TrimSuffix(r, "/")
			if (st.cwd == r || strings.HasPrefix(st.cwd, r+"/")) && len(r) > len(best) {
				best = r
			}
		}
		return best, best != ""
	case len(words) >= 3 && words[0] == "git" && words[1] == "rev-parse" &&
		(len(words) == 3 && (words[2] == "--git-dir" || words[2] == "--absolute-git-dir" || words[2] == "--git-common-dir") ||
			len(words) == 4 && words[2] == "--git-path" && !strings.HasPrefix(words[3], "-")):
		// $(git rev-parse --git-dir), $(git rev-parse --git-path hooks):
		// the repository's own folder (of the workspace root holding the
		// working directory), or a path inside it.
		root := ""
		for _, r := range s.opts.WorkspaceRoots {
			r = strings.TrimSuffix(r, "/")
			if (st.cwd == r || strings.HasPrefix(st.cwd, r+"/")) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" {
			return "", false
		}
		if len(words) == 4 {
			return root + "/.git/" + strings.TrimPrefix(words[3], "/"), true
		}
		return root + "/.git", true
	case len(words) == 1 && words[0] == "whoami" || len(words) == 2 && words[0] == "id" && words[1] == "-un":
		// $(whoami): the user's name (the home folder's name).
		if s.opts.Home == "" {
			return "", false
		}
		return path.Base(s.opts.Home), true
	case (words[0] == "which" && len(words) == 2 || words[0] == "command" && len(words) == 3 && words[1] == "-v") &&
		!strings.ContainsAny(words[len(words)-1], "/$`*?[") && !strings.HasPrefix(words[len(words)-1], "-"):
		// $(which bash), $(command -v python3): the program's installed path
		// (a stand-in in the system's bin folder).
		return "/usr/bin/" + words[len(words)-1], true
	case s.opts.Home != "" && (len(words) == 3 && words[0] == "go" && words[1] == "env" && words[2] == "GOCACHE" ||
		len(words) == 3 && (words[0] == "pip" || words[0] == "pip3") && words[1] == "cache" && words[2] == "dir"):
		// $(go env GOCACHE), $(pip cache dir): the tool's own cache folder
		// (where it is by default; a stand-in in the home's cache folder).
		tool := "go-build"
		if words[0] != "go" {
			tool = "pip"
		}
		return s.opts.Home + "/.cache/" + tool, true
	case len(words) == 2 && words[0] == "brew" && words[1] == "--prefix":
		// $(brew --prefix): Homebrew's prefix, a system folder.
		return "/usr/local", true
	case words[0] == "mktemp" && (len(words) == 1 || len(words) == 2 && words[1] == "-d"):
		return "/tmp/tmp.XXXXXXXXXX", true
	case words[0] == "date" && len(words) == 2 && strings.HasPrefix(words[1], "+") &&
		!strings.ContainsAny(words[1], "/ \t") && !strings.Contains(words[1], "%n") && !strings.Contains(words[1], "%t"):
		return "20260101000000", true
	}
	return "", false
}

// indirectName is the variable a plain ${!v} names when v's value, a
// variable's name, is known.
func indirectName(p *syntax.ParamExp, st *state) (string, bool) {
	if !p.Excl || p.Param == nil || p.Length || p.Width || p.IsSet || p.NestedParam != nil || p.Index != nil || p.Names != 0 ||
		len(p.Modifiers) > 0 || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return "", false
	}
	target, ok := st.lookup(p.Param.Value)
	if !ok || !validName(target) {
		return "", false
	}
	return target, true
}

// printedOutput is what $(echo …) or $(printf FORMAT …) prints when every
// word it is given is known: literals, quotes, variables whose value is
// known ($HOME) and substitutions whose output is known.
func (s *splitter) printedOutput(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	stmt := cs.Stmts[0]
	ce, ok := stmt.Cmd.(*syntax.CallExpr)
	if !ok || !quietRedirs(stmt.Redirs) || stmt.Background || stmt.Negated || len(ce.Assigns) > 0 || len(ce.Args) < 2 {
		return "", false
	}
	name := ce.Args[0].Lit()
	if name != "echo" && name != "printf" {
		return "", false
	}
	args := make([]arg, 0, len(ce.Args)-1)
	for _, w := range ce.Args[1:] {
		v, ok := s.staticWord(w.Parts, st)
		if !ok {
			return "", false
		}
		if len(w.Parts) == 1 {
			if l, isLit := w.Parts[0].(*syntax.Lit); isLit && strings.HasPrefix(l.Value, "~") {
				v = s.tilde(v, st)
			}
		}
		args = append(args, arg{s: v})
	}
	if name == "printf" {
		out, ok := printfOut(args)
		return strings.TrimRight(out, "\n"), ok
	}
	in := echoOut(args)
	if in == nil {
		return "", false
	}
	return strings.TrimRight(in.text, "\n"), true
}

// pathOfOutput is the output of $(dirname X) or $(basename X) when X is
// a literal or a variable whose value is known.
func (s *splitter) pathOfOutput(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	stmt := cs.Stmts[0]
	ce, ok := stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(stmt.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) != 2 {
		return "", false
	}
	name := ce.Args[0].Lit()
	if name != "dirname" && name != "basename" {
		return "", false
	}
	parts := ce.Args[1].Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return "", false
	}
	v := ""
	switch p := parts[0].(type) {
	case *syntax.Lit:
		v = p.Value
	case *syntax.CmdSubst:
		// $(dirname "$(pwd)"): a nested substitution whose output is known.
		if pv, ok := s.knownOutput(p, st); ok {
			v = pv
		}
	case *syntax.ParamExp:
		if p.Param == nil || p.Exp != nil || p.Slice != nil || p.Repl != nil || p.Index != nil || p.Length || p.Excl {
			return "", false
		}
		if p.Param.Value == "PWD" && st.cwd != "" {
			v = st.cwd
		} else if pv, ok := s.param(p, st); ok {
			v = pv
		}
	}
	if v == "" || strings.ContainsAny(v, "$`*?[") {
		return "", false
	}
	if name == "dirname" {
		return path.Dir(strings.TrimSuffix(v, "/")), true
	}
	return path.Base(v), true
}

// cdPwd is the output of $(cd DIR && pwd) (also with -P, a quiet cd and
// "$(dirname X)" as DIR when that is known): the folder DIR names from the
// working directory.
func (s *splitter) cdPwd(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 || st.cwd == "" {
		return "", false
	}
	bc, ok := cs.Stmts[0].Cmd.(*syntax.BinaryCmd)
	if !ok || bc.Op != syntax.AndStmt || !quietRedirs(bc.X.Redirs) {
		return "", false
	}
	cd, ok := bc.X.Cmd.(*syntax.CallExpr)
	if !ok || len(cd.Assigns) > 0 || len(cd.Args) < 2 || cd.Args[0].Lit() != "cd" {
		return "", false
	}
	dirWord := cd.Args[len(cd.Args)-1]
	for _, a := range cd.Args[1 : len(cd.Args)-1] {
		if a.Lit() != "-P" && a.Lit() != "-L" && a.Lit() != "--" {
			return "", false
		}
	}
	pw, ok := bc.Y.Cmd.(*syntax.CallExpr)
	if !ok || len(bc.Y.Redirs) > 0 || len(pw.Assigns) > 0 || len(pw.Args) == 0 || pw.Args[0].Lit() != "pwd" ||
		len(pw.Args) > 2 || len(pw.Args) == 2 && pw.Args[1].Lit() != "-P" {
		return "", false
	}
	dir, ok := s.staticWord(dirWord.Parts, st)
	if !ok || dir == "" || dir == "-" || strings.ContainsAny(dir, "*?[") {
		return "", false
	}
	switch {
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if s.opts.Home == "" {
			return "", false
		}
		dir = s.opts.Home + dir[1:]
	case !strings.HasPrefix(dir, "/"):
		dir = st.cwd + "/" + dir
	}
	return path.Clean(dir), true
}

// staticWord is the value of word parts made only of literals, quotes,
// variables whose value is known and substitutions whose output is known.
func (s *splitter) staticWord(parts []syntax.WordPart, st *state) (string, bool) {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsRune(p.Value, '\\') {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			v, ok := s.staticWord(p.Parts, st)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		case *syntax.ParamExp:
			v, ok := s.param(p, st)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		case *syntax.CmdSubst:
			v, ok := s.knownOutput(p, st)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainCall returns the literal words of a substitution that is one simple
// command with no redirections, assignments or expansions.
func plainCall(cs *syntax.CmdSubst) ([]string, bool) {
	if len(cs.Stmts) != 1 {
		return nil, false
	}
	st := cs.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || !quietRedirs(st.Redirs) || st.Background || st.Negated || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		l := w.Lit()
		if l == "" {
			return nil, false
		}
		out = append(out, l)
	}
	return out, true
}

// quietRedirs reports redirections that change nothing a substitution
// prints: none, or error output thrown away (2>/dev/null).
func quietRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut || r.Word == nil || r.Word.Lit() != "/dev/null" {
			return false
		}
	}
	return true
}

// isPwd reports whether cs is $(pwd) or `pwd`, whose output is the
// working directory.
func isPwd(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Negated || len(ce.Assigns) > 0 || len(ce.Args) != 1 {
		return false
	}
	return ce.Args[0].Lit() == "pwd"
}

// param resolves a parameter expansion when its value is known.
func (s *splitter) param(p *syntax.ParamExp, st *state) (string, bool) {
	if p.Param != nil && p.Index != nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil && p.Exp == nil && len(p.Modifiers) == 0 {
		// ${cmd[0]}, ${cmd[@]} of an array the line set with known elements.
		idx, ok := p.Index.(*syntax.Word)
		v, set := st.lookup(arrayVar + p.Param.Value)
		if !ok || !set {
			return "", false
		}
		elems := strings.Split(v, "\x00")
		switch l := idx.Lit(); {
		case l == "@" || l == "*":
			return strings.Join(elems, " "), true
		case l != "" && strings.Trim(l, "0123456789") == "":
			n, err := strconv.Atoi(l)
			if err != nil || n >= len(elems) {
				return "", false
			}
			return elems[n], true
		}
		return "", false
	}
	if p.Param == nil || p.Length || p.Width || p.IsSet || p.NestedParam != nil ||
		p.Index != nil || p.Names != 0 || len(p.Modifiers) > 0 {
		return "", false
	}
	name := p.Param.Value
	if p.Excl {
		// ${!v} after v=HOME: the variable v names.
		target, ok := st.lookup(name)
		if !ok || !validName(target) {
			return "", false
		}
		name = target
	}
	v, ok := s.lookupVar(name, st)
	if p.Slice != nil {
		// ${HOME:0:1}: a literal offset and length of a known value (here "/").
		if p.Repl != nil || p.Exp != nil {
			return "", false
		}
		if sliceLength(p.Slice) == 0 {
			return "", true // ${PAGER:0:0}: empty whatever the value
		}
		if !ok && absoluteVars[name] && sliceFirstChar(p.Slice) {
			return "/", true // ${PATH:0:1}: these values start at the root
		}
		if !ok {
			return "", false
		}
		return sliceValue(v, p.Slice)
	}
	if p.Repl != nil {
		// ${f/.js/.bak.js}, ${f//x/y}: literal patterns on a known value.
		if !ok || p.Exp != nil {
			return "", false
		}
		orig, with := p.Repl.Orig.Lit(), ""
		if p.Repl.With != nil {
			with = p.Repl.With.Lit()
			if with == "" && len(p.Repl.With.Parts) > 0 {
				return "", false
			}
		}
		if orig == "" || strings.ContainsAny(orig, "*?[\\") || strings.HasPrefix(orig, "#") || strings.HasPrefix(orig, "%") {
			return "", false
		}
		if p.Repl.All {
			return strings.ReplaceAll(v, orig, with), true
		}
		return strings.Replace(v, orig, with, 1), true
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			if ok && (v != "" || p.Exp.Op == syntax.DefaultUnset) {
				return v, true
			}
			if !ok && name == "TMPDIR" && p.Exp.Word != nil && p.Exp.Word.Lit() != "" {
				// ${TMPDIR:-/tmp}: the temporary folder either way.
				return "/tmp", true
			}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			// ${DIR:?}: the shell stops when it is unset (or empty).
			if ok && (v != "" || p.Exp.Op == syntax.ErrorUnset) {
				return v, true
			}
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			if ok && p.Exp.Word != nil {
				return trimPattern(v, p.Exp.Word.Lit(), p.Exp.Op)
			}
		case syntax.UpperAll, syntax.LowerAll, syntax.UpperFirst, syntax.LowerFirst:
			// ${c,,} after c=RM: the value with its case changed.
			if !ok || p.Exp.Word != nil && p.Exp.Word.Lit() != "" || v == "" {
				return "", false
			}
			switch p.Exp.Op {
			case syntax.UpperAll:
				return strings.ToUpper(v), true
			case syntax.LowerAll:
				return strings.ToLower(v), true
			case syntax.UpperFirst:
				return strings.ToUpper(v[:1]) + v[1:], true
			}
			return strings.ToLower(v[:1]) + v[1:], true
		}
		return "", false
	}
	return v, ok
}

// lookupVar is the value of a variable the line set, or of one every
// shell has whose value is known here (HOME, PWD, the default IFS, and
// SHELL: the user's login shell, a POSIX-style shell whatever its name), or
// whose value is only ever digits ($$, $RANDOM).
func (s *splitter) lookupVar(name string, st *state) (string, bool) {
	if v, ok := st.lookup(name); ok {
		return v, true
	}
	switch name {
	case "HOME":
		return s.opts.Home, s.opts.Home != ""
	case "PWD":
		return st.cwd, st.cwd != ""
	case "IFS":
		return " ", true // rm${IFS}-rf${IFS}~: the default separator splits the word
	case "SHELL":
		return "/bin/sh", true // $SHELL -c …, curl … | ${SHELL:-bash}: a shell
	case "$", "BASHPID", "RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "LINENO":
		// /tmp/build-$$.log, out-$RANDOM: digits, whatever they are (a
		// stand-in); never a separator, a slash or a glob.
		return "12345", true
	}
	return "", false
}

// absoluteVars are variables every shell has whose value starts with /.
var absoluteVars = map[string]bool{"PATH": true, "HOME": true, "PWD": true, "SHELL": true}

// validName reports a shell variable name.
func validName(v string) bool {
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// sliceLength is the literal length of ${v:off:len}, or -1.
func sliceLength(sl *syntax.Slice) int {
	if sl.Length == nil {
		return -1
	}
	w, ok := sl.Length.(*syntax.Word)
	if !ok || w.Lit() == "" || strings.Trim(w.Lit(), "0123456789") != "" {
		return -1
	}
	n, err := strconv.Atoi(w.Lit())
	if err != nil {
		return -1
	}
	return n
}

// sliceFirstChar reports ${v:0:1}.
func sliceFirstChar(sl *syntax.Slice) bool {
	w, ok := sl.Offset.(*syntax.Word)
	return ok && w.Lit() == "0" && sliceLength(sl) == 1
}

// trimPattern applies ${v%pat}, ${v%%pat}, ${v#pat} and ${v##pat} for
// patterns of literal text and * (the common ${f%.*}, ${f##*/}).
func trimPattern(v, pat string, op syntax.ParExpOperator) (string, bool) {
	if pat == "" || strings.ContainsAny(pat, "?[\\") {
		return "", false
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return "", false
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return "", false
	}
	match := re.MatchString
	switch op {
	case syntax.RemSmallSuffix:
		for i := len(v); i >= 0; i-- {
			if match(v[i:]) {
				return v[:i], true
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= len(v); i++ {
			if match(v[i:]) {
				return v[:i], true
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= len(v); i++ {
			if match(v[:i]) {
				return v[i:], true
			}
		}
	case syntax.RemLargePrefix:
		for i := len(v); i >= 0; i-- {
			if match(v[:i]) {
				return v[i:], true
			}
		}
	}
	return v, true
}

// tilde expands a leading ~ or ~/ when the home directory is known.
func (s *splitter) tilde(v string, st *state) string {
	rest := v[1:]
	if rest != "" && rest[0] != '/' {
		if rest == "+" || strings.HasPrefix(rest, "+/") {
			if st.cwd != "" {
				return st.cwd + rest[1:]
			}
		}
		return v
	}
	home, ok := st.lookup("HOME")
	if !ok {
		home = s.opts.Home
	}
	if home == "" {
		return v
	}
	return home + rest
}

// unescape writes v with its backslash escapes resolved for mode.
func unescape(b *strings.Builder, v string, mode int) {
	if !strings.ContainsRune(v, '\\') {
		b.WriteString(v)
		return
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		n := v[i+1]
		switch {
		case n == '\n':
			i++
		case mode == modeUnquoted:
			b.WriteByte(n)
			i++
		case n == '$' || n == '`' || n == '\\' || (n == '"' && mode == modeDouble):
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
}

// ansiC decodes the escapes of a $'…' string (the common ones).
func ansiC(v string) string {
	if !strings.ContainsRune(v, '\\') {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		i++
		switch n := v[i]; n {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x':
			j := i + 1
			for j < len(v) && j < i+3 && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			x, _ := strconv.ParseUint(v[i+1:j], 16, 8)
			b.WriteByte(byte(x))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j < i+3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			x, _ := strconv.ParseUint(v[i:j], 8, 16)
			b.WriteByte(byte(x))
			i = j - 1
		default:
			b.WriteByte(n)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// echoEscapes decodes the escapes echo -e and printf %b understand.
func echoEscapes(v string) string {
	if !strings.ContainsRune(v, '\\') {
		return v
	}
	if i := strings.Index(v, `\c`); i >= 0 {
		v = v[:i]
	}
	return ansiC(v)
}

// printfOut renders a printf call when it only uses %s, %b, %d and %%.
func printfOut(args []arg) (string, bool) {
	if len(args) > 0 && args[0].s == "--" && !args[0].dyn {
		args = args[1:] // printf -- FORMAT: the end of options
	}
	if len(args) == 0 || strings.HasPrefix(args[0].s, "-v") {
		return "", false // printf -v NAME assigns instead of printing
	}
	format := args[0].s
	rest := args[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' && i+1 < len(format) {
				j := i + 2
				switch n := format[i+1]; {
				case n == 'x': // \xHH
					for j < len(format) && j < i+4 && isHex(format[j]) {
						j++
					}
				case n >= '0' && n <= '7': // \NNN, \0NNN
					for j < len(format) && j < i+5 && format[j] >= '0' && format[j] <= '7' {
						j++
					}
					if n == '0' && j-i-1 > 1 {
						b.WriteString(ansiC(`\` + format[i+2:j]))
						i = j - 1
						continue
					}
				}
				b.WriteString(ansiC(format[i:j]))
				i = j - 1
				continue
			}
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			if i+1 >= len(format) {
				return "", false
			}
			i++
			var a string
			switch format[i] {
			case '%':
				b.WriteByte('%')
				continue
			case 's', 'd', 'i', 'u':
				if used < len(rest) {
					a = rest[used].s
				}
				used++
			case 'b':
				if used < len(rest) {
					a = echoEscapes(rest[used].s)
				}
				used++
			default:
				return "", false
			}
			b.WriteString(a)
		}
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
		if b.Len() > maxVarLen {
			return "", false
		}
	}
	return b.String(), true
}

// sliceValue is ${v:offset[:length]} with literal, non-negative numbers.
func sliceValue(v string, sl *syntax.Slice) (string, bool) {
	num := func(w syntax.ArithmExpr) (int, bool) {
		word, ok := w.(*syntax.Word)
		if !ok {
			return 0, false
		}
		lit := word.Lit()
		if lit == "" || strings.Trim(lit, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(lit)
		return n, err == nil
	}
	off, ok := num(sl.Offset)
	if !ok || off > len(v) {
		return "", false
	}
	v = v[off:]
	if sl.Length != nil {
		n, ok := num(sl.Length)
		if !ok {
			return "", false
		}
		v = v[:min(n, len(v))]
	}
	return v, true
}

// paramName is the name of a parameter expansion, or "".
func paramName(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	return p.Param.Value
}
