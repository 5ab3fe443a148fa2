package shell

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// ErrTooComplex is wrapped in Result.ParseError when a line holds more simple
// commands, nesting or expanded text than Split is willing to look at.
var ErrTooComplex = errors.New("command line too complex to split")

// Limits that bound the work done on one line.
const (
	// MaxCommands caps the number of simple commands Split reports for one line.
	MaxCommands = 500
	// maxNest bounds the recursion over nested syntax (subshells in subshells, …).
	maxNest = 100
	// maxVarLen bounds a tracked variable value; longer values become unknown.
	maxVarLen = 64 << 10
	// maxNestedSrc bounds the bytes of nested shell strings re-parsed per line.
	maxNestedSrc = 1 << 20
	// defaultMaxDepth is used when Options.MaxDepth is 0.
	defaultMaxDepth = 4
)

// Via values.
const (
	viaBashC    = "bash -c"
	viaEval     = "eval"
	viaPipe     = "pipe to shell"
	viaHeredoc  = "heredoc to shell"
	viaFindExec = "find -exec"
	viaXargs    = "xargs"
	viaCmdSubst = "command substitution"
	// ViaExportSubst is a command substitution whose output becomes
	// variables (export $(grep -v '^#' .env | xargs)): it is not printed.
	ViaExportSubst = "command substitution into export"
	// ViaBashC is the Via of the commands of sh -c / bash -c code.
	ViaBashC     = viaBashC
	viaProcSubst = "process substitution"
	viaWatch     = "watch"
	viaContainer = "container exec"
)

var parserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// Split parses line as a bash command line and returns every simple command it
// would run, unwrapped and normalized. It never executes anything, never panics
// and always returns a non-nil Result; on a parse error Result.ParseError is set
// and Result.Commands holds what could be recovered.
func Split(line string, opts Options) (res *Result) {
	res = &Result{Commands: make([]Command, 0, 4), Pipelines: make([]string, 0, 4)}
	s := &splitter{res: res, opts: opts, maxDepth: opts.MaxDepth}
	if s.maxDepth <= 0 {
		s.maxDepth = defaultMaxDepth
	}
	defer func() {
		if r := recover(); r != nil {
			res.ParseError = fmt.Errorf("shell: internal error while splitting: %v", r)
		}
		s.fixPipelines()
	}()
	st := &state{cwd: opts.Cwd}
	s.parseAndWalk(line, st, &frame{}, nil, "")
	for i := 0; i < len(s.funcs) && !s.stop; i++ {
		if d := s.funcs[i]; !d.called {
			d.called = true
			s.walkStmt(d.body, d.st, d.fr, nil)
		}
	}
	return res
}

// splitter holds the state of one Split call.
type splitter struct {
	res       *Result
	opts      Options
	maxDepth  int
	nest      int
	nestedSrc int
	stop      bool
	// loops are the for loops being walked whose values come from one
	// command substitution (see Command.Loops), innermost last.
	loops []loopVar
	// funcs are the shell functions defined so far on the line: a call
	// runs the body with the call's arguments ($1, "$@"), up to
	// maxFuncDepth calls deep.
	funcs     []*funcDef
	funcDepth int
	// aliasDepth counts aliases being expanded (an alias naming itself).
	aliasDepth int
	funcCalls  int // calls followed so far (at most maxFuncCalls)
}

// funcDef is a function defined on the line, where it was defined, and
// whether a call ran it.
type funcDef struct {
	name   string
	body   *syntax.Stmt
	st     *state
	fr     *frame
	called bool
}

// function returns the function name defined in fr (the latest
// definition), or nil.
func (s *splitter) function(name string, fr *frame) *funcDef {
	for i := len(s.funcs) - 1; i >= 0; i-- {
		if d := s.funcs[i]; d.name == name && d.fr == fr {
			return d
		}
	}
	return nil
}

// maxFuncDepth bounds nested function calls followed (a function calling
// itself stops there, and the call is then read as a program); maxFuncCalls
// bounds the calls followed on one line.
const (
	maxFuncDepth = 4
	maxFuncCalls = 64
)

// loopVar is a for loop's variable and the commands whose output it takes.
type loopVar struct {
	name   string
	lo, hi int
}

// frame is the context of one parsed source string.
type frame struct {
	src   string
	via   string
	depth int
}

// kv is one tracked shell variable.
type kv struct {
	name, val string
	exported  bool
}

// input is what a command reads on stdin; nil means nothing piped or redirected.
type input struct {
	text  string
	known bool // text is the content (with unknown variables in source form)
	dyn   bool // text holds parts only known at run time
	file  bool // read from a file (bash < script.sh)
	via   string
	// from, when not empty, is the range of Commands whose output this is
	// (the stages before a pipe, or a process substitution given as
	// stdin): a while-read loop's variable takes its lines in turn.
	from [2]int
}

var unknownPipe = &input{via: viaPipe}

// arg is one resolved word.
// defaultKey prefixes the state's names of variables assigned a
// variable's expansion with a literal default (D=${X:-/srv}): the text
// stands for them where they are used.
const defaultKey = "\x00default:"

// defaultedValueRe matches an assigned value that is one variable with a
// literal default, and literal text after it.
var defaultedValueRe = regexp.MustCompile(`^\$\{\w+:?[-=](?:\$HOME|\$\{HOME\})?[^}$\x60]*\}[^$\x60]*$`)

// aliasKey prefixes the state's names of aliases defined on the line (no
// variable name can hold the NUL byte).
const aliasKey = "\x00alias:"

// substKey prefixes the state's names of variables assigned one command
// substitution whose output is not known (cmd=$(curl -s …)): its text, for
// the variable run as a command.
const substKey = "\x00subst:"

// substVar returns the substitution a word that is one variable ($cmd,
// "${cmd}") was assigned on the line, when its output is not known.
func (s *splitter) substVar(w *syntax.Word, st *state) (string, bool) {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return "", false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Exp != nil || p.Slice != nil || p.Repl != nil || p.Index != nil || p.Length || p.Excl {
		return "", false
	}
	if _, known := st.lookup(p.Param.Value); known {
		return "", false
	}
	return st.lookup(substKey + p.Param.Value)
}

// spellsPipeline reports text whose words include a shell operator on its
// own ("|", "&&", ";", ">"…): a command line, not one command's words.
func spellsPipeline(text string) bool {
	for _, f := range strings.Fields(text) {
		switch f {
		case "|", "||", "&&", ";", ">", ">>", "<", "&", "|&":
			return true
		}
	}
	return false
}

type arg struct {
	s     string
	dyn   bool // contains a part known only at run time
	subst bool // contains a command or process substitution
	split bool // an unquoted expansion produced blanks (word splitting applies)
	// substID, when not 0, says the whole word is one command
	// substitution: Result.Substs[substID-1] are the commands it ran.
	substID int
}

// subst is a command list found inside a word, to be walked after its command.
type subst struct {
	stmts []*syntax.Stmt
	via   string
	id    int // see arg.substID; 0 when the word holds more than the substitution
}

func (s *splitter) tooComplex(what string) {
	s.stop = true
	if s.res.ParseError == nil {
		s.res.ParseError = fmt.Errorf("shell: %s: %w", what, ErrTooComplex)
	}
}

// parseAndWalk parses src and walks its statements.
func (s *splitter) parseAndWalk(src string, st *state, parent *frame, stdin *input, via string) {
	if s.stop {
		return
	}
	fr := &frame{src: src, via: via, depth: parent.depth}
	if via != "" {
		fr.depth++
		s.nestedSrc += len(src)
		if s.nestedSrc > maxNestedSrc {
			s.tooComplex("nested shell code")
			return
		}
	}
	p := parserPool.Get().(*syntax.Parser)
	defer parserPool.Put(p)
	f, err := p.Parse(strings.NewReader(src), "")
	if err == nil {
		s.walkStmts(f.Stmts, st, fr, stdin)
		return
	}
	if s.res.ParseError == nil {
		if via == "" {
			s.res.ParseError = fmt.Errorf("shell: parse command line: %w", err)
		} else {
			s.res.ParseError = fmt.Errorf("shell: parse nested shell code (%s, depth %d): %w", via, fr.depth, err)
		}
	}
	// Salvage: the statements that were complete before the error.
	var stmts []*syntax.Stmt
	for stmt, err := range p.StmtsSeq(strings.NewReader(src)) {
		if err != nil || stmt == nil {
			break
		}
		stmts = append(stmts, stmt)
	}
	s.walkStmts(stmts, st, fr, stdin)
}

func (s *splitter) walkStmts(stmts []*syntax.Stmt, st *state, fr *frame, stdin *input) {
	for _, stmt := range stmts {
		if s.stop {
			return
		}
		s.walkStmt(stmt, st, fr, stdin)
	}
}

func (s *splitter) walkStmt(stmt *syntax.Stmt, st *state, fr *frame, stdin *input) {
	if stmt == nil || s.stop {
		return
	}
	s.nest++
	defer func() { s.nest-- }()
	if s.nest > maxNest {
		s.res.DepthExceeded = true
		return
	}
	switch cmd := stmt.Cmd.(type) {
	case nil:
		// A statement made of redirections only ("> file" truncates it).
		s.pipeline([]*syntax.Stmt{stmt}, st, fr, stdin)
		return
	case *syntax.CallExpr:
		s.pipeline([]*syntax.Stmt{stmt}, st, fr, stdin)
		return
	case *syntax.BinaryCmd:
		if cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll {
			var elems []*syntax.Stmt
			elems = flattenPipe(cmd, elems)
			s.pipeline(elems, st, fr, stdin)
			return
		}
	}
	// A compound command: its redirections apply to every command inside.
	first := len(s.res.Commands)
	var subs []subst
	in, redirs := s.stmtRedirs(stmt, st, fr, &subs, stdin)
	if _, ok := stmt.Cmd.(*syntax.WhileClause); ok && len(subs) == 1 && stdinProcSubst(stmt) {
		// while read f; do …; done < <(git ls-files): the substitution
		// runs first, and the loop reads its lines.
		lo := len(s.res.Commands)
		s.walkSubsts(subs, st, fr)
		subs = nil
		in = &input{file: true, from: [2]int{lo, len(s.res.Commands)}}
		first = len(s.res.Commands)
	}
	s.compound(stmt, st, fr, in)
	if len(redirs) > 0 {
		for i := first; i < len(s.res.Commands); i++ {
			c := &s.res.Commands[i]
			if c.Depth == fr.depth && c.Via == fr.via {
				c.Redirects = append(c.Redirects, redirs...)
			}
		}
	}
	s.walkSubsts(subs, st, fr)
}

func flattenPipe(b *syntax.BinaryCmd, elems []*syntax.Stmt) []*syntax.Stmt {
	if x, ok := b.X.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && len(b.X.Redirs) == 0 && !b.X.Negated {
		elems = flattenPipe(x, elems)
	} else {
		elems = append(elems, b.X)
	}
	if y, ok := b.Y.Cmd.(*syntax.BinaryCmd); ok && (y.Op == syntax.Pipe || y.Op == syntax.PipeAll) && len(b.Y.Redirs) == 0 && !b.Y.Negated {
		elems = flattenPipe(y, elems)
	} else {
		elems = append(elems, b.Y)
	}
	return elems
}

// compound walks a statement that is not a simple command or a pipeline.
func (s *splitter) compound(stmt *syntax.Stmt, st *state, fr *frame, stdin *input) {
	switch cmd := stmt.Cmd.(type) {
	case *syntax.BinaryCmd: // && and ||
		left := len(s.res.Commands)
		s.walkStmt(cmd.X, st, fr, stdin)
		right := len(s.res.Commands)
		s.walkStmt(cmd.Y, st, fr, stdin)
		if cmd.Op == syntax.AndStmt {
			for i := right; i < len(s.res.Commands); i++ {
				for j := left; j < right; j++ {
					s.res.Commands[i].After = append(s.res.Commands[i].After, j)
				}
			}
		}
	case *syntax.Subshell:
		s.walkStmts(cmd.Stmts, st.clone(), fr, stdin)
	case *syntax.Block:
		s.walkStmts(cmd.Stmts, st, fr, stdin)
	case *syntax.IfClause:
		s.walkStmts(cmd.Cond, st, fr, stdin)
		b := st.clone()
		s.walkStmts(cmd.Then, b, fr, stdin)
		st.merge(b)
		if cmd.Else != nil {
			b := st.clone()
			s.compound(&syntax.Stmt{Cmd: cmd.Else}, b, fr, stdin)
			st.merge(b)
		}
	case *syntax.WhileClause:
		b := st.clone()
		if name := readLoopVar(cmd); name != "" && stdin != nil && stdin.from[0] < stdin.from[1] {
			// while read f: "$f" is each line of what feeds the loop.
			s.loops = append(s.loops, loopVar{name: name, lo: stdin.from[0], hi: stdin.from[1]})
			s.walkStmts(cmd.Cond, b, fr, stdin)
			s.walkStmts(cmd.Do, b, fr, stdin)
			s.loops = s.loops[:len(s.loops)-1]
		} else {
			s.walkStmts(cmd.Cond, b, fr, stdin)
			s.walkStmts(cmd.Do, b, fr, stdin)
		}
		st.merge(b)
	case *syntax.ForClause:
		var subs []subst
		var items []string // the loop's values, when every one is known
		known := true
		fromSubst := false // for f in $(cmd): the values are cmd's output words
		switch l := cmd.Loop.(type) {
		case *syntax.WordIter:
			for _, w := range braced(l.Items) {
				a := s.word(w, st, fr, &subs)
				items = append(items, a.s)
				known = known && !a.dyn && !a.split
			}
			if l.Name != nil {
				st.unset(l.Name.Value)
			}
			known = known && l.Name != nil && len(l.Items) > 0 && len(l.Items) <= maxLoopItems
			fromSubst = l.Name != nil && len(l.Items) == 1 && len(l.Items[0].Parts) == 1 && len(subs) == 1
			if fromSubst {
				_, fromSubst = l.Items[0].Parts[0].(*syntax.CmdSubst)
			}
		case *syntax.CStyleLoop:
			collectSubsts(l, &subs)
			known = false
		}
		lo := len(s.res.Commands)
		s.walkSubsts(subs, st, fr)
		if fromSubst && !known && len(s.res.Commands) > lo {
			s.loops = append(s.loops, loopVar{name: cmd.Loop.(*syntax.WordIter).Name.Value, lo: lo, hi: len(s.res.Commands)})
			b := st.clone()
			s.walkStmts(cmd.Do, b, fr, stdin)
			st.merge(b)
			s.loops = s.loops[:len(s.loops)-1]
			break
		}
		if known {
			// for f in src/*.ts a.txt; do …: the body once per value, so
			// "$f" is what it will be (a glob stays a glob).
			name := cmd.Loop.(*syntax.WordIter).Name.Value
			for _, it := range items {
				b := st.clone()
				b.set(name, it, false)
				s.walkStmts(cmd.Do, b, fr, stdin)
				b.unset(name)
				st.merge(b)
			}
			break
		}
		b := st.clone()
		s.walkStmts(cmd.Do, b, fr, stdin)
		st.merge(b)
	case *syntax.CaseClause:
		var subs []subst
		s.word(cmd.Word, st, fr, &subs)
		for _, it := range cmd.Items {
			for _, p := range it.Patterns {
				s.word(p, st, fr, &subs)
			}
		}
		s.walkSubsts(subs, st, fr)
		for _, it := range cmd.Items {
			b := st.clone()
			s.walkStmts(it.Stmts, b, fr, stdin)
			st.merge(b)
		}
	case *syntax.FuncDecl:
		// Defining a function runs nothing; each call on the line runs
		// its body with the call's arguments (see call). A body never
		// called is still read once at the end, its arguments unknown.
		if cmd.Name != nil && len(s.funcs) < MaxCommands {
			s.funcs = append(s.funcs, &funcDef{name: cmd.Name.Value, body: cmd.Body, st: st.clone(), fr: fr})
		} else {
			s.walkStmt(cmd.Body, st.clone(), fr, nil)
		}
	case *syntax.DeclClause:
		s.decl(stmt, cmd, st, fr)
	case *syntax.TimeClause:
		s.walkStmt(cmd.Stmt, st, fr, stdin)
	case *syntax.CoprocClause:
		s.walkStmt(cmd.Stmt, st.clone(), fr, nil)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		var subs []subst
		collectSubsts(cmd, &subs)
		s.walkSubsts(subs, st, fr)
	default:
		var subs []subst
		if cmd != nil {
			collectSubsts(cmd, &subs)
		}
		s.walkSubsts(subs, st, fr)
	}
}

// collectSubsts finds the command and process substitutions under n.
func collectSubsts(n syntax.Node, subs *[]subst) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			*subs = append(*subs, subst{stmts: x.Stmts, via: viaCmdSubst})
			return false
		case *syntax.ProcSubst:
			*subs = append(*subs, subst{stmts: x.Stmts, via: viaProcSubst})
			return false
		}
		return true
	})
}

func (s *splitter) walkSubsts(subs []subst, st *state, fr *frame) {
	for _, sb := range subs {
		if s.stop {
			return
		}
		sf := &frame{src: fr.src, via: sb.via, depth: fr.depth}
		lo := len(s.res.Commands)
		s.walkStmts(sb.stmts, st.clone(), sf, nil)
		if sb.id > 0 {
			s.res.Substs[sb.id-1] = [2]int{lo, len(s.res.Commands)}
		}
	}
}

// decl handles export, declare, local, readonly and typeset.
func (s *splitter) decl(stmt *syntax.Stmt, d *syntax.DeclClause, st *state, fr *frame) {
	var subs []subst
	name := "declare"
	if d.Variant != nil {
		name = d.Variant.Value
	}
	exported := name == "export"
	var args []arg
	for _, a := range d.Args {
		if a.Name == nil {
			if a.Value != nil {
				v := s.word(a.Value, st, fr, &subs)
				if !v.dyn && strings.HasPrefix(v.s, "-") && strings.Contains(v.s, "x") {
					exported = true
				}
				args = append(args, v)
			}
			continue
		}
	}
	for _, a := range d.Args {
		if a.Name == nil {
			continue
		}
		n := a.Name.Value
		if a.Naked {
			args = append(args, arg{s: n})
			if exported {
				if v, ok := st.lookup(n); ok {
					st.set(n, v, true)
				}
			}
			continue
		}
		v := s.assignValue(a, st, fr, &subs)
		args = append(args, arg{s: n + "=" + v.s, dyn: v.dyn, subst: v.subst})
		if v.dyn {
			st.unset(n)
		} else {
			st.set(n, v.s, exported)
		}
	}
	_, redirs := s.stmtRedirs(stmt, st, fr, &subs, nil)
	pi := s.newPipeline()
	idx := s.emit(Command{Name: name, Cwd: st.cwd, Depth: fr.depth, Via: fr.via, Pipeline: pi, Redirects: redirs}, args)
	if idx >= 0 {
		s.res.Pipelines[pi] = s.res.Commands[idx].Text
	}
	if name == "export" {
		for i := range subs {
			if subs[i].via == viaCmdSubst {
				subs[i].via = ViaExportSubst
			}
		}
	}
	s.walkSubsts(subs, st, fr)
}

func (s *splitter) assignValue(a *syntax.Assign, st *state, fr *frame, subs *[]subst) arg {
	var v arg
	switch {
	case a.Array != nil:
		collectSubsts(a.Array, subs)
		v = arg{s: srcText(fr.src, a.Array.Pos(), a.Array.End()), dyn: true}
		if a.Name != nil {
			// cmd=(rm -rf "$HOME"): the elements, when every one is known,
			// for "${cmd[@]}" and ${cmd[0]} to read back.
			st.unset(arrayVar + a.Name.Value)
			var elems []string
			known := !a.Append
			for _, e := range a.Array.Elems {
				if e.Index != nil || e.Value == nil {
					known = false
					break
				}
				ev := s.word(e.Value, st, fr, &[]subst{})
				if ev.dyn || ev.split {
					known = false
					break
				}
				elems = append(elems, ev.s)
			}
			if known && len(elems) > 0 {
				st.set(arrayVar+a.Name.Value, strings.Join(elems, "\x00"), false)
			}
		}
	case a.Value != nil:
		v = s.word(a.Value, st, fr, subs)
	}
	if a.Index != nil {
		collectSubsts(a.Index, subs)
		v.dyn = true
	}
	if a.Append && !v.dyn {
		if old, ok := st.lookup(a.Name.Value); ok {
			v.s = old + v.s
		} else {
			v.dyn = true
			v.s = "$" + a.Name.Value + v.s
		}
	}
	return v
}

// pipeline walks the elements of one pipeline (one element for a lone command).
func (s *splitter) pipeline(elems []*syntax.Stmt, st *state, fr *frame, stdin *input) {
	pi := s.newPipeline()
	var text strings.Builder
	in := stdin
	first := len(s.res.Commands)
	for i, e := range elems {
		if s.stop {
			break
		}
		est := st
		if len(elems) > 1 {
			est = st.clone() // every element of a pipeline runs in a subshell
		}
		if i > 0 {
			text.WriteString(" | ")
		}
		var out *input
		switch e.Cmd.(type) {
		case *syntax.CallExpr, nil:
			var idx int
			idx, out = s.call(e, est, fr, in, pi)
			if idx >= 0 {
				text.WriteString(s.res.Commands[idx].Text)
			} else {
				text.WriteString(strings.TrimSpace(srcText(fr.src, e.Pos(), e.End())))
			}
		default:
			before := len(s.res.Commands)
			s.walkStmt(e, est, fr, in)
			text.WriteString(strings.TrimSpace(srcText(fr.src, e.Pos(), e.End())))
			if i+1 < len(elems) && feedsScheduler(elems[i+1]) {
				// (crontab -l; echo "*/5 * * * * …") | crontab -: the lines
				// the group adds are known, the rest is not (dyn).
				var known strings.Builder
				for _, c := range s.res.Commands[before:] {
					if c.OutputKnown {
						known.WriteString(c.Output)
					}
				}
				if known.Len() > 0 {
					out = &input{text: known.String(), known: true, dyn: true, via: viaPipe}
				}
			}
		}
		if i+1 < len(elems) {
			if out == nil {
				out = unknownPipe
			}
			in = out
			if _, ok := elems[i+1].Cmd.(*syntax.WhileClause); ok {
				fed := *in
				fed.from = [2]int{first, len(s.res.Commands)}
				in = &fed
			}
		}
	}
	s.res.Pipelines[pi] = text.String()
}

// call handles one simple command (or a redirection-only statement).
// It returns the index of the command it emitted (-1 if none) and its output
// when that output is known (echo, printf, cat of a heredoc).
func (s *splitter) call(stmt *syntax.Stmt, st *state, fr *frame, stdin *input, pi int) (int, *input) {
	var subs []subst
	defer func() { s.walkSubsts(subs, st, fr) }()
	ce, _ := stmt.Cmd.(*syntax.CallExpr)
	var assigns map[string]string
	var dynAssign []string
	var substAssign map[string]string // NAME=$(…): the substitution's text
	if ce != nil && len(ce.Assigns) > 0 {
		assigns = make(map[string]string, len(ce.Assigns))
		for _, a := range ce.Assigns {
			if a.Name == nil {
				continue
			}
			v := s.assignValue(a, st, fr, &subs)
			assigns[a.Name.Value] = v.s
			if v.dyn {
				dynAssign = append(dynAssign, a.Name.Value)
				if a.Value != nil && a.Index == nil && !a.Append && oneCmdSubst(a.Value) {
					if substAssign == nil {
						substAssign = map[string]string{}
					}
					substAssign[a.Name.Value] = srcText(fr.src, a.Value.Pos(), a.Value.End())
				}
			}
		}
	}
	var argv []arg
	if ce != nil {
		argv = make([]arg, 0, len(ce.Args))
		for _, w := range braced(ce.Args) {
			if st.params != nil && allParams(w) {
				// "$@" inside a function called on this line, or after set --:
				// its arguments.
				argv = append(argv, st.params...)
				continue
			}
			if elems, ok := wholeArray(w, st); ok {
				// "${cmd[@]}": the elements of an array the line set.
				for _, e := range elems {
					argv = append(argv, arg{s: e})
				}
				continue
			}
			if len(argv) == 0 && fr.via != viaEval {
				if text, ok := s.substVar(w, st); ok {
					// cmd=$(curl -s …); $cmd: the program is what the
					// substitution prints, run as eval would run it.
					argv = append(argv, arg{s: "eval"}, arg{s: text})
					continue
				}
			}
			n0 := len(subs)
			v := s.word(w, st, fr, &subs)
			if len(subs) == n0+1 && oneCmdSubst(w) {
				// $(git ls-files '*.ts') as a whole argument: which commands
				// produce it is kept (Command.SubstArgs).
				s.res.Substs = append(s.res.Substs, [2]int{-1, -1})
				subs[n0].id = len(s.res.Substs)
				v.substID = subs[n0].id
			}
			if v.split && len(argv) == 0 && !v.dyn && spellsPipeline(v.s) {
				// cmd=$(echo … | base64 -d); $cmd: a variable that holds a
				// pipeline, run as a command. Word splitting alone would
				// pass "|" as an argument, but the text was written to be
				// code: it is read as eval would run it.
				argv = append(argv, arg{s: "eval"}, arg{s: v.s})
				continue
			}
			if v.split {
				for _, f := range st.fields(v.s) {
					argv = append(argv, arg{s: f, dyn: v.dyn, subst: v.subst})
				}
				continue
			}
			argv = append(argv, v)
		}
	}
	in, redirs := s.stmtRedirs(stmt, st, fr, &subs, stdin)
	if len(argv) == 0 {
		// A bare assignment (persists in the shell) or redirections alone.
		for name, v := range assigns {
			if slices.Contains(dynAssign, name) {
				st.unset(name)
				if defaultedValueRe.MatchString(v) {
					// D=${TARGET_DIR:-$HOME}: a later $D is that expansion,
					// its default visible to what reads the path.
					st.set(defaultKey+name, v, false)
				} else {
					st.unset(defaultKey + name)
				}
				if text, ok := substAssign[name]; ok {
					st.set(substKey+name, text, false)
				} else {
					st.unset(substKey + name)
				}
			} else {
				st.set(name, v, st.isExported(name))
				st.unset(defaultKey + name)
				st.unset(substKey + name)
			}
		}
		c := Command{Assigns: assigns, Redirects: redirs, Cwd: st.cwd, Depth: fr.depth, Via: fr.via, Pipeline: pi}
		c.Text = assignText(assigns, dynAssign, ce)
		return s.emit(c, nil), nil
	}
	if argv[0].s == "alias" && !argv[0].dyn {
		// alias t='bundle exec rspec': remembered, so that a later t on the
		// line is read as what it stands for.
		for _, a := range argv[1:] {
			if name, val, ok := strings.Cut(a.s, "="); ok && !a.dyn && name != "" && !strings.ContainsAny(name, " \t/$") {
				st.set(aliasKey+name, val, false)
			}
		}
	} else if val, ok := st.lookup(aliasKey + argv[0].s); ok && !argv[0].dyn && s.aliasDepth < maxFuncDepth {
		// t spec/models after alias t='bundle exec rspec': the alias's text
		// with the arguments after it, read as the shell would expand it.
		if words := strings.Fields(val); len(words) > 0 && !strings.ContainsAny(val, "|;&<>$`'\"\\(){}*?[#~") {
			// Plain words: they stand in for the name, the arguments after
			// them keep what is known of them.
			expanded := make([]arg, 0, len(words)+len(argv)-1)
			for _, w := range words {
				expanded = append(expanded, arg{s: w})
			}
			argv = append(expanded, argv[1:]...)
		} else {
			code := val
			if len(argv) > 1 {
				code += " " + quoteArgs(argv[1:]).s
			}
			argv = []arg{{s: "eval"}, {s: code, dyn: len(argv) > 1 && quoteArgs(argv[1:]).dyn}}
			s.aliasDepth++
			defer func() { s.aliasDepth-- }()
		}
	}
	if argv[0].s == "printf" && !argv[0].dyn {
		// printf -v c '%s' r m: c holds what printf would have printed.
		if name, rest, ok := printfTarget(argv[1:]); ok {
			if out, known := printfOut(rest); known && !anyDyn(rest) && len(out) <= maxVarLen {
				st.set(name, out, st.isExported(name))
			} else {
				st.unset(name)
			}
			st.unset(defaultKey + name)
			st.unset(substKey + name)
		}
	}
	if def := s.function(argv[0].s, fr); def != nil && !argv[0].dyn && s.funcDepth < maxFuncDepth && s.funcCalls < maxFuncCalls {
		// f(){ rm -rf "$1"/*; }; f ~: the body runs with the arguments.
		def.called = true
		s.funcCalls++
		body := def.body
		s.funcDepth++
		b := st.clone()
		b.params = append([]arg{}, argv[1:]...)
		for i := 1; i <= 9; i++ {
			if i < len(argv) && !argv[i].dyn {
				b.set(strconv.Itoa(i), argv[i].s, false)
			} else if i < len(argv) {
				b.unset(strconv.Itoa(i))
			} else {
				b.set(strconv.Itoa(i), "", false)
			}
		}
		b.set("#", strconv.Itoa(len(argv)-1), false)
		s.walkStmt(body, b, fr, in)
		s.funcDepth--
		for i := 1; i <= 9; i++ {
			b.unset(strconv.Itoa(i))
		}
		b.unset("#")
		b.params = st.params
		st.merge(b)
		return -1, nil
	}
	c := Command{Assigns: assigns, Redirects: redirs, Cwd: st.cwd, Depth: fr.depth, Via: fr.via, Pipeline: pi}
	return s.command(c, argv, st, fr, in)
}

// printfTarget splits printf's arguments at -v NAME (or -vNAME): the
// variable it assigns and the format and values after it.
func printfTarget(args []arg) (name string, rest []arg, ok bool) {
	if len(args) == 0 || args[0].dyn || !strings.HasPrefix(args[0].s, "-v") {
		return "", nil, false
	}
	name, rest = strings.TrimPrefix(args[0].s, "-v"), args[1:]
	if name == "" {
		if len(rest) == 0 || rest[0].dyn {
			return "", nil, false
		}
		name, rest = rest[0].s, rest[1:]
	}
	if len(rest) > 0 && rest[0].s == "--" && !rest[0].dyn {
		rest = rest[1:]
	}
	return name, rest, validName(name)
}

// oneCmdSubst reports a word that is one command substitution, quoted or
// not: $(…), "$(…)" or `…`.
func oneCmdSubst(w *syntax.Word) bool {
	var only syntax.WordPart
	n := 0
	var walk func(parts []syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.SglQuoted:
				if p.Value == "" {
					continue // '' adds nothing: ''"$(env)"''
				}
			case *syntax.DblQuoted:
				walk(p.Parts)
				continue
			}
			only = p
			n++
		}
	}
	walk(w.Parts)
	if n != 1 {
		return false
	}
	_, ok := only.(*syntax.CmdSubst)
	return ok
}

// allParams reports the word $@ or "$@" (also $*): every argument of the
// function being run, each its own word.
func allParams(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			if len(dq.Parts) != 1 {
				return false
			}
			parts = dq.Parts
			if pe, ok := parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "*" {
				return false // "$*" is one word
			}
		}
	}
	if len(parts) != 1 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && (pe.Param.Value == "@" || pe.Param.Value == "*") && !pe.Excl && !pe.Length &&
		pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil && len(pe.Modifiers) == 0
}

// readLoopVar returns the one variable of a `while read VAR` loop (read
// with -r, IFS= before it), or "".
func readLoopVar(w *syntax.WhileClause) string {
	if w.Until || len(w.Cond) != 1 || len(w.Cond[0].Redirs) > 0 {
		return ""
	}
	ce, ok := w.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || ce.Args[0].Lit() != "read" {
		return ""
	}
	for _, a := range ce.Assigns {
		if a.Name == nil || a.Name.Value != "IFS" {
			return ""
		}
	}
	name := ""
	for _, a := range ce.Args[1:] {
		lit := a.Lit()
		switch {
		case lit == "-r":
		case lit != "" && !strings.HasPrefix(lit, "-") && name == "" && shellName(lit):
			name = lit
		default:
			return ""
		}
	}
	return name
}

// stdinProcSubst reports a statement whose stdin is one process
// substitution (… < <(cmd)).
func stdinProcSubst(stmt *syntax.Stmt) bool {
	if len(stmt.Redirs) != 1 {
		return false
	}
	r := stmt.Redirs[0]
	if r.Op != syntax.RdrIn || r.N != nil && r.N.Value != "0" || r.Word == nil || len(r.Word.Parts) != 1 {
		return false
	}
	_, ok := r.Word.Parts[0].(*syntax.ProcSubst)
	return ok
}

// shellName reports a valid shell variable name.
func shellName(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// feedsScheduler reports a pipeline stage that is crontab, at or batch: the
// known part of what a group feeds them is kept for the analysis of what
// they schedule (which only looks for dangers in it).
func feedsScheduler(stmt *syntax.Stmt) bool {
	ce, ok := stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	switch ce.Args[0].Lit() {
	case "crontab", "at", "batch":
		return true
	}
	return false
}

// arrayVar prefixes the state entry that holds an array's known elements,
// NUL-separated (no variable name can start with it).
const arrayVar = "[]"

// wholeArray returns the elements of "${name[@]}" (or ${name[@]}) when the
// line set the array with known elements.
func wholeArray(w *syntax.Word, st *state) ([]string, bool) {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return nil, false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Index == nil || pe.Excl || pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil {
		return nil, false
	}
	if idx, ok := pe.Index.(*syntax.Word); !ok || idx.Lit() != "@" && idx.Lit() != "*" {
		return nil, false
	}
	v, ok := st.lookup(arrayVar + pe.Param.Value)
	if !ok {
		return nil, false
	}
	return strings.Split(v, "\x00"), true
}

// IsShell reports a shell program (sh, bash, zsh, …) by its name.
func IsShell(name string) bool { return shells[name] }
