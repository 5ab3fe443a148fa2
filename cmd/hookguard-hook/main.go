// Command hookguard-hook is the thin hook client: what `hookguard install`
// puts in hooks.json when it is installed beside hookguard. It takes the same
// arguments as `hookguard hook`, hands the event to the resident evaluator in
// `hookguard serve` (which keeps the compiled policy between events) and
// prints its answer: the same stdout, stderr and exit code `hookguard hook`
// gives, without starting a large program for every event.
//
// When no server answers, or it cannot answer for this client (another
// build of hookguard, another environment), the client runs `hookguard hook`
// itself on the same input, and that process starts a server for the next
// event. The answer never depends on the server being there. Every other
// command line is passed to hookguard as is.
//
// hookguard is found beside this program (or at $HOOKGUARD_BIN). Set
// HOOKGUARD_RESIDENT=off to always run `hookguard hook` directly.
package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/internal/statepath"
)

func main() {
	os.Exit(run())
}

func run() int {
	args := os.Args[1:]
	full, err := fullBinary()
	if err != nil {
		return failClosed("hookguard-hook cannot find the hookguard binary: " + err.Error())
	}
	if len(args) == 0 || args[0] != "hook" || !supported || os.Getenv("HOOKGUARD_RESIDENT") == "off" || relativeSettings() {
		return execFull(full, args, false)
	}
	env := resident.EnvDigest(os.Environ())
	conn, err := connect(filepath.Join(statepath.Dir(os.Getenv), resident.Name(env)+".sock"))
	if err != nil {
		// No server: hookguard answers, and starts one for the next event.
		return execFull(full, args, true)
	}
	data, err := readInput(os.Stdin)
	if err != nil {
		conn.close()
		return failClosed("hookguard-hook could not read the event: " + err.Error())
	}
	req := resident.Request{Op: resident.OpHook, Build: resident.BuildOf(full), Env: env,
		Args: absoluteArgs(args[1:]), Event: data}
	line, err := conn.exchange(resident.EncodeRequest(req))
	conn.close()
	var rep *resident.Reply
	if err == nil {
		rep, err = resident.ParseReply(line)
	}
	if err != nil {
		// The server could not answer (restarting after an upgrade, an
		// error): hookguard answers the same input itself.
		return runFull(full, args, data)
	}
	_, _ = os.Stdout.Write(rep.Stdout)
	if len(rep.Stderr) > 0 {
		_, _ = os.Stderr.Write(rep.Stderr)
	}
	return rep.Code
}

// relativeSettings reports a setting that names a path relative to the
// working directory: the evaluator runs elsewhere and would read another
// file, so hookguard answers itself.
func relativeSettings() bool {
	for _, k := range []string{"HOOKGUARD_POLICY", "XDG_CONFIG_HOME", "HOME"} {
		if v := os.Getenv(k); v != "" && !filepath.IsAbs(v) {
			return true
		}
	}
	return false
}

// fullBinary is hookguard: $HOOKGUARD_BIN, else the program beside this one.
func fullBinary() (string, error) {
	if p := os.Getenv("HOOKGUARD_BIN"); p != "" {
		return p, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	name := "hookguard"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(filepath.Dir(self), name), nil
}

// readInput reads stdin up to one byte past the event size cap: the server
// then reports the oversized event as hookguard would.
func readInput(f *os.File) ([]byte, error) {
	return io.ReadAll(io.LimitReader(f, resident.MaxEventBytes+1))
}

// absoluteArgs makes a relative --policy path absolute: the server runs in
// another directory.
func absoluteArgs(args []string) []string {
	out := append([]string(nil), args...)
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil && p != "" {
			return a
		}
		return p
	}
	for i := 0; i < len(out); i++ {
		name, val, attached := strings.Cut(out[i], "=")
		if name != "--policy" && name != "-policy" {
			continue
		}
		if attached {
			out[i] = name + "=" + abs(val)
		} else if i+1 < len(out) {
			out[i+1] = abs(out[i+1])
			i++
		}
	}
	return out
}

// failClosed answers a deny and exits 2, as `hookguard hook` does for an
// event it cannot handle (hook.DenyUnreadable, written by hand: this client
// links no JSON encoder).
func failClosed(msg string) int {
	user := "hookguard could not read the event (" + msg + "); the action was blocked."
	agent := user + " Do not retry the same action; tell the user hookguard blocked it."
	_, _ = os.Stdout.Write(resident.DenyLine(user, agent))
	_, _ = os.Stderr.WriteString("hookguard-hook: " + msg + "; the action was blocked.\n")
	return 2
}
