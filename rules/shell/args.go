// What a command does with its arguments: code it runs, directories it
// changes to, output it produces for the next command of a pipeline.

package shell

import (
	"path"
	"strings"
)

// isAssign reports whether v looks like NAME=value.
func isAssign(v string) bool {
	i := strings.IndexByte(v, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := v[j]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (j > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// xargsReplaces reports whether xargs options include -I or -i (replace mode).
func xargsReplaces(opts []arg) bool {
	for _, a := range opts[1:] {
		if strings.HasPrefix(a.s, "-I") || strings.HasPrefix(a.s, "-i") || strings.HasPrefix(a.s, "--replace") {
			return true
		}
	}
	return false
}

// shellCode finds the code a shell runs: the -c string, or stdin when no
// script file is named. via is "" when the shell runs a file or nothing.
func shellCode(args []arg, stdin *input) (*arg, string) {
	cflag, sflag := false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.dyn {
			break
		}
		v := a.s
		if v == "--" || v == "-" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			if v == "--rcfile" || v == "--init-file" {
				i++
			}
			continue
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') {
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					cflag = true
				case 's':
					sflag = true
				case 'o', 'O':
					i++
				}
			}
			continue
		}
		break
	}
	if cflag {
		if i < len(args) {
			a := args[i]
			return &a, viaBashC
		}
		return nil, ""
	}
	if i < len(args) && !sflag {
		return nil, "" // runs a script file
	}
	if stdin == nil || stdin.file {
		return nil, ""
	}
	if !stdin.known {
		return nil, stdin.via
	}
	via := stdin.via
	if via == "" {
		via = viaPipe
	}
	return &arg{s: stdin.text, dyn: stdin.dyn}, via
}

// optValue finds the value of -o VALUE / --long=VALUE / --long VALUE in args.
func optValue(args []arg, short, long string) (arg, bool) {
	for i, a := range args {
		switch {
		case a.s == "-"+short || a.s == "--"+long:
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(a.s, "--"+long+"="):
			v := a
			v.s = a.s[len(long)+3:]
			return v, true
		}
	}
	return arg{}, false
}

// clusterValue returns the value of a short option given last in a
// cluster of flags (-qc VALUE), or false when no cluster ends with it.
func clusterValue(args []arg, short byte) (arg, bool) {
	for i, a := range args {
		if a.s == "--" {
			break
		}
		if len(a.s) > 2 && a.s[0] == '-' && a.s[1] != '-' && a.s[len(a.s)-1] == short && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return arg{}, false
}

// joinArgs joins args with spaces, as eval does.
func joinArgs(args []arg) *arg { return joinWith(args, " ") }

// joinWith joins args with sep; the result is run-time or substituted when
// any piece is.
func joinWith(args []arg, sep string) *arg {
	out := &arg{}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(a.s)
		out.dyn = out.dyn || a.dyn
		out.subst = out.subst || a.subst
	}
	out.s = b.String()
	return out
}

// quoteArgs joins argv into one line of shell code, quoting each word, so
// that re-parsing gives the same words back.
func quoteArgs(args []arg) *arg {
	out := &arg{}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(a.s))
		out.dyn = out.dyn || a.dyn
		out.subst = out.subst || a.subst
	}
	out.s = b.String()
	return out
}

// containerExecArgs returns the command that docker|podman|nerdctl exec (or
// compose exec) runs inside a container, or nil.
func containerExecArgs(name string, args []arg) []arg {
	i := 0
	if name != "docker-compose" && i < len(args) && (args[i].s == "compose" || args[i].s == "container") {
		i++
	}
	for i < len(args) && strings.HasPrefix(args[i].s, "-") { // compose's own options
		switch args[i].s {
		case "-f", "-p", "--file", "--project-name", "--env-file":
			i++
		}
		i++
	}
	if i < len(args) && args[i].s == "run" {
		return containerRunArgs(args[i+1:])
	}
	if i >= len(args) || args[i].s != "exec" {
		return nil
	}
	i++
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		switch args[i].s {
		case "-u", "--user", "-e", "--env", "-w", "--workdir", "--env-file", "--index":
			i++
		}
		i++
	}
	i++ // the container or service
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// containerRunValueOpts are the options of docker/podman run and compose
// run that take a value as the next word.
var containerRunValueOpts = map[string]bool{
	"-a": true, "-c": true, "-e": true, "-h": true, "-l": true, "-m": true, "-p": true, "-u": true, "-v": true, "-w": true,
	"--add-host": true, "--annotation": true, "--attach": true, "--blkio-weight": true, "--cap-add": true, "--cap-drop": true,
	"--cgroup-parent": true, "--cgroupns": true, "--cidfile": true, "--cpu-period": true, "--cpu-quota": true,
	"--cpu-shares": true, "--cpus": true, "--cpuset-cpus": true, "--cpuset-mems": true, "--device": true,
	"--device-cgroup-rule": true, "--dns": true, "--dns-option": true, "--dns-search": true, "--domainname": true,
	"--entrypoint": true, "--env": true, "--env-file": true, "--expose": true, "--gpus": true, "--group-add": true,
	"--health-cmd": true, "--health-interval": true, "--health-retries": true, "--health-start-period": true,
	"--health-timeout": true, "--hostname": true, "--ip": true, "--ip6": true, "--ipc": true, "--isolation": true,
	"--label": true, "--label-file": true, "--link": true, "--log-driver": true, "--log-opt": true, "--mac-address": true,
	"--memory": true, "--memory-reservation": true, "--memory-swap": true, "--memory-swappiness": true, "--mount": true,
	"--name": true, "--network": true, "--net": true, "--network-alias": true, "--oom-score-adj": true, "--pid": true,
	"--pids-limit": true, "--platform": true, "--publish": true, "--pull": true, "--restart": true, "--runtime": true,
	"--security-opt": true, "--shm-size": true, "--stop-signal": true, "--stop-timeout": true, "--storage-opt": true,
	"--sysctl": true, "--tmpfs": true, "--ulimit": true, "--user": true, "--userns": true, "--uts": true, "--volume": true,
	"--volume-driver": true, "--volumes-from": true, "--workdir": true, "--index": true,
}

// containerRunArgs returns the command docker|podman run (or compose run)
// gives its new container: the words after the image (or service), with
// --entrypoint in front; nil when it runs the image's own command. An option
// it does not know is taken as a flag, so a misread leaves the image's name
// as the program: an unknown program, never a harmless one.
func containerRunArgs(args []arg) []arg {
	var entry *arg
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && args[i].s != "-" {
		v := args[i].s
		if v == "--" {
			i++
			break
		}
		if name, val, ok := strings.Cut(v, "="); ok {
			if name == "--entrypoint" {
				e := args[i]
				e.s = val
				entry = &e
			}
			i++
			continue
		}
		if containerRunValueOpts[v] && i+1 < len(args) {
			if v == "--entrypoint" {
				e := args[i+1]
				entry = &e
			}
			i += 2
			continue
		}
		i++
	}
	i++ // the image or service
	if i > len(args) {
		return nil
	}
	rest := args[i:]
	if entry != nil && entry.s != "" {
		rest = append([]arg{*entry}, rest...)
	}
	if len(rest) == 0 {
		return nil
	}
	return rest
}

func anyDyn(args []arg) bool {
	for _, a := range args {
		if a.dyn {
			return true
		}
	}
	return false
}

func anySubst(args []arg) bool {
	for _, a := range args {
		if a.subst {
			return true
		}
	}
	return false
}

func hasFileArgs(args []arg) bool {
	for _, a := range args {
		if a.s != "-" && !strings.HasPrefix(a.s, "-") {
			return true
		}
	}
	return false
}

// echoOut renders what echo writes.
func echoOut(args []arg) *input {
	newline, esc := true, false
	i := 0
	for ; i < len(args); i++ {
		v := args[i].s
		if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		for _, f := range v[1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
	}
	j := joinArgs(args[i:])
	if j.subst {
		return nil
	}
	t := j.s
	if esc {
		t = echoEscapes(t)
	}
	if newline {
		t += "\n"
	}
	return &input{text: t, known: true, dyn: j.dyn, via: viaPipe}
}

// chdir returns the directory after cd, pushd or popd.
func (s *splitter) chdir(name string, args []arg, st *state) string {
	if name == "popd" {
		return ""
	}
	var dir *arg
	for i := range args {
		a := &args[i]
		if a.dyn {
			return ""
		}
		if a.s == "--" {
			if i+1 < len(args) {
				dir = &args[i+1]
			}
			break
		}
		if len(a.s) > 1 && a.s[0] == '-' {
			continue // -L, -P, -e, -@
		}
		dir = a
		break
	}
	if dir == nil {
		if name == "pushd" {
			return "" // swaps the top two directories
		}
		home, ok := st.lookup("HOME")
		if !ok {
			home = s.opts.Home
		}
		if home == "" {
			return ""
		}
		return path.Clean(home)
	}
	if dir.dyn || dir.s == "-" || strings.HasPrefix(dir.s, "+") || strings.HasPrefix(dir.s, "~") {
		return ""
	}
	return joinCwd(st.cwd, dir.s)
}

// findExec emits the commands find runs with -exec, -execdir, -ok and -okdir.
func (s *splitter) findExec(args []arg, st *state, fr *frame) {
	for i := 0; i < len(args); i++ {
		switch args[i].s {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		dirMode := strings.HasSuffix(args[i].s, "dir")
		j := i + 1
		for j < len(args) && args[j].s != ";" && !(args[j].s == "+" && j > i+1 && args[j-1].s == "{}") {
			j++
		}
		if j > i+1 && !s.stop {
			cst := st.clone()
			if dirMode {
				cst.cwd = ""
			}
			sub := make([]arg, j-i-1)
			copy(sub, args[i+1:j])
			pi := s.newPipeline()
			c := Command{Cwd: cst.cwd, Depth: fr.depth, Via: viaFindExec, Pipeline: pi}
			if idx, _ := s.command(c, sub, cst, fr, nil); idx >= 0 {
				s.res.Pipelines[pi] = s.res.Commands[idx].Text
			}
		}
		i = j
	}
}

// shellCodeParams returns the positional parameters sh -c CODE NAME ARG…
// gives its code ($1 … are ARG…; NAME is $0): nil when args hold no -c code.
func shellCodeParams(args []arg) []arg {
	for i, a := range args {
		if a.dyn {
			return nil
		}
		if strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsRune(a.s[1:], 'c') {
			if i+2 < len(args) {
				return args[i+3:]
			}
			return nil
		}
	}
	return nil
}
