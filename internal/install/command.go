package install

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// How hookguard recognises its own entries
//
// An entry belongs to hookguard when its command, split like a POSIX shell
// would split it, runs a program whose base name is "hookguard" (or
// "hookguard.exe") and whose first argument is "hook". That holds for every
// command install writes ("/abs/path/hookguard hook --dialect cursor") and for
// hand-written or older ones ("hookguard hook", "~/go/bin/hookguard hook",
// "./bin/hookguard hook"), wherever the binary lived. It deliberately does not
// hold for wrappers ("env X=1 hookguard hook", "sh -c '…'", "my-hookguard.sh")
// or for other subcommands ("hookguard logs"): those are the user's own hooks
// and install and uninstall leave them alone. No marker field is added to the
// entries, because Cursor and Claude Code validate their hook entries and an
// unknown field is one more way for a hooks file to stop loading.

// IsHookguardCommand reports whether a hook command runs `hookguard hook`,
// whatever the binary is called: a program named hookguard, the invocation
// install writes (PROGRAM hook --dialect cursor|claude, so a renamed,
// versioned or moved binary is still recognized, even once it is gone), or an
// executable whose build info says it is hookguard (reached through a link).
func IsHookguardCommand(command string) bool {
	argv := splitWords(command)
	if len(argv) < 2 || argv[1] != "hook" {
		return false
	}
	if isHookguardProgram(argv[0]) {
		return true
	}
	for i := 2; i+1 < len(argv); i++ {
		if argv[i] == "--dialect" && (argv[i+1] == "cursor" || argv[i+1] == "claude") {
			return true
		}
	}
	for _, a := range argv[2:] {
		if a == "--dialect=cursor" || a == "--dialect=claude" {
			return true
		}
	}
	return isHookguardBuild(argv[0])
}

// modulePath is the main module of the hookguard binary.
const modulePath = "github.com/hookguard/hookguard"

// isHookguardBuild reports whether the executable at p (through symbolic
// links) was built from hookguard's command.
func isHookguardBuild(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	info, err := buildinfo.ReadFile(p)
	if err != nil {
		return false
	}
	return info.Path == modulePath+"/cmd/hookguard" || info.Path == modulePath+"/cmd/hookguard-hook" ||
		info.Main.Path == modulePath && (strings.HasSuffix(info.Path, "/cmd/hookguard") || strings.HasSuffix(info.Path, "/cmd/hookguard-hook"))
}

// isHookguardProgram reports whether a program path names the hookguard binary.
func isHookguardProgram(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	base := strings.ToLower(p[strings.LastIndex(p, "/")+1:])
	return base == "hookguard" || base == "hookguard.exe" || base == "hookguard-hook" || base == "hookguard-hook.exe"
}

// ThinClientBeside returns the thin hook client (hookguard-hook, see
// cmd/hookguard-hook) installed beside the hookguard binary, or "" when there
// is none or it cannot serve that binary: it finds hookguard by that name
// alone, and it answers through the resident evaluator only on Linux and
// macOS (elsewhere it would only add a process).
func ThinClientBeside(binary string) string {
	if binary == "" || runtime.GOOS != "linux" && runtime.GOOS != "darwin" || filepath.Base(binary) != "hookguard" {
		return ""
	}
	p := filepath.Join(filepath.Dir(binary), "hookguard-hook")
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	if info, err := buildinfo.ReadFile(p); err == nil && !strings.HasSuffix(info.Path, "/cmd/hookguard-hook") {
		return "" // a file of that name that is not the client
	}
	return p
}

// CommandProgram returns the program a hook command runs (its first word,
// unquoted), or "" for an empty command.
func CommandProgram(command string) string {
	argv := splitWords(command)
	if len(argv) == 0 {
		return ""
	}
	return argv[0]
}

// CommandArgs returns a hook command split into words like a POSIX shell would.
func CommandArgs(command string) []string { return splitWords(command) }

// splitWords splits a command line into words with POSIX quoting rules:
// single quotes, double quotes with backslash escapes, and bare backslashes.
// It does no expansion; that is enough to find the program and its arguments.
func splitWords(s string) []string {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
	)
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
			} else {
				cur.WriteString(s[i+1 : i+1+j])
				i += j + 1
			}
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s) && runtime.GOOS != "windows":
			in = true
			i++
			cur.WriteByte(s[i])
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// quoteWord quotes a word for a POSIX shell when it needs quoting.
func quoteWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// HookCommand is the command line a hooks file runs for hookguard: the binary
// (quoted when its path needs it) with `hook --dialect <dialect>`.
func HookCommand(binary, dialect string) string {
	return quoteWord(filepath.ToSlash(binary)) + " hook --dialect " + dialect
}
