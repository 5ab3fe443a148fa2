// MCP tool calls: the tool input as canonical JSON, the paths and shell commands inside it.

package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	gopath "path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/effects"
	"github.com/hookguard/hookguard/rules/shell"
)

func (p *Policy) evalMCP(e *evaluation, ev *hook.Event, ctx Context) hook.Decision {
	var d hook.Decision
	if len(p.MCP.AllowedServers) > 0 && !slices.Contains(p.MCP.AllowedServers, ev.Server) {
		r := &Rule{ID: "mcp-server-not-allowed", Decision: hook.Deny,
			Reason: fmt.Sprintf("MCP server %q is not on the allowed list", ev.Server),
			Advice: "use one of the allowed MCP servers, or ask the user to add this one to mcp.allowed_servers"}
		if ev.Server == "" {
			r.Reason = "the MCP call names no server, and an allowed list is configured"
		}
		d = e.add(r, ev.Server)
	}
	if store := serverCredentialStore(ev.ServerCommand, ctx); store != "" {
		// uvx mcp-server-sqlite --db-path ".../Chrome/Default/Cookies": every
		// call of this server reads that credential store.
		d = hook.Stricter(d, e.add(&Rule{ID: "mcp-server-credential-store", Decision: hook.Deny,
			Reason: "the MCP server is pointed at a credential store (" + store + "): its calls read it",
			Advice: "point the server at the project's own data; ask the user"}, ev.Server))
	}
	iv, decoded := e.toolInput(ev.ToolInput)
	input := string(ev.ToolInput)
	if decoded {
		if s, ok := hook.CanonicalValue(iv); ok {
			input = s
		}
	}
	if host := lookalikeHost(stringsIn(iv)); host != "" {
		// {"url": "https://g\u0456thub.com/…"}: a look-alike of a known host.
		d = hook.Stricter(d, e.add(&Rule{ID: "lookalike-host", Decision: hook.Deny,
			Reason: "names the host " + host + ", whose name mixes Latin letters with look-alike letters of another script (a copy of a known host)",
			Advice: "use the host's real name; ask the user where the address came from"}, ""))
	}
	var paths []string
	metadataOnly := metadataTool(ev.Tool)
	for _, s := range pathsIn(iv) {
		if !metadataOnly {
			// get_file_info ~/.ssh/id_rsa returns size, times and mode, never
			// the content: the path rules (credential reads) do not apply,
			// though a path outside the workspace is still judged.
			paths = append(paths, pathForms(s, ctx)...)
			paths = append(paths, traversalForms(s, ctx)...)
			if ctx.Cwd == "" && len(ctx.WorkspaceRoots) > 0 && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "$") {
				// {"path": ".env"} of a filesystem server rooted at the project,
				// or of a code host's repository: what the name says counts.
				paths = append(paths, gopath.Join(ctx.WorkspaceRoots[0], s))
			}
		}
		if readingTool(strings.ToLower(ev.Tool)) && publicKeyPath(s) {
			// read_file ~/.ssh/id_ed25519.pub: a public key is public.
			continue
		}
		if metadataOnly && !listingTool(ev.Tool) || readingTool(strings.ToLower(ev.Tool)) && readableConfig(s, ctx) {
			// get_file_info ~/.ssh/id_rsa, read_text_file /etc/hosts or
			// ~/.gitconfig: what `stat` or `cat` of it shows in a shell,
			// which the shell rules allow.
			continue
		}
		for _, c := range classifyPath(s, ctx.Cwd, ctx) {
			if c == PathOutside || c == PathSystem || c == PathHome || c == PathHomeSub || c == PathRoot {
				e.out.Escalations = append(e.out.Escalations, "the tool input names a path outside the workspace: "+s)
				d = hook.Stricter(d, hook.Judge)
				break
			}
		}
	}
	valuesD := p.mcpValues(e, ev, ctx)
	d = hook.Stricter(d, valuesD)
	// A tool that runs a shell command is judged like the command itself.
	var shellD hook.Decision
	cmds := commandsIn(iv)
	if len(cmds) == 0 {
		cmds = typedCommands(ev.Server, ev.Tool, iv)
	}
	if cmd := cliSubcommandCall(ev.Server, ev.Tool, iv); cmd != "" {
		// run_terraform {"command": "plan", "working_dir": …}: the word is
		// the CLI's subcommand, not a program of its own.
		cmds = []string{cmd}
	}
	if redisTool(ev.Server, ev.Tool) {
		// redis {"command": "CONFIG SET dir …"}: a Redis command, read as
		// redis-cli would be given it.
		for i, c := range cmds {
			if f := strings.Fields(c); len(f) > 0 && !strings.HasSuffix(f[0], "-cli") {
				cmds[i] = "redis-cli " + c
			}
		}
	}
	if pageScriptTool(ev.Server, ev.Tool) {
		// puppeteer_evaluate {"script": "document.title"}: JavaScript the
		// browser runs in the page, not a shell command (mcpValues reads it).
		cmds = nil
	}
	if m, ok := iv.(map[string]any); ok && containerRunTool(ev.Tool) {
		// run_container {"image", "privileged", "volumes", "command"}: the
		// command runs inside the container; what the call does is the
		// docker run it amounts to (host mounts and privileges with it).
		if image, _ := m["image"].(string); image != "" {
			cmds = nil
		}
	}
	if len(cmds) == 0 {
		// run_python {"code": …}, run_gcloud_command {"args": […]}: the
		// code or the CLI call the tool makes, read as the command line
		// that would do the same.
		if cmd := toolAsCommand(ev.Server, ev.Tool, iv); cmd != "" {
			cmds = []string{cmd}
		}
	}
	for _, cmd := range cmds {
		shellD = hook.Stricter(shellD, p.evalShell(e, cmd, ctx))
	}
	if shellD.Severity() > hook.Judge.Severity() {
		d = hook.Stricter(d, shellD)
	}
	targets := map[string][]string{
		TargetCall:   {strings.Join(strings.Fields(ev.Server), "_") + " " + ev.Tool + " " + input},
		TargetTool:   {ev.Tool},
		TargetServer: {ev.Server},
		TargetInput:  {input},
		TargetPath:   paths,
	}
	d = hook.Stricter(d, p.evalSimple(e, hook.KindMCP, targets, ev.Server+"/"+ev.Tool, ctx))
	if valuesD == hook.Allow && d == hook.Judge && len(cmds) == 0 && !e.out.Flagged && len(e.out.Escalations) == 0 && !e.hasStrict(hook.Allow) {
		// The values decided (a read-only query) and no rule disagreed: only
		// the kind's default was left.
		return hook.Allow
	}
	if valuesD == hook.Allow && d == hook.Judge && len(cmds) == 0 && !e.out.Flagged && len(e.out.Escalations) == 0 &&
		e.onlyStricterBy(hook.Allow, "mcp-write-tool") && slices.ContainsFunc(e.out.Matches, func(m Match) bool { return m.RuleID == "mcp-dev-db-write" }) {
		// The generic "a tool that changes something" of a query tool whose
		// SQL the values found to be a scoped change of a development
		// database: that finer reading decides.
		e.dropRule("mcp-write-tool")
		return hook.Allow
	}
	if len(cmds) > 0 && shellD == hook.Allow && d == hook.Judge && !e.out.Flagged && !e.hasStrict(hook.Judge) {
		// Only the tool's generic "runs something" nature was in doubt, and the
		// commands it runs are ones the shell rules allow outright.
		d = e.add(&Rule{ID: "mcp-allowed-command", Decision: hook.Allow,
			Reason: "the tool runs shell commands that the rules allow"}, ev.Tool)
		e.out.Escalations = nil
	}
	return d
}

// listingTool reports a tool that lists a folder's entries (their names
// say what is there: the key files of ~/.ssh).
func listingTool(tool string) bool {
	t := strings.ToLower(tool)
	return strings.Contains(t, "list") || strings.Contains(t, "tree") || strings.Contains(t, "ls")
}

// readableConfig reports a file outside the workspace whose reading the
// shell rules allow as routine: a system file or a start-up or tool
// configuration file in the home folder (/etc/hosts, ~/.bashrc,
// ~/.ssh/config), not a credential or a possible one.
func readableConfig(p string, ctx Context) bool {
	abs := effects.NormalizePath(p, ctx.Cwd, ctx.Home)
	if abs == "" || strings.ContainsAny(abs, "*?[") || strings.HasPrefix(abs, "/proc/") || strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/sys/") {
		return false
	}
	classes := effects.PathClassesOf(abs, ctx.Cwd, ctx.Home)
	for _, c := range classes {
		if c != effects.ClassPersistence {
			return false // secret, maybe secret, guard, agent, …
		}
	}
	if len(classes) == 1 {
		return true // ~/.bashrc, ~/.gitconfig, ~/.ssh/config, /etc/hosts
	}
	for _, c := range classifyPath(abs, ctx.Cwd, ctx) {
		if c == PathSystem {
			return strings.HasPrefix(abs, "/etc/") || strings.HasPrefix(abs, "/usr/") || strings.HasPrefix(abs, "/opt/")
		}
	}
	return false
}

// pathsIn returns string values in a decoded JSON document that look like
// file paths.
func pathsIn(v any) []string {
	var out []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(k, t[k])
			}
		case []any:
			for _, x := range t {
				walk(key, x)
			}
		case string:
			s := strings.TrimSpace(t)
			if len(s) > 1 && len(s) < 4096 && !strings.ContainsAny(s, "\n") && !strings.Contains(s, "://") &&
				(isPathKey(key) || strings.HasPrefix(s, "~") && !strings.ContainsAny(s, " \t") || hasSystemRoot(s)) {
				out = append(out, s)
			}
		}
	}
	walk("", v)
	return out
}

// commandsIn returns shell command lines found in a tool input: string values
// (or arrays of strings) under keys such as command, cmd or cli_command.
// serverCredentialStore returns a path argument of an MCP server's launch
// command that is a credential file (a browser's cookie or login store, a
// key), or "".
func serverCredentialStore(command string, ctx Context) string {
	if command == "" || len(command) > 4096 {
		return ""
	}
	res := shell.Split(command, shell.Options{Cwd: ctx.Cwd, Home: ctx.Home})
	for _, c := range res.Commands {
		for i, a := range c.Args {
			if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
				continue
			}
			if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
				a = v
			}
			if (strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~")) && effects.IsSecretPath(a, virtualWorkspace, ctx.Home) {
				return a
			}
		}
	}
	return ""
}

func commandsIn(v any) []string {
	m, _ := v.(map[string]any)
	var out []string
	for k, v := range m {
		switch strings.ToLower(k) {
		case "command", "cmd", "cli_command", "shell_command", "script", "bash", "sh", "commandline", "command_line":
		case "program", "executable", "binary", "exe":
			// {"program": "bash", "arguments": ["-c", "…"]}: a program
			// with an argument list, or a path to one.
			s, _ := v.(string)
			if !strings.HasPrefix(s, "/") && m["args"] == nil && m["arguments"] == nil && m["argv"] == nil {
				continue
			}
		default:
			continue
		}
		switch t := v.(type) {
		case string:
			if strings.TrimSpace(t) != "" && len(t) < 64<<10 {
				// {"cmd": "bash", "args": ["-c", "…"]}: the program and its
				// arguments, as a shell would be given them.
				for _, ak := range []string{"args", "arguments", "argv"} {
					if list, ok := m[ak].([]any); ok {
						for _, x := range list {
							if s, ok := x.(string); ok {
								t += " " + shell.Quote(s)
							}
						}
						break
					}
				}
				out = append(out, withStdin(t, m))
			}
		case []any:
			var parts []string
			for _, x := range t {
				if s, ok := x.(string); ok {
					parts = append(parts, shell.Quote(s))
				}
			}
			if len(parts) > 0 {
				out = append(out, withStdin(strings.Join(parts, " "), m))
			}
		}
	}
	sort.Strings(out)
	return out
}

// terminalWords and typingWords name, in a server's or tool's name, a tool
// that types text into a terminal or a running process (send_keys,
// write_to_terminal, interact_with_process): what it types runs as a
// shell command line.
var (
	terminalWords = []string{"terminal", "tmux", "iterm", "console", "pty", "shell", "process", "repl", "screen"}
	typingWords   = []string{"send", "write", "type", "input", "interact", "keys", "paste"}
)

// typedCommands returns the text a terminal tool types (its keys, text or
// input value), as command lines.
func typedCommands(server, tool string, v any) []string {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	name := strings.ToLower(server + " " + tool)
	low := strings.ToLower(tool)
	terminal, typing := false, false
	for _, w := range terminalWords {
		terminal = terminal || strings.Contains(name, w)
	}
	for _, w := range typingWords {
		typing = typing || strings.Contains(low, w)
	}
	if !terminal || !typing {
		return nil
	}
	var out []string
	for _, k := range []string{"keys", "text", "input", "data", "chars", "content", "line"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" && len(s) < 64<<10 {
			out = append(out, strings.TrimRight(s, "\r\n"))
		}
	}
	return out
}

// stdinKeys name the tool input that an exec-style tool writes to the
// command's standard input.
var stdinKeys = []string{"stdin", "input", "stdin_data", "standard_input", "stdinData", "input_data"}

// withStdin returns cmd with the text the tool feeds to its standard input
// ({"command": "bash", "stdin": "…"}) as a here-string, so that a shell or
// an interpreter given a script that way is read running it.
func withStdin(cmd string, m map[string]any) string {
	for _, k := range stdinKeys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return cmd + " <<< " + shell.Quote(s)
		}
	}
	return cmd
}

// redisTool reports a Redis or Valkey server's tool, whose "command" is a
// Redis command (not a shell one).
func redisTool(server, tool string) bool {
	low := strings.ToLower(server + " " + tool)
	return (strings.Contains(low, "redis") || strings.Contains(low, "valkey")) && !strings.Contains(low, "shell") &&
		!strings.Contains(low, "terminal")
}

// codeTools name, in a tool's name, tools that run the code they are given.
var codeToolWords = []string{"run_code", "run_python", "execute_python", "python_exec", "exec_python", "execute_code", "run_javascript",
	"execute_javascript", "run_js", "execute_cell", "run_cell", "execute_notebook_cell", "ipython", "code_interpreter", "run_script",
	"execute_code_cell", "run_code_cell", "eval_code", "evaluate_code"}

// toolNameSeparators writes a tool name's other separators as "_".
var toolNameSeparators = strings.NewReplacer("-", "_", " ", "_")

// camelToSnake writes executeCode as execute_code (lower case).
func camelToSnake(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ipythonShell splits IPython code into its Python and the shell commands
// it runs: a line starting with ! (also after an assignment: files = !ls),
// %sx and %system lines, and whole %%bash, %%sh and %%script bash|sh cells.
func ipythonShell(code string) (py string, sh []string) {
	lines := strings.Split(code, "\n")
	if first := strings.Fields(strings.TrimSpace(lines[0])); len(first) > 0 {
		switch {
		case first[0] == "%%bash" || first[0] == "%%sh" || first[0] == "%%zsh",
			first[0] == "%%script" && len(first) > 1 && (first[1] == "bash" || first[1] == "sh" || first[1] == "zsh"),
			first[0] == "%%system":
			return "", []string{strings.Join(lines[1:], "\n")}
		}
	}
	var kept []string
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if i := strings.Index(t, "= !"); i >= 0 && !strings.ContainsAny(t[:i], "([{\"'") {
			t = t[i+2:] // files = !ls
		}
		switch {
		case strings.HasPrefix(t, "!!"):
			sh = append(sh, strings.TrimSpace(t[2:]))
		case strings.HasPrefix(t, "!"):
			sh = append(sh, strings.TrimSpace(t[1:]))
		case strings.HasPrefix(t, "%sx ") || strings.HasPrefix(t, "%system "):
			_, rest, _ := strings.Cut(t, " ")
			sh = append(sh, strings.TrimSpace(rest))
		default:
			kept = append(kept, line)
			continue
		}
		kept = append(kept, "")
	}
	return strings.Join(kept, "\n"), sh
}

// cliPrograms are programs a tool may wrap by taking their arguments
// ({"args": [...]}): found in the server's or the tool's name.
var cliPrograms = []string{"gcloud", "terraform", "kubectl", "helm", "aws", "az", "gh", "docker", "git", "npm", "pnpm", "yarn", "cargo",
	"pulumi", "ansible", "flyctl", "vercel", "heroku", "doctl"}

// toolAsCommand returns the shell command line an MCP call amounts to when
// the tool runs code it is given ({"code": …, "language": "python"}) or a
// CLI whose arguments it takes ({"args": ["plan"]} of a terraform server),
// or "".
func toolAsCommand(server, tool string, v any) string {
	m, _ := v.(map[string]any)
	if m == nil {
		return ""
	}
	t := strings.ToLower(tool)
	str := func(keys ...string) string {
		for _, k := range keys {
			if s, ok := m[k].(string); ok {
				return s
			}
		}
		return ""
	}
	if verb, ok := strings.CutPrefix(t, "git_"); ok {
		// The git server's tools: git_commit {"message": …}, git_add
		// {"files": […]}, git_checkout {"branch_name": …}.
		prefix := "git"
		if dir := str("repo_path", "repository", "cwd"); dir != "" {
			prefix = "git -C " + shell.Quote(dir)
		}
		switch verb {
		case "commit":
			if msg := str("message"); msg != "" {
				return prefix + " commit -m " + shell.Quote(msg)
			}
		case "add":
			if files, ok := m["files"].([]any); ok && len(files) > 0 {
				cmd := prefix + " add --"
				for _, f := range files {
					fs, ok := f.(string)
					if !ok {
						return ""
					}
					cmd += " " + shell.Quote(fs)
				}
				return cmd
			}
		case "create_branch":
			if b := str("branch_name", "branch"); b != "" {
				return prefix + " branch " + shell.Quote(b)
			}
		case "checkout":
			if b := str("branch_name", "branch"); b != "" {
				return prefix + " checkout " + shell.Quote(b)
			}
		case "reset":
			return prefix + " reset" // mcp-server-git's git_reset unstages everything
		}
		return ""
	}
	// run-code, executeCode, force-terminate: the same words as run_code.
	words := toolNameSeparators.Replace(camelToSnake(tool))
	if code := str("code", "source", "cell", "script_content", "cell_source", "cellSource", "snippet"); code != "" && len(code) < 16<<10 {
		isCodeTool := false
		for _, w := range codeToolWords {
			if strings.Contains(words, w) {
				isCodeTool = true
			}
		}
		if isCodeTool {
			lang := strings.ToLower(str("language", "lang", "kernel", "runtime", "languageId", "language_id", "kernel_name"))
			switch {
			case lang == "" && (strings.Contains(t, "javascript") || strings.Contains(t, "_js")):
				lang = "javascript"
			case lang == "":
				lang = "python" // run_python, execute_cell of a Python notebook
			}
			switch {
			case strings.HasPrefix(lang, "python") || lang == "py" || lang == "python3" || lang == "ipython":
				// A notebook kernel runs IPython: !cmd, files = !cmd and
				// %%bash cells are shell commands.
				py, sh := ipythonShell(code)
				cmd := "python3 -c " + shell.Quote(py)
				if strings.TrimSpace(py) == "" {
					cmd = ""
				}
				for _, line := range sh {
					cmd += "\n" + line
				}
				return strings.TrimPrefix(cmd, "\n")
			case lang == "javascript" || lang == "js" || lang == "node" || lang == "nodejs" || lang == "typescript":
				return "node -e " + shell.Quote(code)
			case lang == "bash" || lang == "sh" || lang == "shell" || lang == "zsh":
				return code
			}
			return ""
		}
	}
	if strings.Contains(words, "terminate") || strings.Contains(words, "kill") {
		// force_terminate {"pid": 48213}, kill_process {"pid": "48213"}: the
		// kill it amounts to (a pid of 1 or -1 is every process).
		pid := ""
		switch v := m["pid"].(type) {
		case float64:
			pid = strconv.FormatInt(int64(v), 10)
		case json.Number:
			pid = v.String()
		case string:
			pid = v
		}
		if pid != "" && strings.Trim(pid, "-0123456789") == "" {
			return "kill -9 " + pid
		}
	}
	if u := str("url", "uri", "endpoint"); strings.Contains(u, "/containers/create") {
		// POST http://127.0.0.1:2375/containers/create {"Image", "Cmd",
		// "HostConfig": {"Binds", "Privileged"}}: the Docker API's own
		// docker run.
		if body := dockerAPIBody(m); body != nil {
			if image, _ := body["Image"].(string); image != "" {
				return dockerRunCommand(body, image, "")
			}
		}
	}
	if containerRunTool(t) && str("image") != "" {
		// docker's run_container {"image", "ports", "environment", "volumes",
		// "command"}: the docker run it amounts to (host mounts, privileges
		// and the command are read by the shell rules).
		return dockerRunCommand(m, str("image"), str("name"))
	}
	list, ok := m["args"].([]any)
	if !ok {
		list, ok = m["arguments"].([]any)
	}
	if !ok || len(list) == 0 {
		return ""
	}
	name := strings.ToLower(server + " " + tool)
	prog := ""
	for _, p := range cliPrograms {
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == ' ' || r == '.' || r == '/' }) {
			if w == p {
				prog = p
				break
			}
		}
		if prog != "" {
			break
		}
	}
	if prog == "" {
		return ""
	}
	parts := []string{prog}
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return ""
		}
		parts = append(parts, shell.Quote(s))
	}
	cmd := strings.Join(parts, " ")
	if dir := str("workdir", "cwd", "working_dir", "directory", "dir"); dir != "" {
		cmd = "cd " + shell.Quote(dir) + " && " + cmd
	}
	return cmd
}

// dockerAPIBody reads the body of a Docker API container create call (a
// JSON string or object) as the keys dockerRunCommand takes.
func dockerAPIBody(m map[string]any) map[string]any {
	var body map[string]any
	switch b := firstOf(m, "body", "data", "json", "payload").(type) {
	case string:
		if json.Unmarshal([]byte(b), &body) != nil {
			return nil
		}
	case map[string]any:
		body = b
	default:
		return nil
	}
	out := map[string]any{"Image": body["Image"]}
	if cmd, ok := body["Cmd"].([]any); ok {
		out["command"] = cmd
	} else if cmd, ok := body["Cmd"].(string); ok {
		out["command"] = cmd
	}
	if hc, ok := body["HostConfig"].(map[string]any); ok {
		if binds, ok := hc["Binds"].([]any); ok {
			out["volumes"] = binds
		}
		if priv, ok := hc["Privileged"].(bool); ok {
			out["privileged"] = priv
		}
		if nm, ok := hc["NetworkMode"].(string); ok {
			out["network_mode"] = nm
		}
	}
	return out
}

// firstOf returns the first of keys m has.
func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// cliSubcommandCall builds the command line of a tool named for a CLI
// program (run_terraform, helm_tool) whose "command" is one of that
// program's subcommands ({"command": "destroy", "args": ["-auto-approve"]}),
// or "" when the input is not of that shape.
func cliSubcommandCall(server, tool string, v any) string {
	m, _ := v.(map[string]any)
	if m == nil {
		return ""
	}
	sub, _ := m["command"].(string)
	if sub == "" {
		sub, _ = m["subcommand"].(string)
	}
	sub = strings.TrimSpace(sub)
	if sub == "" || strings.ContainsAny(sub, " \t;|&$`'\"<>()") || strings.HasPrefix(sub, "-") {
		return ""
	}
	prog := ""
	name := strings.ToLower(server + " " + tool)
	for _, p := range cliPrograms {
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == ' ' || r == '.' || r == '/' }) {
			if w == p {
				prog = p
			}
		}
		if prog != "" {
			break
		}
	}
	if prog == "" || sub == prog || effects.Lookup(sub) != nil {
		return "" // {"command": "kubectl get pods"} is a whole command line
	}
	parts := []string{prog, shell.Quote(sub)}
	for _, k := range []string{"args", "arguments", "flags"} {
		if list, ok := m[k].([]any); ok {
			for _, x := range list {
				s, ok := x.(string)
				if !ok {
					return ""
				}
				parts = append(parts, shell.Quote(s))
			}
		}
	}
	cmd := strings.Join(parts, " ")
	for _, k := range []string{"working_dir", "workdir", "cwd", "directory", "dir"} {
		if dir, ok := m[k].(string); ok && dir != "" {
			cmd = "cd " + shell.Quote(dir) + " && " + cmd
			break
		}
	}
	return cmd
}

// pageScriptTool reports a browser automation tool that runs JavaScript in
// the page (browser_evaluate, puppeteer_evaluate, playwright's evaluate).
func pageScriptTool(server, tool string) bool {
	t, srv := strings.ToLower(tool), strings.ToLower(server)
	if !strings.Contains(t, "evaluate") && !strings.Contains(t, "execute_script") {
		return false
	}
	for _, w := range []string{"browser", "puppeteer", "playwright", "chrome", "page", "selenium", "webdriver"} {
		if strings.Contains(t, w) || strings.Contains(srv, w) {
			return true
		}
	}
	return false
}

// containerRunTool reports a tool that starts a container from an image.
func containerRunTool(tool string) bool {
	switch strings.ToLower(tool) {
	case "run_container", "create_container", "create-container", "run-container", "docker_run", "container_run", "start_container":
		return true
	}
	return false
}

// dockerRunCommand builds the docker run command line a container tool's
// input amounts to, or "" when a part of it cannot be read (a value that is
// not a string, a number or a boolean).
func dockerRunCommand(m map[string]any, image, name string) string {
	parts := []string{"docker", "run", "-d"}
	if name != "" {
		parts = append(parts, "--name", shell.Quote(name))
	}
	scalar := func(v any) (string, bool) {
		switch t := v.(type) {
		case string:
			return t, true
		case float64:
			return strconv.FormatFloat(t, 'f', -1, 64), true
		case bool:
			return strconv.FormatBool(t), true
		}
		return "", false
	}
	for _, key := range []string{"ports", "port_bindings", "portBindings"} {
		ports, ok := m[key].(map[string]any)
		if !ok {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(ports)) {
			host, ok := scalar(ports[k])
			if !ok {
				return ""
			}
			parts = append(parts, "-p", shell.Quote(host+":"+strings.TrimSuffix(strings.TrimSuffix(k, "/tcp"), "/udp")))
		}
	}
	for _, key := range []string{"environment", "env"} {
		switch env := m[key].(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(env)) {
				v, ok := scalar(env[k])
				if !ok {
					return ""
				}
				parts = append(parts, "-e", shell.Quote(k+"="+v))
			}
		case []any:
			for _, x := range env {
				v, ok := x.(string)
				if !ok {
					return ""
				}
				parts = append(parts, "-e", shell.Quote(v))
			}
		}
	}
	for _, key := range []string{"volumes", "binds", "mounts"} {
		switch vols := m[key].(type) {
		case []any:
			for _, x := range vols {
				v, ok := x.(string)
				if !ok {
					return ""
				}
				parts = append(parts, "-v", shell.Quote(v))
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(vols)) {
				v, ok := scalar(vols[k])
				if !ok {
					if vm, isMap := vols[k].(map[string]any); isMap {
						v, ok = scalar(vm["bind"])
					}
					if !ok {
						return ""
					}
				}
				parts = append(parts, "-v", shell.Quote(k+":"+v))
			}
		}
	}
	if priv, ok := m["privileged"].(bool); ok && priv {
		parts = append(parts, "--privileged")
	}
	if nm, ok := m["network_mode"].(string); ok && nm != "" {
		parts = append(parts, "--network", shell.Quote(nm))
	}
	switch rp := m["restart_policy"].(type) {
	case string:
		if rp != "" && rp != "no" {
			parts = append(parts, "--restart", shell.Quote(rp))
		}
	case map[string]any:
		if name, ok := rp["Name"].(string); ok && name != "" && name != "no" {
			parts = append(parts, "--restart", shell.Quote(name))
		}
	}
	parts = append(parts, shell.Quote(image))
	switch cmd := m["command"].(type) {
	case string:
		if cmd != "" {
			parts = append(parts, "sh", "-c", shell.Quote(cmd))
		}
	case []any:
		for _, x := range cmd {
			v, ok := x.(string)
			if !ok {
				return ""
			}
			parts = append(parts, shell.Quote(v))
		}
	}
	return strings.Join(parts, " ")
}

// hasSystemRoot reports whether s is an absolute path under a top-level
// directory that real file paths use (so /vercel/next.js, a library id, is not).
func hasSystemRoot(s string) bool {
	if !strings.HasPrefix(s, "/") || strings.Contains(s, " ") {
		return false
	}
	top, _, _ := strings.Cut(s[1:], "/")
	switch top {
	case "home", "Users", "root", "etc", "var", "usr", "opt", "tmp", "private", "mnt", "Volumes",
		"srv", "workspace", "workspaces", "code", "src", "proc", "sys", "dev", "boot", "bin", "sbin", "lib", "Library", "System", "Applications":
		return true
	}
	return false
}

func isPathKey(k string) bool {
	k = strings.ToLower(k)
	switch k {
	case "path", "file", "filename", "file_path", "filepath", "directory", "dir", "source", "destination", "target_file",
		// read_multiple_files {"paths": […]}: lists of them.
		"paths", "files", "filenames", "file_paths", "filepaths", "directories", "dirs", "sources", "target_files":
		return true
	}
	// relative_path, absolutePath, local_path, body_file, source_file:
	// names that end in what they hold.
	for _, not := range []string{"xpath", "jsonpath", "json_path", "classpath", "url", "route", "api", "endpoint", "http", "css"} {
		if strings.Contains(k, not) {
			return false // an XPath, a class path, a URL's path: not a file
		}
	}
	for _, suffix := range []string{"path", "paths", "_file", "_files", "filename", "_dir", "directory"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// traversalForms returns what a relative path that climbs with ../ may reach
// when the server's directory is unknown: its tail from the root and from the
// home directory, kept only when that names a sensitive file
// (../../../../home/u/.config/gh/hosts.yml, ../../.ssh/id_ed25519).
func traversalForms(p string, ctx Context) []string {
	p = strings.ReplaceAll(p, "\\", "/")
	if !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "./../") {
		return nil
	}
	rest := p
	for {
		switch {
		case strings.HasPrefix(rest, "../"):
			rest = rest[3:]
		case strings.HasPrefix(rest, "./"):
			rest = rest[2:]
		default:
			var out []string
			for _, f := range []string{"/" + rest, "~/" + rest} {
				if rest != "" && len(effects.PathClassesOf(f, "", ctx.Home)) > 0 {
					out = append(out, f)
				}
			}
			return out
		}
	}
}

// publicKeyPath reports the path of an SSH or GPG public key (id_ed25519.pub,
// any *.pub in ~/.ssh): published by design.
func publicKeyPath(p string) bool {
	base := gopath.Base(p)
	return strings.HasSuffix(base, ".pub") && !strings.ContainsAny(p, "*?$`") && !strings.Contains(p, "..")
}
