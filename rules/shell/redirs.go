// Redirections, heredocs, and how commands and pipelines are recorded.

package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func (s *splitter) newPipeline() int {
	s.res.Pipelines = append(s.res.Pipelines, "")
	return len(s.res.Pipelines) - 1
}

// fixPipelines makes sure every Command.Pipeline indexes Result.Pipelines
// (even after a recovered panic).
func (s *splitter) fixPipelines() {
	for i := range s.res.Commands {
		c := &s.res.Commands[i]
		if c.Pipeline < 0 || c.Pipeline >= len(s.res.Pipelines) {
			c.Pipeline = len(s.res.Pipelines)
			s.res.Pipelines = append(s.res.Pipelines, c.Text)
		} else if s.res.Pipelines[c.Pipeline] == "" && c.Text != "" {
			s.res.Pipelines[c.Pipeline] = c.Text
		}
	}
}

// stmtRedirs resolves the redirections of a statement: the file ones are
// returned, and stdin (heredoc, here-string, < file) replaces in.
func (s *splitter) stmtRedirs(stmt *syntax.Stmt, st *state, fr *frame, subs *[]subst, in *input) (*input, []Redirect) {
	var redirs []Redirect
	for _, r := range stmt.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			in = s.heredoc(r, st, fr, subs)
			continue
		case syntax.WordHdoc:
			v := s.word(r.Word, st, fr, subs)
			in = &input{text: v.s + "\n", known: !v.subst, dyn: v.dyn, via: viaHeredoc}
			continue
		}
		if r.Word == nil {
			continue
		}
		t := s.word(r.Word, st, fr, subs)
		op := r.Op.String()
		if r.Op == syntax.DplOut || r.Op == syntax.DplIn {
			if isFD(t.s) {
				continue
			}
		}
		if r.N != nil {
			op = r.N.Value + op
		}
		redirs = append(redirs, Redirect{Op: op, Target: t.s})
		if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") {
			in = &input{file: true}
		}
	}
	return in, redirs
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// heredoc resolves a here-document body.
func (s *splitter) heredoc(r *syntax.Redirect, st *state, fr *frame, subs *[]subst) *input {
	if r.Hdoc == nil {
		return &input{text: "", known: true, via: viaHeredoc}
	}
	quoted := r.Word != nil && (len(r.Word.Parts) != 1 || strings.ContainsRune(r.Word.Lit(), '\\') || r.Word.Lit() == "")
	if quoted {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			} else {
				b.WriteString(srcText(fr.src, p.Pos(), p.End()))
			}
		}
		return &input{text: b.String(), known: true, via: viaHeredoc}
	}
	var w wordBuf
	s.parts(&w, r.Hdoc.Parts, modeHeredoc, st, fr, subs)
	return &input{text: w.b.String(), known: !w.subst, dyn: w.dyn, via: viaHeredoc}
}

// emit appends c with the given args, building its Text. It returns the
// index of the command, or -1 when the command cap was reached.
func (s *splitter) emit(c Command, args []arg) int {
	if s.stop {
		return -1
	}
	if len(s.res.Commands) >= MaxCommands {
		s.tooComplex(fmt.Sprintf("more than %d commands", MaxCommands))
		return -1
	}
	if len(args) > 0 {
		c.Args = make([]string, len(args))
		c.DynamicArgs = make([]bool, len(args))
		for i, a := range args {
			c.Args[i] = a.s
			c.DynamicArgs[i] = a.dyn
			if a.substID > 0 {
				if c.SubstArgs == nil {
					c.SubstArgs = map[int]int{}
				}
				c.SubstArgs[i] = a.substID - 1
			}
		}
	} else {
		c.Args = []string{}
		c.DynamicArgs = []bool{}
	}
	if c.Name != "" {
		c.Text = CommandText(c.Name, c.DynamicName, c.Args, c.DynamicArgs)
	}
	if len(s.loops) > 0 {
		c.Loops = make(map[string][2]int, len(s.loops))
		for _, l := range s.loops {
			c.Loops[l.name] = [2]int{l.lo, l.hi} // an inner loop's name wins
		}
	}
	s.res.Commands = append(s.res.Commands, c)
	return len(s.res.Commands) - 1
}
