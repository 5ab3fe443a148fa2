package effects

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Editor configuration files (.vscode/settings.json, .vscode/tasks.json) are
// guard-class paths: a task that runs when the folder opens, or a setting that
// names a program the editor starts, runs code later by itself. They are also
// files an agent is routinely asked to write (format on save, a build task).
// When the written content is known (echo, printf, a heredoc) it decides:
// a task that runs by itself is a danger, a setting that names a program or
// an environment is a concern, anything else is harmless. Unknown content is
// a concern, never an allow.

// EditorConfigFile reports an editor settings or tasks file in a project.
func EditorConfigFile(p string) bool {
	return EditorTaskFile(p) || strings.HasSuffix(strings.ToLower(strings.ReplaceAll(p, "\\", "/")), ".vscode/settings.json")
}

// EditorTaskFile reports an editor's task file (.vscode/tasks.json): its
// tasks run when the user starts them, or by themselves with runOn
// folderOpen.
func EditorTaskFile(p string) bool {
	return strings.HasSuffix(strings.ToLower(strings.ReplaceAll(p, "\\", "/")), ".vscode/tasks.json")
}

// EditorTaskRunsByItself reports content that makes an editor task run when
// the folder is opened, or that cannot be told apart from one (escaped text).
func EditorTaskRunsByItself(content string) bool {
	low := strings.ToLower(content)
	return strings.Contains(low, "folderopen") || strings.Contains(low, "runon") || strings.Contains(low, `\u`)
}

// EditorSettingsConcern names what in a settings file's content makes the
// editor start a program or change its environment ("" when nothing does).
// Content that is not a JSON object is a concern: it is not understood.
func EditorSettingsConcern(content string) string {
	settings, ok := settingsObject(content)
	if !ok {
		return "content that is not plain JSON"
	}
	for k, v := range settings {
		if why := settingConcern(strings.ToLower(k), v); why != "" {
			return why + " (" + k + ")"
		}
	}
	return ""
}

// settingsObject parses settings content: a whole JSON object, or the
// members an edit adds ("a": 1, "b": true), read as one.
func settingsObject(content string) (map[string]any, bool) {
	var settings map[string]any
	if err := json.Unmarshal([]byte(content), &settings); err == nil && settings != nil {
		return settings, true
	}
	frag := strings.TrimSuffix(strings.TrimSpace(content), ",")
	if err := json.Unmarshal([]byte("{"+frag+"}"), &settings); err == nil && settings != nil {
		return settings, true
	}
	return nil, false
}

// EditorSettingsDanger names a setting that lets the agent act without the
// user: auto-approval of its tool calls or commands, workspace trust turned
// off ("" when there is none).
func EditorSettingsDanger(content string) string {
	settings, ok := settingsObject(content)
	if !ok {
		return ""
	}
	var walk func(prefix string, m map[string]any) string
	walk = func(prefix string, m map[string]any) string {
		for k, v := range m {
			key := prefix + strings.ToLower(k)
			if sub, ok := v.(map[string]any); ok {
				if why := walk(key+".", sub); why != "" {
					return why
				}
				if len(sub) > 0 && approvalKey(key) {
					return "a setting that approves the agent's actions without the user (" + k + ")"
				}
				continue
			}
			switch val := v.(type) {
			case bool:
				if val && approvalKey(key) || !val && key == "security.workspace.trust.enabled" {
					return "a setting that approves the agent's actions without the user (" + k + ")"
				}
			case []any:
				if len(val) > 0 && approvalKey(key) {
					return "a setting that approves the agent's actions without the user (" + k + ")"
				}
			}
		}
		return ""
	}
	return walk("", settings)
}

// approvalKey reports a setting whose name says it approves actions by itself.
func approvalKey(key string) bool {
	for _, w := range []string{"autoapprove", "auto_approve", "auto-approve", "yolo", "dangerously", "skippermission",
		"skip_permission", "bypasspermission", "alwaysallow", "always_allow", "autorun", "auto_run"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// runWords are words in a setting's name that say its value is a program, a
// command line or an environment the editor uses.
var runWords = []string{"terminal", "shell", "env", "command", "exec", "executable", "program", "interpreter",
	"path", "args", "server", "launch", "task", "runon", "automation", "profile", "hook", "script", "binary", "cmd"}

func settingConcern(key string, v any) string {
	if strings.Contains(key, "terminal.integrated") || strings.Contains(key, ".env") || strings.HasSuffix(key, "env") {
		return "a setting that changes the terminal or the environment"
	}
	runs := false
	for _, w := range runWords {
		if strings.Contains(key, w) {
			runs = true
			break
		}
	}
	switch val := v.(type) {
	case bool, float64, nil:
		return ""
	case string:
		if !runs || workspaceRelative(val) {
			return ""
		}
		return "a setting that names a program outside the workspace"
	case map[string]any:
		for k, sub := range val {
			if why := settingConcern(key+"."+strings.ToLower(k), sub); why != "" {
				return why
			}
		}
		return ""
	case []any:
		for _, sub := range val {
			if why := settingConcern(key, sub); why != "" {
				return why
			}
		}
		return ""
	}
	return "a setting that is not understood"
}

// workspaceRelative reports a value that is a plain path inside the workspace
// (.venv/bin/python, ${workspaceFolder}/node_modules/.bin/eslint), with no
// shell syntax and no way out of it.
func workspaceRelative(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "${workspaceFolder}/"), "./")
	if v == "" || strings.ContainsAny(v, " \t;|&$`()<>\\~:") || strings.HasPrefix(v, "/") {
		return false
	}
	for _, part := range strings.Split(path.Clean(v), "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// editorConfigVerdict decides a write of known content to an editor file:
// danger says the content runs code by itself, concern that a person should
// look; both empty means the write is harmless.
func editorConfigVerdict(p, content string) (danger, concern string) {
	if strings.Contains(content, "$(") || strings.Contains(content, "`") {
		return "", "content only known at run time"
	}
	if EditorTaskFile(p) {
		if EditorTaskRunsByItself(content) {
			return "an editor task that runs by itself when the folder opens", ""
		}
		return "", ""
	}
	if EditorTaskRunsByItself(content) {
		return "", "settings that mention tasks run on folder open"
	}
	if why := EditorSettingsDanger(content); why != "" {
		return why, ""
	}
	return "", EditorSettingsConcern(content)
}

var (
	// jq: .["key"] = value, ."key" = value, ."key".sub = value.
	jqSetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.(?:\["([^"\]]+)"\]|"([^"]+)")((?:\.(?:"[^"]+"|[A-Za-z_]\w*))*)\s*\+?=\s*("(?:[^"\\]|\\.)*"|true|false|null|-?\d+(?:\.\d+)?|\{[^{}]*\}|\[[^\[\]]*\])`)
	})
	// jq: . + {...} or . * {...}: the object merged in.
	jqMergeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.\s*[+*]\s*(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})`)
	})
	// Python and Node: d['key'] = value, s["key"] = value.
	codeSetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[\s*['"]([\w.\-/]+)['"]\s*\]\s*=\s*(True|False|true|false|None|null|-?\d+(?:\.\d+)?|'[^'\n]*'|"[^"\n]*"|\{[^{}\n]*\})`)
	})
)

// EditorEditContent reads the settings a command line sets in an editor's
// settings file through jq or a Python/Node one-liner, as the JSON object
// those assignments amount to; ok is false when the line sets none.
// Nested assignments (."a".b = v) become {"a": {"b": v}}.
func EditorEditContent(line string) (content string, ok bool) {
	obj := map[string]any{}
	put := func(key, sub, raw string) {
		raw = strings.TrimSpace(raw)
		switch raw {
		case "True":
			raw = "true"
		case "False":
			raw = "false"
		case "None":
			raw = "null"
		}
		if strings.HasPrefix(raw, "'") && strings.HasSuffix(raw, "'") && len(raw) >= 2 {
			b, _ := json.Marshal(raw[1 : len(raw)-1])
			raw = string(b)
		}
		var v any
		if err := json.Unmarshal([]byte(strings.ReplaceAll(raw, "'", `"`)), &v); err != nil {
			v = raw // not JSON: kept as text, which the settings checks read
		}
		if sub != "" {
			m, _ := obj[key].(map[string]any)
			if m == nil {
				m = map[string]any{}
			}
			m[strings.Trim(strings.TrimPrefix(sub, "."), `"`)] = v
			v = m
		}
		obj[key] = v
	}
	for _, m := range jqSetRe().FindAllStringSubmatch(line, 16) {
		put(m[1]+m[2], m[3], m[4])
	}
	for _, m := range jqMergeRe().FindAllStringSubmatch(line, 4) {
		var merged map[string]any
		if err := json.Unmarshal([]byte(m[1]), &merged); err != nil {
			return "", false // an object we cannot read: not understood
		}
		for k, v := range merged {
			obj[k] = v
		}
	}
	for _, m := range codeSetRe().FindAllStringSubmatch(line, 16) {
		put(m[1], "", m[2])
	}
	if len(obj) == 0 {
		return "", false
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// EditorEditVerdict is the settings checks on what a command line sets in
// an editor's settings file (see EditorEditContent): a danger (auto-approval,
// trust off, a loader in the terminal's environment), a concern, or both
// empty when every setting is harmless.
func EditorEditVerdict(content string) (danger, concern string) {
	return editorConfigVerdict(".vscode/settings.json", content)
}

// harmlessNpmrcKeys are npm settings that change how npm behaves but run
// nothing and send nothing elsewhere.
var harmlessNpmrcKeys = map[string]bool{"ignore-scripts": true, "save-exact": true, "save-prefix": true, "fund": true,
	"audit": true, "progress": true, "loglevel": true, "engine-strict": true, "package-lock": true, "update-notifier": true,
	"init-author-name": true, "init-author-email": true, "init-author-url": true, "init-license": true, "init-version": true,
	"legacy-peer-deps": true, "auto-install-peers": true, "prefer-offline": true, "prefer-online": true, "color": true,
	"unicode": true, "strict-peer-dependencies": true, "save": true, "fetch-retries": true, "fetch-timeout": true}

// ProjectNpmrcFile reports a project's package-manager configuration file
// (.npmrc, .yarnrc, .yarnrc.yml): settings in it can name a program every
// script runs with.
func ProjectNpmrcFile(p string) bool {
	switch path.Base(p) {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmrc":
		return true
	}
	return false
}

// npmrcRunsPrograms reports .npmrc/.yarnrc content with a setting that
// names a program npm or yarn runs (script-shell, node-options, git,
// shell, editor, …) or another configuration file it loads; registry,
// scope and ${VAR} token lines do not.
func npmrcRunsPrograms(content string) bool {
	all, _ := EveryLine(content, "#;", func(line string) bool {
		key, _, ok := strings.Cut(line, "=")
		if !ok {
			key, _, ok = strings.Cut(line, ":") // .yarnrc.yml
		}
		if !ok {
			key, _, _ = strings.Cut(line, " ") // .yarnrc: key "value"
		}
		switch strings.ToLower(strings.Trim(strings.TrimSpace(key), `"'`)) {
		case "script-shell", "node-options", "shell", "git", "editor", "browser", "viewer", "init-module", "globalconfig",
			"userconfig", "onload-script", "yarnpath", "yarn-path", "plugins", "injectenvironmentfiles", "nodeoptions":
			return false
		}
		return true
	})
	return !all
}

// harmlessConfigContent reports known content for a start-up or tool
// configuration file that only sets harmless values (echo
// 'ignore-scripts=true' >> ~/.npmrc).
func harmlessConfigContent(p, content string) bool {
	if strings.TrimSpace(content) == "" {
		return false
	}
	if path.Base(p) == "config" && path.Base(path.Dir(p)) == ".ssh" {
		return harmlessSSHConfig(content)
	}
	if strings.HasSuffix(p, ".pth") {
		// A .pth line runs only when it starts with import; others are
		// folders added to the module path.
		all, _ := EveryLine(content, "#", func(line string) bool {
			return !strings.HasPrefix(line, "import") && !strings.ContainsAny(line, ";`$")
		})
		return all
	}
	if path.Base(p) != ".npmrc" {
		return false
	}
	all, _ := EveryLine(content, "#;", func(line string) bool {
		key, val, ok := strings.Cut(line, "=")
		return ok && harmlessNpmrcKeys[strings.TrimSpace(key)] && !strings.ContainsAny(val, "$`;|&")
	})
	return all
}

// EveryLine reports whether every line of content that is not blank and
// does not start with one of the comment characters passes ok (lines
// trimmed), and how many such lines there are.
func EveryLine(content, comments string, ok func(line string) bool) (all bool, n int) {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.ContainsRune(comments, rune(line[0])) {
			continue
		}
		if !ok(line) {
			return false, n
		}
		n++
	}
	return true, n
}

// pathLinesOnly reports content made only of PATH lines for tools' own
// bin folders (and blank or comment lines).
func pathLinesOnly(content string, roots []string) bool {
	all, n := EveryLine(content, "#", func(line string) bool { return pathEntryLine(line, roots) })
	return all && n > 0
}

// toolPrefixSubstitutions are the command substitutions toolchains' install
// guides put in a PATH line to name their own folder
// (export PATH="$PATH:$(go env GOPATH)/bin"), each with a folder of the same
// kind standing in for it: the command only prints a setting.
var toolPrefixSubstitutions = map[string]string{
	"$(go env GOPATH)": "/home/user/go", "$(npm config get prefix)": "/home/user/.npm-global",
	"$(npm prefix -g)": "/home/user/.npm-global", "$(brew --prefix)": "/opt/homebrew",
	"$(python3 -m site --user-base)": "/home/user/.local", "$(python -m site --user-base)": "/home/user/.local",
	"$(gem env gemdir)": "/home/user/.gem", "$(yarn global dir)": "/home/user/.yarn",
}

// pathEntryLine reports a start-up line that adds folders to PATH and does
// nothing else: export PATH="DIR:$PATH" (any number of folders, before or
// after $PATH), fish_add_path DIR, set -gx PATH DIR $PATH, path+=(DIR).
// Each folder is a tool's bin (or sbin, shims) folder, absolute, in the
// home folder or under /usr/local or /opt, outside the workspace, with no
// hidden folder but a tool's own (~/.cargo/bin, not ~/.cache/.x/bin) and
// nothing run or substituted in it.
func pathEntryLine(line string, roots []string) bool {
	var dirs []string
	selfSeen := false
	switch {
	case strings.HasPrefix(line, "export PATH=") || strings.HasPrefix(line, "PATH="):
		v := strings.TrimPrefix(strings.TrimPrefix(line, "export "), "PATH=")
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		for _, e := range strings.Split(v, ":") {
			if e == "$PATH" || e == "${PATH}" {
				if selfSeen {
					return false
				}
				selfSeen = true
				continue
			}
			dirs = append(dirs, e)
		}
		if !selfSeen {
			return false // PATH replaced, not extended
		}
	case strings.HasPrefix(line, "fish_add_path "):
		for _, w := range strings.Fields(strings.TrimPrefix(line, "fish_add_path ")) {
			if !strings.HasPrefix(w, "-") {
				dirs = append(dirs, strings.Trim(w, "\"'"))
			}
		}
	case strings.HasPrefix(line, "set -gx PATH ") || strings.HasPrefix(line, "set -x PATH "):
		for _, w := range strings.Fields(line)[3:] {
			w = strings.Trim(w, "\"'")
			if w == "$PATH" {
				selfSeen = true
				continue
			}
			dirs = append(dirs, w)
		}
		if !selfSeen {
			return false
		}
	case strings.HasPrefix(line, "path+=(") && strings.HasSuffix(line, ")"):
		dirs = strings.Fields(strings.TrimSuffix(strings.TrimPrefix(line, "path+=("), ")"))
	default:
		return false
	}
	if len(dirs) == 0 {
		return false
	}
	for _, d := range dirs {
		d = strings.Trim(d, "\"'")
		for sub, stand := range toolPrefixSubstitutions {
			if strings.HasPrefix(d, sub+"/") {
				d = stand + strings.TrimPrefix(d, sub)
			}
		}
		for _, pre := range []string{"$HOME/", "${HOME}/", "~/"} {
			if strings.HasPrefix(d, pre) {
				d = "/home/user/" + strings.TrimPrefix(d, pre)
			}
		}
		if d == "" || strings.ContainsAny(d, "$`;|&<>(){} \t*?") || !strings.HasPrefix(d, "/") || path.Clean(d) != strings.TrimSuffix(d, "/") ||
			!(strings.HasPrefix(d, "/home/") || strings.HasPrefix(d, "/Users/") || strings.HasPrefix(d, "/root/") ||
				strings.HasPrefix(d, "/usr/local/") || strings.HasPrefix(d, "/opt/")) {
			return false
		}
		d = strings.TrimSuffix(d, "/")
		switch path.Base(d) {
		case "bin", "sbin", "shims":
		default:
			return false
		}
		for _, root := range roots {
			if root = strings.TrimSuffix(root, "/"); root != "" && (d == root || strings.HasPrefix(d, root+"/")) {
				return false // the project's own programs ahead of the system's
			}
		}
		segs := strings.Split(d, "/")
		for i, seg := range segs {
			// /home/u/.cargo/bin: the tool's folder right under home may be
			// hidden; a hidden folder deeper down is a place to hide in.
			if strings.HasPrefix(seg, ".") && !(i == 3 && (segs[1] == "home" || segs[1] == "Users") || i == 2 && segs[1] == "root") {
				return false
			}
		}
	}
	return true
}

// harmlessSSHKeywords are ssh_config settings that choose a host, user, key
// or connection behaviour and run no local command (ProxyCommand,
// LocalCommand, KnownHostsCommand and Match exec do; Include reads
// elsewhere).
var harmlessSSHKeywords = map[string]bool{"host": true, "hostname": true, "user": true, "port": true, "identityfile": true,
	"identitiesonly": true, "addkeystoagent": true, "usekeychain": true, "serveraliveinterval": true, "serveralivecountmax": true,
	"connecttimeout": true, "compression": true, "controlmaster": true, "controlpath": true, "controlpersist": true,
	"preferredauthentications": true, "pubkeyauthentication": true, "proxyjump": true, "loglevel": true, "hashknownhosts": true,
	"tcpkeepalive": true, "requesttty": true, "setenv": false, "sendenv": false}

// harmlessSSHConfig reports ssh_config lines (written with known content)
// that only name hosts, users, keys and connection settings.
func harmlessSSHConfig(content string) bool {
	all, n := EveryLine(content, "#", func(line string) bool {
		key, val, _ := strings.Cut(strings.Replace(line, "=", " ", 1), " ")
		return harmlessSSHKeywords[strings.ToLower(key)] && !strings.ContainsAny(val, "$`;|&<>()")
	})
	return all && n > 0
}
