// The shell state the splitter tracks along a line: variables and their
// values, what is exported, and the working directory.

package shell

import "strings"

// state is what the shell remembers between commands: directory and variables.
type state struct {
	cwd  string
	vars []kv
	// params are the arguments of the function being run ($1 …, "$@");
	// nil outside a function called on the line.
	params []arg
}

// maxLoopItems bounds how many known values of a for loop the body is
// followed for, one pass each.
const maxLoopItems = 8

func (st *state) lookup(name string) (string, bool) {
	for i := len(st.vars) - 1; i >= 0; i-- {
		if st.vars[i].name == name {
			return st.vars[i].val, true
		}
	}
	return "", false
}

// ifs is the line's field separators: $IFS when the line set it, else
// blank, tab and newline.
func (st *state) ifs() string {
	if v, ok := st.lookup("IFS"); ok {
		return v
	}
	return " \t\n"
}

// fields splits the value of an unquoted expansion as the shell does,
// on the separators of $IFS.
func (st *state) fields(v string) []string {
	ifs := st.ifs()
	if ifs == " \t\n" {
		return strings.Fields(v)
	}
	return strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(ifs, r) })
}

func (st *state) isExported(name string) bool {
	for i := range st.vars {
		if st.vars[i].name == name {
			return st.vars[i].exported
		}
	}
	return false
}

func (st *state) set(name, val string, exported bool) {
	if len(val) > maxVarLen {
		st.unset(name)
		return
	}
	for i := range st.vars {
		if st.vars[i].name == name {
			st.vars[i].val = val
			st.vars[i].exported = st.vars[i].exported || exported
			return
		}
	}
	st.vars = append(st.vars, kv{name: name, val: val, exported: exported})
}

func (st *state) unset(name string) {
	for i := range st.vars {
		if st.vars[i].name == name {
			st.vars = append(st.vars[:i:i], st.vars[i+1:]...)
			return
		}
	}
}

func (st *state) clone() *state {
	c := &state{cwd: st.cwd, params: st.params}
	if len(st.vars) > 0 {
		c.vars = append([]kv(nil), st.vars...)
	}
	return c
}

// child is the state a new shell process starts with: exported variables only.
func (st *state) child(assigns map[string]string) *state {
	c := &state{cwd: st.cwd}
	for _, v := range st.vars {
		if v.exported {
			c.vars = append(c.vars, v)
		}
	}
	for k, v := range assigns {
		c.set(k, v, true)
	}
	return c
}

// merge folds a branch that may or may not have run into st: whatever the
// branch changed becomes unknown.
func (st *state) merge(b *state) {
	if b.cwd != st.cwd {
		st.cwd = ""
	}
	for _, v := range b.vars {
		if old, ok := st.lookup(v.name); !ok || old != v.val {
			st.unset(v.name)
		}
	}
	for i := 0; i < len(st.vars); i++ {
		if _, ok := b.lookup(st.vars[i].name); !ok {
			st.unset(st.vars[i].name)
			i--
		}
	}
}
