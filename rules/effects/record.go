package effects

import (
	"fmt"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
)

// File operations.
const (
	OpRead   = "read"
	OpWrite  = "write"
	OpDelete = "delete"
	OpMode   = "mode"
)

// FileEffect is one file a command touches.
type FileEffect struct {
	Op        string   `json:"op"`
	Path      string   `json:"path"`
	Classes   []string `json:"classes,omitempty"`
	Recursive bool     `json:"recursive,omitempty"`
	// Meta says only names and attributes are read (ls, stat), not contents,
	// or a key is used to authenticate without being shown (ssh -i).
	Meta bool `json:"meta,omitempty"`
	// Dynamic says the path is only known at run time.
	Dynamic bool `json:"dynamic,omitempty"`

	// content is what a write puts in the file when the command line says
	// (echo, printf, a heredoc); contentKnown says it does.
	content      string
	contentKnown bool
	// replaces says a write truncates or replaces the file (>, cp, mv onto
	// it, tee without -a): what it held before is gone.
	replaces bool
	// folder says a write only creates a folder (mkdir): nothing that was
	// there is overwritten, and an empty folder runs nothing.
	folder bool
	// moved says a delete is the source of a move to an ordinary place
	// inside the workspace.
	moved bool
	// mode is the mode a chmod sets ("" for other operations).
	mode string
	// scriptVerdict is the rule pass's decision on a hook script's known
	// content ("" when not decided).
	scriptVerdict hook.Decision
	// laterDanger says what makes the known content of a file that runs
	// later by itself dangerous ("" when nothing does, or it is not known).
	laterDanger string
	// laterHarmless says that known content is code the rules understand
	// and allow: it runs only what they would let the agent run now.
	laterHarmless bool
}

// narrowing reports a mode change that grants no one new rights (chmod 600;
// for a credential file, no rights for group or others at all).
func (f *FileEffect) narrowing() bool {
	return f.Op == OpMode && f.mode != "" && NarrowingMode(f.mode, has(f.Classes, ClassSecret))
}

// CodeEffect is code a command runs.
type CodeEffect struct {
	// Kind is inline, file, stdin, project or package.
	Kind string `json:"kind"`
	Lang string `json:"lang,omitempty"`
	// What is the file, package or a short form of the inline code.
	What string `json:"what,omitempty"`
	// Found is what the per-language analysis saw (deletes files, spawns
	// processes, sends over the network, …); empty when the code only
	// computes and prints. Unanalyzable code says so.
	Found []string `json:"found,omitempty"`
	// Deletes are the literal paths the code deletes (recorded as file effects).
	Deletes []string `json:"deletes,omitempty"`
	// Writes are the literal paths the code writes or creates, when every
	// write it makes names one (recorded as file effects).
	Writes []string `json:"writes,omitempty"`
	// opens and writesBuffers are vim's: the files its commands open and
	// whether one of them writes (the two may come in separate -c).
	opens         []string
	writesBuffers bool
	// code is the code as analyzed: its aliases written as the names they
	// stand for (canonicalNames), for the readings that follow.
	code string
}

// NetEffect is network traffic a command causes.
type NetEffect struct {
	// Dest is the address, as written.
	Dest string `json:"dest,omitempty"`
	// Sends is where sent data comes from: "" (nothing), literal, file:CLASS,
	// environment, substitution, workspace.
	Sends string `json:"sends,omitempty"`
	// Local says the destination is this machine or a private network.
	Local bool `json:"local,omitempty"`
	// Metadata says the destination is a cloud metadata endpoint.
	Metadata bool `json:"metadata,omitempty"`

	// headerVars are the variables of a header sent with a run-time value.
	headerVars []string
	// scanned says the address was found in the command's words, not
	// where the program sends (see analysis.metadataScan).
	scanned bool
}

// Record is what one simple command would do.
type Record struct {
	Program    string `json:"program"`
	Subcommand string `json:"subcommand,omitempty"`
	// Known says the program is in the table.
	Known bool `json:"known"`
	// Unknown lists what is not understood (an unknown option, a run-time
	// value, …). A command with anything here is never allowed by the effects.
	Unknown []string     `json:"unknown,omitempty"`
	Files   []FileEffect `json:"files,omitempty"`
	Code    []CodeEffect `json:"code,omitempty"`
	Network []NetEffect  `json:"network,omitempty"`
	// Env lists loader and start-up variables set for what runs.
	Env []string `json:"env,omitempty"`
	// Privileged says the command runs as another user (sudo, doas, …) or
	// changes the machine's configuration.
	Privileged bool `json:"privileged,omitempty"`
	// Mutates names what outside the workspace the command changes.
	Mutates string `json:"mutates,omitempty"`
	// DryRun says a dry-run option is in effect.
	DryRun bool `json:"dry_run,omitempty"`
	// Concerns are option-level reasons for a person or the judge to look.
	Concerns []string `json:"concerns,omitempty"`

	recursive bool
	deletes   bool
	filtered  bool
	// deleteFirst says a deleting action came before any filter.
	deleteFirst bool
	codeGiven   bool
	// vimOpens are the files vim commands opened (-c 'edit FILE'),
	// vimWrites that one of its commands writes buffers, vimDone how many
	// opens are recorded as writes.
	vimOpens  []string
	vimWrites bool
	vimDone   int
	// firstArg is the first positional argument when the table gives it a
	// kind of its own (grep's pattern, sed's script).
	firstArg string
	// printsNoLines marks a search that prints counts, names or nothing
	// instead of the lines it matches (grep -c, -q, -l).
	printsNoLines bool
	// roots are the event's workspace roots.
	roots []string
	// printsHistory says the command prints the repository's past changes
	// (git log -p, git show): every secret ever committed is in them.
	printsHistory bool
	// specialMode says the command sets a setuid, setgid or sticky mode
	// (install -m 4755, chmod u+s).
	specialMode bool
	// filterNames are find's -name/-iname values (what -delete removes).
	filterNames []string
	// negateNext says the next find test is negated (! or -not).
	negateNext bool
	stopped    bool
	// toolModule is a python -m module the table knows as a program.
	toolModule string
	// movesOntoDevice is the device path mv moves files onto.
	movesOntoDevice string
	// productionData says what the command deletes in production data.
	productionData string
	// deniedRun is a shell command inline code runs (awk system("…"), a
	// sed s///e replacement) that the rule pass denies.
	deniedRun string
	// insertedDanger says what code sed inserts into files does.
	insertedDanger string
	// printsEnv says the command prints the whole environment by way of a
	// substitution (echo "$(env)"), for the pipeline's later stages.
	printsEnv bool
	// stdinSecret is a credential file redirected into the command's stdin.
	stdinSecret string
	// argFile is a credential file xargs or parallel reads arguments from.
	argFile string
	// obfuscated is inline code that runs what it decodes from a literal
	// that cannot be read (compressed, encrypted or binary).
	obfuscated string
	// loopbackOnly says a socket program connects to this machine.
	loopbackOnly bool
	// hostCarries is a host name looked up that is built from a command's output.
	hostCarries string
	// codeSendsSecret is a credential file inline code reads while it also
	// uses the network.
	codeSendsSecret string
	// scheduledDanger says what a scheduler is given to run that is a
	// danger in itself (see scheduledCode).
	scheduledDanger string
	// reverseShell says inline code connects out and hands a shell its
	// standard streams (or the socket to a shell).
	reverseShell bool
	// lookalike says the command installs from a registry named like an
	// official one on another domain.
	lookalike string
}

func (r *Record) unknown(format string, args ...any) {
	r.Unknown = append(r.Unknown, fmt.Sprintf(format, args...))
}

// Understood reports whether every part of the command is known.
func (r *Record) Understood() bool { return r.Known && len(r.Unknown) == 0 }

// String is the record in one line for explanations and the judge.
func (r *Record) String() string {
	var b strings.Builder
	b.WriteString(r.Program)
	if r.Subcommand != "" {
		b.WriteString(" " + r.Subcommand)
	}
	b.WriteString(":")
	if !r.Known {
		b.WriteString(" unknown program;")
	}
	for _, u := range r.Unknown {
		b.WriteString(" not understood: " + u + ";")
	}
	for _, f := range r.Files {
		rec := ""
		if f.Recursive {
			rec = " recursively"
		}
		fmt.Fprintf(&b, " %s%s %s [%s];", f.Op, rec, f.Path, strings.Join(f.Classes, ","))
	}
	for _, c := range r.Code {
		fmt.Fprintf(&b, " runs %s code", c.Kind)
		if c.Lang != "" {
			b.WriteString(" (" + c.Lang + ")")
		}
		if c.What != "" {
			b.WriteString(" " + c.What)
		}
		if len(c.Found) > 0 {
			b.WriteString(" that " + strings.Join(c.Found, ", "))
		}
		b.WriteString(";")
	}
	for _, n := range r.Network {
		if n.Sends != "" {
			fmt.Fprintf(&b, " sends %s to %s;", n.Sends, n.Dest)
		} else {
			fmt.Fprintf(&b, " fetches %s;", n.Dest)
		}
	}
	if len(r.Env) > 0 {
		b.WriteString(" sets " + strings.Join(r.Env, ", ") + ";")
	}
	if r.Privileged {
		b.WriteString(" privileged;")
	}
	if r.Mutates != "" {
		b.WriteString(" changes " + r.Mutates + ";")
	}
	if r.DryRun {
		b.WriteString(" dry run;")
	}
	for _, c := range r.Concerns {
		b.WriteString(" " + c + ";")
	}
	return strings.TrimSuffix(b.String(), ";")
}

// VerifiedHookWrites returns the hook scripts (as written) this command
// writes with content the rule pass allows: a chmod +x of them later on the
// line installs nothing else.
func (r *Record) VerifiedHookWrites() []string {
	var out []string
	for _, f := range r.Files {
		if f.Op == OpWrite && f.scriptVerdict == hook.Allow && has(f.Classes, ClassVCS, ClassHooks) {
			out = append(out, f.Path)
		}
	}
	return out
}

// MarkPrintsEnvironment records that the command prints the whole
// environment through a substitution (echo "$(env)", printf '%s' "$(printenv)").
func (r *Record) MarkPrintsEnvironment() { r.printsEnv = true }

// KnownContent returns what a write puts in the file, when the command line
// says (echo, printf, a heredoc).
func (f FileEffect) KnownContent() (string, bool) { return f.content, f.contentKnown }
