// Programs that take a command as an argument and run it later, elsewhere or
// through another program: trap handlers, ssh's remote command, git's exec
// hooks, terminal multiplexers and cluster exec. Their command is split like
// the code of sh -c, so what it runs is seen by the rules, not left as an
// opaque string.

package shell

import (
	"slices"
	"strings"
)

// Via values of the runners.
const (
	viaTrap     = "trap"
	viaRemote   = "ssh remote command"
	viaGitExec  = "git exec"
	viaTerminal = "terminal multiplexer"
	viaRunner   = "project runner"
)

// projectRunners are tools that run a command in a project's environment,
// with the subcommand that does it (uv run, bundle exec, pnpm exec): the
// command itself is decided by the program table; a shell with -c among its
// arguments, or a code option of its own (npx -c, nix-shell --run), is code
// split here so that what it runs is seen.
var projectRunners = map[string][]string{
	"uv": {"run", "tool"}, "poetry": {"run"}, "pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"},
	"conda": {"run"}, "mamba": {"run"}, "micromamba": {"run"}, "pixi": {"run", "exec"}, "bundle": {"exec"},
	"bundler": {"exec"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "npm": {"exec", "x"}, "bun": {"x", "run"},
	"mise": {"exec", "x"}, "rtx": {"exec", "x"}, "asdf": {"exec"}, "devbox": {"run"}, "direnv": {"exec"},
	"nix": {"develop", "shell"}, "nix-shell": nil, "npx": nil, "pnpx": nil, "bunx": nil, "uvx": nil, "pipx": {"run"},
}

// projectRunnerCode returns the code a project runner is given, or nil.
func projectRunnerCode(name string, args []arg) *arg {
	subs, ok := projectRunners[name]
	if !ok {
		return nil
	}
	if subs != nil {
		if len(args) == 0 || !slices.Contains(subs, args[0].s) {
			return nil
		}
		args = args[1:]
	}
	for i, a := range args {
		// npx -c CMD, npm exec --call CMD, nix-shell --run CMD, nix develop -c CMD…
		switch {
		case (a.s == "-c" || a.s == "--call") && (name == "npx" || name == "npm") && i+1 < len(args):
			c := args[i+1]
			return &c
		case (a.s == "--run" || a.s == "--command") && name == "nix-shell" && i+1 < len(args):
			c := args[i+1]
			return &c
		case (a.s == "-c" || a.s == "--command") && name == "nix" && i+1 < len(args):
			return joinArgs(args[i+1:])
		}
		if shells[baseName(a.s)] && i+2 < len(args) && args[i+1].s == "-c" {
			// uv run --with rich sh -c 'CODE': the shell's code.
			c := args[i+2]
			return &c
		}
	}
	return nil
}

// runnerCode returns the shell code a runner program will run, how it is
// reached, and whether it runs on another machine or in a container (where
// the working directory is not ours).
func runnerCode(name string, args []arg) (code *arg, via string, elsewhere bool) {
	if c := projectRunnerCode(name, args); c != nil {
		return c, viaRunner, false
	}
	switch name {
	case "trap":
		// trap [-lp] [[ACTION] SIGNAL...]: the action is shell code.
		i := 0
		for i < len(args) && strings.HasPrefix(args[i].s, "-") && args[i].s != "-" && args[i].s != "--" {
			if args[i].s == "-l" || args[i].s == "-p" {
				return nil, "", false
			}
			i++
		}
		if i < len(args) && args[i].s == "--" {
			i++
		}
		if i+1 < len(args) && args[i].s != "-" && args[i].s != "" {
			a := args[i]
			return &a, viaTrap, false
		}
	case "ssh":
		if rest := sshCommandArgs(args); len(rest) > 0 {
			// ssh joins its arguments with spaces and the remote shell
			// parses the result, as eval does.
			return joinArgs(rest), viaRemote, true
		}
	case "git":
		return gitExecCode(args)
	case "screen":
		return screenCode(args)
	case "tmux":
		return tmuxCode(args)
	case "kubectl", "oc":
		if rest := kubectlExecArgs(args); len(rest) > 0 {
			return quoteArgs(rest), viaContainer, true
		}
	case "gcloud":
		// gcloud compute ssh VM --command 'CMD' (also --command=CMD): CMD
		// runs on the VM.
		if len(args) > 2 && args[0].s == "compute" && args[1].s == "ssh" {
			for i, a := range args {
				if a.s == "--command" && i+1 < len(args) && !args[i+1].dyn {
					c := args[i+1]
					return &c, viaRemote, true
				}
				if v, ok := strings.CutPrefix(a.s, "--command="); ok && !a.dyn {
					return &arg{s: v}, viaRemote, true
				}
			}
		}
	case "heroku":
		// heroku run [--app APP] CMD…: CMD runs in a one-off dyno.
		if len(args) > 1 && (args[0].s == "run" || args[0].s == "run:detached") {
			rest := args[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
				if !strings.Contains(rest[0].s, "=") && (rest[0].s == "-a" || rest[0].s == "--app" || rest[0].s == "-r" ||
					rest[0].s == "--remote" || rest[0].s == "-s" || rest[0].s == "--size" || rest[0].s == "-e" || rest[0].s == "--env") {
					rest = rest[1:]
				}
				if len(rest) > 0 {
					rest = rest[1:]
				}
			}
			if len(rest) > 0 {
				return joinArgs(rest), viaRemote, true
			}
		}
	case "fly", "flyctl":
		// fly ssh console -a APP -C 'CMD' (--command): CMD runs on the machine.
		if len(args) > 2 && args[0].s == "ssh" && args[1].s == "console" {
			for i, a := range args {
				if (a.s == "-C" || a.s == "--command") && i+1 < len(args) && !args[i+1].dyn {
					c := args[i+1]
					return &c, viaRemote, true
				}
			}
		}
	case "ansible":
		// ansible HOSTS -m shell|command|raw -a 'CMD': CMD runs on every host.
		module, code := "", -1
		for i := 0; i+1 < len(args); i++ {
			switch v := args[i].s; v {
			case "-m", "--module-name":
				module = args[i+1].s
			case "-a", "--args":
				code = i + 1
			}
		}
		switch strings.TrimPrefix(module, "ansible.builtin.") {
		case "shell", "command", "raw":
			if code >= 0 && !args[code].dyn {
				a := args[code]
				return &a, viaRemote, true
			}
		}
	}
	return nil, "", false
}

// sshValueOpts are ssh's short options that take a value.
const sshValueOpts = "BbcDEeFIiJLlmOopQRSWw"

// sshCommandArgs returns the remote command of ssh [options] destination
// [command [argument...]], or nil when it opens a login shell or forwards
// only.
func sshCommandArgs(args []arg) []arg {
	i := 0
	for i < len(args) {
		v := args[i].s
		if args[i].dyn {
			return nil
		}
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(sshValueOpts, v[j]) >= 0 {
				if j == len(v)-1 {
					i++ // the value is the next argument
				}
				break
			}
		}
		i++
	}
	i++ // the destination
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// gitExecCode finds the commands git runs for `rebase --exec|-x CMD`,
// `bisect run CMD...` and `submodule foreach CMD...`.
func gitExecCode(args []arg) (*arg, string, bool) {
	sub, rest, ok := subcommand(args, "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path")
	if !ok {
		return nil, "", false
	}
	switch sub {
	case "rebase":
		var parts []arg
		for j := 0; j < len(rest); j++ {
			v := rest[j].s
			switch {
			case (v == "--exec" || v == "-x") && j+1 < len(rest):
				parts = append(parts, rest[j+1])
				j++
			case strings.HasPrefix(v, "--exec="):
				a := rest[j]
				a.s = strings.TrimPrefix(v, "--exec=")
				parts = append(parts, a)
			case strings.HasPrefix(v, "-x") && len(v) > 2:
				a := rest[j]
				a.s = v[2:]
				parts = append(parts, a)
			}
		}
		if len(parts) == 0 {
			return nil, "", false
		}
		code := joinLines(parts)
		return code, viaGitExec, false
	case "bisect":
		if len(rest) > 1 && rest[0].s == "run" {
			return quoteArgs(rest[1:]), viaGitExec, false
		}
	case "submodule":
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j].s, "-") {
			j++
		}
		if j < len(rest) && rest[j].s == "foreach" {
			k := j + 1
			for k < len(rest) && strings.HasPrefix(rest[k].s, "-") {
				k++
			}
			if k < len(rest) {
				// foreach joins its arguments and runs them with sh -c.
				return joinArgs(rest[k:]), viaGitExec, false
			}
		}
	}
	return nil, "", false
}

// joinLines joins commands one per line.
func joinLines(parts []arg) *arg { return joinWith(parts, "\n") }

// subcommand skips a program's global options (valueOpts take the next
// word) and returns its subcommand and the words after it.
func subcommand(args []arg, valueOpts ...string) (string, []arg, bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		for _, o := range valueOpts {
			if args[i].s == o {
				i++
				break
			}
		}
		i++
	}
	if i >= len(args) {
		return "", nil, false
	}
	return args[i].s, args[i+1:], true
}

// screenValueOpts are screen's options that take a value.
var screenValueOpts = map[string]bool{"-S": true, "-c": true, "-e": true, "-h": true, "-L": false, "-Logfile": true,
	"-p": true, "-s": true, "-T": true, "-t": true, "-X": false, "-x": false, "-r": false, "-R": false}

// screenCode finds the command screen runs: `screen [opts] CMD ARGS...` in a
// new window, or the text typed into a window by `-X stuff TEXT`.
func screenCode(args []arg) (*arg, string, bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		v := args[i].s
		if v == "-X" {
			if i+2 < len(args) && args[i+1].s == "stuff" {
				return typedText(args[i+2]), viaTerminal, false
			}
			return nil, "", false
		}
		if takes, known := screenValueOpts[v]; takes || !known && len(v) > 2 && strings.IndexByte("ScpTt", v[len(v)-1]) >= 0 {
			i++ // -S NAME, or a cluster ending in one (-dmS NAME)
		}
		i++
	}
	if i < len(args) {
		return quoteArgs(args[i:]), viaTerminal, false
	}
	return nil, "", false
}

// tmuxCode finds the command tmux runs: the shell command of new-session,
// new-window, split-window and respawn-*, or the keys typed by send-keys.
func tmuxCode(args []arg) (*arg, string, bool) {
	sub, rest, ok := subcommand(args, "-L", "-S", "-f", "-c", "-T")
	if !ok {
		return nil, "", false
	}
	switch sub {
	case "send-keys", "send":
		var typed []arg
		for j := 0; j < len(rest); j++ {
			v := rest[j].s
			if strings.HasPrefix(v, "-") && len(typed) == 0 {
				if v == "-t" || v == "-N" || v == "-c" {
					j++
				}
				continue
			}
			if tmuxKeyName(v) {
				typed = append(typed, arg{s: "\n"})
				continue
			}
			typed = append(typed, rest[j])
		}
		if len(typed) == 0 {
			return nil, "", false
		}
		return joinWith(typed, ""), viaTerminal, false
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw":
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j].s, "-") {
			v := rest[j].s
			if len(v) == 2 && strings.IndexByte("censtFxylbBt", v[1]) >= 0 {
				j++
			}
			j++
		}
		if j < len(rest) {
			return joinArgs(rest[j:]), viaTerminal, false
		}
	}
	return nil, "", false
}

// tmuxKeyName reports whether v is a key that ends a typed line.
func tmuxKeyName(v string) bool {
	switch v {
	case "Enter", "C-m", "KPEnter", "C-j":
		return true
	}
	return false
}

// typedText turns text typed into a terminal into the lines a shell reads
// (screen's stuff understands \n and \r escapes).
func typedText(a arg) *arg {
	// screen's stuff understands C escapes, octal and ^X control notation.
	r := strings.NewReplacer(`\n`, "\n", `\r`, "\n", "\r", "\n", `\015`, "\n", `\012`, "\n", "^M", "\n", "^J", "\n")
	a.s = r.Replace(a.s)
	return &a
}

// kubectlExecArgs returns the command of `kubectl exec [opts] POD -- CMD...`.
func kubectlExecArgs(args []arg) []arg {
	exec := false
	for i, a := range args {
		if a.s == "exec" && !exec {
			exec = true
			continue
		}
		if exec && a.s == "--" {
			if i+1 < len(args) {
				return args[i+1:]
			}
			return nil
		}
	}
	return nil
}

// envSetupCommands are commands whose output is shell code that sets up the
// environment (exports, PATH, shell functions) for a version manager, an
// agent or a package manager: eval of their output runs that set-up.
var envSetupCommands = []string{
	"ssh-agent", "ssh-agent -s", "ssh-agent -c",
	"pyenv init -", "pyenv init --path", "pyenv virtualenv-init -", "rbenv init -", "nodenv init -", "goenv init -",
	"jenv init -", "plenv init -", "brew shellenv", "/opt/homebrew/bin/brew shellenv", "/usr/local/bin/brew shellenv",
	"/home/linuxbrew/.linuxbrew/bin/brew shellenv", "direnv export bash", "direnv export zsh", "direnv hook bash",
	"direnv hook zsh", "fnm env", "fnm env --use-on-cd", "conda shell.bash hook", "conda shell.zsh hook",
	"zoxide init bash", "zoxide init zsh", "starship init bash", "starship init zsh", "mise activate bash",
	"mise activate zsh", "rtx activate bash", "opam env", "luarocks path", "minikube docker-env",
}

// envSetupOutput reports a word that is exactly $(CMD) or `CMD` for one of
// envSetupCommands.
func envSetupOutput(a arg) bool {
	if !a.subst {
		return false
	}
	inner, ok := strings.CutPrefix(a.s, "$(")
	if ok {
		inner, ok = strings.CutSuffix(inner, ")")
	} else if inner, ok = strings.CutPrefix(a.s, "`"); ok {
		inner, ok = strings.CutSuffix(inner, "`")
	}
	if !ok {
		return false
	}
	cmd := strings.Join(strings.Fields(inner), " ")
	for _, c := range envSetupCommands {
		if cmd == c {
			return true
		}
	}
	return false
}

// toolBinDirs are substitutions that print a tool manager's install prefix.
var toolBinDirs = []string{"go env GOPATH", "brew --prefix", "npm prefix -g", "npm config get prefix", "pyenv root",
	"rbenv root", "yarn global dir", "python3 -m site --user-base", "python -m site --user-base"}

// toolBinName returns the program a word names when it is $(which NAME),
// $(command -v NAME), or $(PREFIX)/bin/NAME for a tool manager's prefix.
func toolBinName(a arg) (string, bool) {
	word := a.s
	if a.subst && strings.HasPrefix(word, "`") {
		// `which go` is $(which go) in the older spelling.
		if end := strings.IndexByte(word[1:], '`'); end >= 0 {
			word = "$(" + word[1:1+end] + ")" + word[2+end:]
		}
	}
	if !a.subst || !strings.HasPrefix(word, "$(") {
		return "", false
	}
	inner, rest, ok := strings.Cut(word[2:], ")")
	if !ok || strings.ContainsAny(inner, "$`;|&<>") {
		return "", false
	}
	cmd := strings.Join(strings.Fields(inner), " ")
	validName := func(n string) bool {
		return n != "" && !strings.ContainsAny(n, "/$`'\" *?[") && n != "." && n != ".."
	}
	if rest == "" {
		for _, p := range []string{"which ", "command -v "} {
			if n, ok := strings.CutPrefix(cmd, p); ok && validName(n) {
				return n, true
			}
		}
		return "", false
	}
	for _, d := range toolBinDirs {
		if cmd == d {
			if n, ok := strings.CutPrefix(rest, "/bin/"); ok && validName(n) {
				return n, true
			}
		}
	}
	return "", false
}
