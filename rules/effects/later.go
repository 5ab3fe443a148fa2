package effects

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
)

// Files that run later by themselves (shell start-up files, cron tables,
// service units, interpreters' start-up code) are written with known content
// often enough (echo … >> ~/.zshrc, a heredoc into a gradle init script):
// that content is read as the code it will be, and code the rules deny makes
// the write denied. Without known content, or with harmless content, the
// write stays a person's decision (see decide).

// laterLang names how a file that runs later holds its code: "sh" (shell
// lines), "cron" (a user's cron table), "crond" (a system cron table, with
// a user column), "unit" (Exec*= lines of a systemd unit or an autostart
// entry), "plist" (a launch agent's ProgramArguments), or an interpreter's
// language; "" for a file that is not known to run later.
func laterLang(p string) string {
	low := strings.ToLower(p)
	base := path.Base(low)
	dir := path.Dir(low) + "/"
	switch {
	case base == ".envrc" || base == ".direnvrc" || base == "direnvrc" || strings.HasSuffix(dir, "/.config/direnv/") && strings.HasSuffix(base, ".sh"):
		return "envrc"
	case shellStartupFile(base, dir):
		return "sh"
	case strings.HasPrefix(low, "/var/spool/cron/") || strings.HasPrefix(low, "/var/at/tabs/"):
		return "cron"
	case low == "/etc/crontab" || strings.HasPrefix(low, "/etc/cron.d/"):
		return "crond"
	case strings.HasPrefix(low, "/etc/cron.") || strings.HasPrefix(low, "/etc/init.d/") || low == "/etc/rc.local" || strings.HasSuffix(low, "/.ssh/rc"):
		return "sh" // run-parts scripts, init scripts
	case strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".desktop") && strings.Contains(dir, "/autostart/"):
		return "unit"
	case strings.HasSuffix(base, ".plist") && strings.Contains(dir, "/launch"):
		return "plist"
	case base == "sitecustomize.py" || base == "usercustomize.py" || base == ".pythonrc" || base == ".pythonrc.py" ||
		strings.Contains(dir, "/.ipython/") && (strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".ipy")):
		return "python"
	case strings.HasSuffix(base, ".pth") && (strings.Contains(dir, "-packages/") || strings.Contains(dir, "site")):
		return "python"
	case (base == "config.toml" || base == "config") && strings.HasSuffix(dir, "/.cargo/"):
		return "cargo"
	case base == "config" && strings.HasSuffix(dir, "/.ssh/") || strings.HasPrefix(low, "/etc/ssh/ssh_config"):
		return "sshconfig"
	case base == "config" && strings.HasSuffix(dir, "/.aws/"):
		return "awsconfig" // credential_process runs at every AWS call
	case base == ".gitconfig" || base == "config" && strings.HasSuffix(dir, "/.config/git/") || low == "/etc/gitconfig":
		return "gitconfig"
	case base == ".irbrc" || base == ".pryrc":
		return "ruby"
	case (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")) && strings.HasSuffix(dir, "/.github/workflows/") ||
		base == ".gitlab-ci.yml" || base == "bitbucket-pipelines.yml" || base == "config.yml" && strings.HasSuffix(dir, "/.circleci/"):
		return "ci" // run: and script: steps run on the CI runner, with its secrets
	case strings.Contains(dir, "/.husky/") && !strings.Contains(dir, "/.husky/_/") && !strings.Contains(base, "."):
		return "sh" // husky's hook scripts run on later commits
	case base == "init.gradle" || base == "init.gradle.kts" || strings.HasSuffix(dir, "/.gradle/init.d/"):
		return "groovy"
	case base == ".rprofile" || base == "rprofile.site":
		return "r"
	case base == "startup.jl" && strings.Contains(dir, "/.julia/"):
		return "julia"
	case base == ".gdbinit" || base == ".lldbinit":
		return "gdb"
	case base == ".vimrc" || base == "init.vim" && strings.Contains(dir, "/nvim/"):
		return "vim"
	case base == "init.lua" && strings.Contains(dir, "/nvim/"):
		return "lua"
	}
	return ""
}

// shellStartupFile reports the start-up files of shells (per user and
// system-wide).
func shellStartupFile(base, dir string) bool {
	switch base {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".bash_aliases", ".zsh_aliases", ".aliases",
		".zlogin", ".zlogout", ".kshrc", ".mkshrc", "bash.bashrc", "bashrc", "zshrc", "zshenv", "zprofile", "profile":
		return base[0] == '.' || strings.HasPrefix(dir, "/etc/")
	}
	return strings.HasPrefix(dir, "/etc/profile.d/") || strings.Contains(dir, "/.config/fish/") && strings.HasSuffix(base, ".fish") ||
		strings.Contains(dir, "template") && strings.HasSuffix(dir, "/hooks/") // ~/.git-templates/hooks/post-merge
}

// laterCommands returns the command lines a run-later file of lang holds.
func laterCommands(lang, content string) []string {
	var out []string
	switch lang {
	case "sh":
		return []string{content}
	case "ci":
		return CICommands(content)
	case "envrc":
		// direnv's own functions load a project's variables and layouts
		// into the shell (dotenv .env.local, layout python3): what they
		// read stays in the environment the project set up.
		var kept []string
		for _, line := range strings.Split(content, "\n") {
			if f := strings.Fields(line); len(f) == 0 || !direnvStdlib[f[0]] {
				kept = append(kept, line)
			}
		}
		return []string{strings.Join(kept, "\n")}
	case "cron", "crond":
		skip := 5
		if lang == "crond" {
			skip = 6
		}
		for _, line := range strings.Split(content, "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "@"):
			case strings.HasPrefix(f[0], "@") && len(f) > skip-4:
				out = append(out, strings.Join(f[skip-4:], " "))
			case len(f) > skip:
				out = append(out, strings.Join(f[skip:], " "))
			}
		}
	case "unit":
		for _, line := range strings.Split(content, "\n") {
			key, val, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok && (strings.HasPrefix(key, "Exec") || key == "Exec") {
				out = append(out, strings.TrimLeft(strings.TrimSpace(val), "-@:+!"))
			}
		}
	case "cargo":
		// runner = "sh -c '…'", linker = "…": the quoted values that hold
		// a command line.
		for _, m := range stringLiteralRe().FindAllStringSubmatch(content, 32) {
			if lit := m[1] + m[2]; strings.Contains(lit, " ") {
				out = append(out, strings.ReplaceAll(lit, `\"`, `"`))
			}
		}
	case "sshconfig":
		for _, line := range strings.Split(content, "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			switch strings.ToLower(f[0]) {
			case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
				out = append(out, strings.Join(f[1:], " "))
			}
		}
	case "awsconfig":
		for _, line := range strings.Split(content, "\n") {
			key, val, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok && strings.TrimSpace(key) == "credential_process" {
				out = append(out, strings.TrimSpace(val))
			}
		}
	case "gitconfig":
		for _, line := range strings.Split(content, "\n") {
			key, val, ok := strings.Cut(strings.TrimSpace(line), "=")
			if !ok {
				continue
			}
			key, val = strings.ToLower(strings.TrimSpace(key)), strings.Trim(strings.TrimSpace(val), `"`)
			switch {
			case strings.HasPrefix(val, "!"):
				out = append(out, strings.TrimSpace(val[1:])) // alias.x = !cmd, helper = !cmd
			case key == "sshcommand" || key == "pager" || key == "editor" || key == "fsmonitor" || key == "askpass" || key == "textconv" ||
				key == "clean" || key == "smudge" || key == "process" || key == "cmd":
				out = append(out, val)
			}
		}
	case "plist":
		if m := plistArgsRe().FindStringSubmatch(content); m != nil {
			var args []string
			for _, s := range plistStringRe().FindAllStringSubmatch(m[1], 64) {
				args = append(args, s[1])
			}
			if len(args) > 0 {
				out = append(out, shellJoin(args))
			}
		}
	}
	return out
}

// direnvStdlib are direnv's functions that load variables, layouts and
// other .envrc files, or only log and watch.
var direnvStdlib = map[string]bool{"dotenv": true, "dotenv_if_exists": true, "source_env": true, "source_env_if_exists": true,
	"source_up": true, "source_up_if_exists": true, "layout": true, "use": true, "watch_file": true, "watch_dir": true,
	"PATH_add": true, "path_add": true, "MANPATH_add": true, "env_vars_required": true, "log_status": true, "log_error": true,
	"strict_env": true, "unstrict_env": true, "on_git_branch": true, "expand_path": true, "direnv_version": true}

// shadowedCommands are commands an alias in a start-up file must not
// silently replace: what the user types would run something else.
var shadowedCommands = map[string]bool{"sudo": true, "su": true, "doas": true, "git": true, "ssh": true, "scp": true, "ls": true,
	"cd": true, "cat": true, "rm": true, "cp": true, "mv": true, "curl": true, "wget": true, "python": true, "python3": true,
	"node": true, "npm": true, "npx": true, "pip": true, "pip3": true, "docker": true, "kubectl": true, "gpg": true,
	"passwd": true, "aws": true, "gcloud": true, "az": true, "terraform": true, "make": true, "go": true, "cargo": true,
	"bash": true, "sh": true, "zsh": true, "env": true, "which": true, "command": true, "builtin": true, "exec": true}

var (
	aliasRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*alias\s+([\w.-]+)=('[^'\n]*'|"[^"\n]*"|\S+)`)
	})
	plistArgsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>`)
	})
	plistStringRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<string>([^<]*)</string>`) })
)

// laterDanger reads the known content of a file that runs later as the
// code it holds and returns what makes it dangerous ("" when the rules find
// nothing to deny): a command the rules deny, or code that sends a
// credential file or the environment out.
func laterDanger(lang, content string, verdict func(string) hook.Decision) string {
	danger, _ := laterVerdict(lang, content, verdict)
	return danger
}

// laterVerdict is laterDanger, and whether the rules understand the
// content and allow all of it (harmless: it runs only what they allow).
func laterVerdict(lang, content string, verdict func(string) hook.Decision) (danger string, harmless bool) {
	if len(content) >= 16<<10 {
		return "", false
	}
	switch lang {
	case "sh", "envrc", "cron", "crond", "unit", "plist", "cargo", "sshconfig", "gitconfig", "awsconfig", "ci":
		if verdict == nil {
			return "", false
		}
		cmds := laterCommands(lang, content)
		harmless = len(cmds) > 0
		if lang == "sh" || lang == "envrc" {
			// alias name='body': the body runs whenever the name is typed.
			// One that takes the name of a common command changes what
			// that command does, whatever the body.
			for _, m := range aliasRe().FindAllStringSubmatch(content, 32) {
				body := m[2]
				if len(body) > 1 && (body[0] == '\'' || body[0] == '"') && body[len(body)-1] == body[0] {
					body = body[1 : len(body)-1]
				}
				cmds = append(cmds, body)
				if shadowedCommands[m[1]] {
					harmless = false
				}
			}
		}
		for _, cmd := range cmds {
			switch verdict(cmd) {
			case hook.Deny:
				return "code the rules deny (" + short(cmd) + ")", false
			case hook.Allow:
			default:
				harmless = false
			}
		}
		return "", harmless
	}
	ce := analyzeCode(lang, content)
	if danger := spelledDanger(lang, content, ce, verdict, false); danger != "" {
		return lang + " " + danger, false
	}
	return "", len(ce.Found) == 0 && len(ce.Deletes) == 0 && len(ce.Writes) == 0
}

// spelledDanger is what code spells out that makes it dangerous ("" when
// nothing): a credential file or the environment sent out, a shell opened
// for a remote host, a command the rules deny handed to a shell. With
// spawning, the environment counts only with a process started and string
// literals only in code that starts processes (for code no table reads).
func spelledDanger(lang, content string, ce CodeEffect, verdict func(string) hook.Decision, spawning bool) string {
	sends := slices.Contains(ce.Found, foundNetwork)
	spawns := slices.Contains(ce.Found, foundSpawn)
	switch {
	case sends && slices.Contains(ce.Found, foundSecretPath):
		return "code that reads a credential file and uses the network"
	case sends && slices.Contains(ce.Found, foundEnv) && (spawns || !spawning):
		return "code that reads the environment and uses the network"
	case reverseShellRe().MatchString(content):
		return "code that opens a shell for a remote host"
	}
	if verdict == nil || spawning && !spawns {
		return ""
	}
	for _, cmd := range spawnedCommands(lang, content) {
		if verdict(cmd) == hook.Deny {
			return "code that runs a shell command the rules deny (" + short(cmd) + ")"
		}
	}
	return ""
}

// UnanalyzedCodeDanger reads code in a language the analysis has no table
// for (Go, Rust, Java, C, …) for what it spells out: a command the rules
// deny that it hands to a process (exec.Command("sh", "-c", "…"),
// ProcessBuilder, system()), a shell opened for a remote host, or a
// credential file or the environment sent out; "" when none. String
// literals count only in code that starts processes.
func UnanalyzedCodeDanger(content string, verdict func(string) hook.Decision) string {
	if len(content) >= 16<<10 {
		return ""
	}
	return spelledDanger("unanalyzed", content, analyzeCode("unanalyzed", content), verdict, true)
}

// alwaysSet are variables every shell has: their expansion is never empty.
var alwaysSet = map[string]bool{"HOME": true, "PWD": true, "USER": true, "LOGNAME": true, "PATH": true, "SHELL": true}

// UnsetReading is what a word with run-time values becomes when every
// variable in it is unset (r${X}m, ${RM:-rm}, ${x:-r}${y:-m}): defaults
// taken, the rest empty. ok is false when that cannot be known (a
// substitution, a guarded ${X:?}, a variable every shell has) or when the
// word holds no variable at all.
func UnsetReading(word string) (string, bool) {
	out, v, ok := emptyExpansion(word)
	return out, ok && v != ""
}

// emptyExpansion returns what a path with run-time values becomes when
// every variable in it is unset or empty (the classic `rm -rf "$DIR/"`):
// defaults (${X:-/}) are taken, trims of an empty value are empty, and
// guarded forms (${X:?}) make the answer unknown, as do substitutions.
// The variable it names is the first one left empty; ok is false when
// the result cannot be known.
func emptyExpansion(p string) (out, variable string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '`' || c == '$' && i+1 < len(p) && p[i+1] == '(':
			return "", "", false
		case c == '$' && i+1 < len(p) && p[i+1] == '{':
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return "", "", false
			}
			inner := p[i+2 : i+end]
			name := inner
			if j := strings.IndexAny(inner, ":-=?+%#/^,"); j >= 0 {
				name = inner[:j]
			}
			if alwaysSet[name] || strings.HasPrefix(name, "!") || strings.HasPrefix(name, "#") {
				return "", "", false
			}
			rest := inner[len(name):]
			switch {
			case strings.HasPrefix(rest, ":?") || strings.HasPrefix(rest, "?"):
				return "", "", false // ${X:?} stops the shell when X is empty
			case strings.HasPrefix(rest, ":-") || strings.HasPrefix(rest, ":="):
				b.WriteString(rest[2:])
			case strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "="):
				b.WriteString(rest[1:])
			case strings.HasPrefix(rest, ":+") || strings.HasPrefix(rest, "+"):
				// the alternative only when set: empty when unset
			}
			if variable == "" {
				variable = name
			}
			i += end + 1
		case c == '$' && i+1 < len(p) && (p[i+1] == '_' || p[i+1] >= 'A' && p[i+1] <= 'Z' || p[i+1] >= 'a' && p[i+1] <= 'z'):
			j := i + 1
			for j < len(p) && (p[j] == '_' || p[j] >= 'A' && p[j] <= 'Z' || p[j] >= 'a' && p[j] <= 'z' || p[j] >= '0' && p[j] <= '9') {
				j++
			}
			name := p[i+1 : j]
			if alwaysSet[name] {
				return "", "", false
			}
			if variable == "" {
				variable = name
			}
			i = j
		case c == '$' && i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9':
			if variable == "" {
				variable = p[i : i+2]
			}
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	if variable == "" {
		return "", "", false
	}
	return b.String(), variable, true
}

// emptyIsCritical reports a path that, with its variables empty, is the
// filesystem root, everything in it, or the home directory.
func emptyIsCritical(p string) (string, bool) {
	out, v, ok := emptyExpansion(p)
	if !ok {
		return "", false
	}
	t := strings.TrimSpace(out)
	// ${TARGET:-$HOME}: a default that names the home directory.
	t = strings.ReplaceAll(strings.ReplaceAll(t, "${HOME}", "~"), "$HOME", "~")
	for strings.HasSuffix(t, "/.") {
		t = strings.TrimSuffix(t, ".")
	}
	if strings.HasPrefix(t, "/") && strings.Contains(t, "/..") {
		// "$PROJECT_ROOT"/../*: above the root is the root.
		c := path.Clean(t)
		if strings.HasSuffix(t, "/") && c != "/" {
			c += "/"
		}
		t = c
	}
	switch strings.TrimRight(t, "/") {
	case "", "~":
		if t == "" {
			return "", false // rm -rf "" removes nothing
		}
		return v, true
	case "/*", "~/*", "/.*", "~/.*", "/*/", "/*/*":
		return v, true
	}
	return "", false
}

// CICommands returns the shell lines a CI pipeline's YAML runs: GitHub
// Actions' run: (one line or a block), GitLab's script:, before_script: and
// after_script: lists, CircleCI's command:. It reads the YAML by its
// indentation, enough for the commands, not as a full parser.
func CICommands(content string) []string {
	var out []string
	lines := strings.Split(content, "\n")
	indentOf := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i := 0; i < len(lines) && len(out) < 64; i++ {
		line := strings.TrimRight(lines[i], " \r")
		trimmed := strings.TrimLeft(strings.TrimSpace(line), "- ")
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "run", "command", "script", "before_script", "after_script":
		default:
			continue
		}
		base := indentOf(line)
		switch {
		case val == "|" || val == ">" || strings.HasPrefix(val, "|") || strings.HasPrefix(val, ">"):
			var block []string
			for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || indentOf(lines[i+1]) > base) {
				i++
				block = append(block, strings.TrimSpace(lines[i]))
			}
			out = append(out, strings.Join(block, "\n"))
		case val == "":
			// script:\n  - cmd\n  - cmd
			for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || indentOf(lines[i+1]) > base ||
				indentOf(lines[i+1]) == base && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "- ")) {
				i++
				if item := strings.TrimSpace(lines[i]); strings.HasPrefix(item, "- ") {
					out = append(out, unquoteYAML(strings.TrimSpace(item[2:])))
				}
			}
		case strings.HasPrefix(val, "["):
			for _, item := range strings.Split(strings.Trim(val, "[]"), ",") {
				out = append(out, unquoteYAML(strings.TrimSpace(item)))
			}
		default:
			out = append(out, unquoteYAML(val))
		}
	}
	for i := range out {
		out[i] = ciShell(out[i])
	}
	return out
}

// ciExprRe matches a CI expression the runner substitutes before the shell
// runs: ${{ secrets.NAME }}, ${{ github.token }}, ${{ env.X }}.
var ciExprRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{\{\s*(secrets\.(\w+)|github\.token|env\.(\w+)|[^}]*)\s*\}\}`)
})

// ciShell rewrites a CI command's expressions as the shell variables they
// stand for: a secret becomes $NAME (whose name says what it is), the job's
// token $GITHUB_TOKEN, anything else a harmless word.
func ciShell(cmd string) string {
	if !strings.Contains(cmd, "${{") {
		return cmd
	}
	var b strings.Builder
	last := 0
	for _, loc := range ciExprRe().FindAllStringSubmatchIndex(cmd, -1) {
		b.WriteString(cmd[last:loc[0]])
		last = loc[1]
		sm := ciExprRe().FindStringSubmatch(cmd[loc[0]:loc[1]])
		var v string
		switch {
		case strings.Contains(strings.ToLower(sm[1]), "tojson(secrets)") || strings.TrimSpace(sm[1]) == "secrets" ||
			strings.Contains(strings.ToLower(sm[1]), "tojson(env)"):
			v = "$(env)" // every secret at once: what the environment holds
		case sm[2] != "":
			v = "${" + sm[2] + "}"
		case sm[1] == "github.token":
			v = "${GITHUB_TOKEN}"
		case sm[3] != "":
			v = "${" + sm[3] + "}"
		default:
			b.WriteString("ci-value")
			continue
		}
		// The runner pastes the value in before the shell reads the line,
		// so single quotes do not keep it literal: step out of them.
		if inSingleQuotes(cmd[:loc[0]]) {
			v = `'"` + v + `"'`
		}
		b.WriteString(v)
	}
	b.WriteString(cmd[last:])
	return b.String()
}

// inSingleQuotes reports whether the end of prefix is inside a single-quoted
// shell string.
func inSingleQuotes(prefix string) bool {
	single, double := false, false
	for i := 0; i < len(prefix); i++ {
		switch c := prefix[i]; {
		case c == '\\' && !single:
			i++
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		}
	}
	return single
}

func unquoteYAML(v string) string {
	if len(v) > 1 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// LaterVerdictOf is LaterDangerOf with whether the rules understand all of
// the content and allow it (every command in it one they allow).
func LaterVerdictOf(path, content string, verdict func(string) hook.Decision) (danger string, harmless bool) {
	lang := laterLang(path)
	if lang == "" {
		return "", false
	}
	return laterVerdict(lang, content, verdict)
}

// LaterDangerOf returns what makes content written to path dangerous when
// the file runs later by itself (a shell start-up file, a CI workflow, a
// hook script): a command the rules deny in it ("" when none, or when the
// file is not one that runs later).
func LaterDangerOf(path, content string, verdict func(string) hook.Decision) string {
	lang := laterLang(path)
	if lang == "" {
		return ""
	}
	return laterDanger(lang, content, verdict)
}
