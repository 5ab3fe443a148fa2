// Package effects turns one simple shell command into a typed record of what it
// would do — files read, written and deleted (with the class of each path), code
// run, data sent, environment injected, privilege, mutations outside the machine —
// from program knowledge kept as data (programs/*.yaml, generated into
// table_gen.go). It then decides: allow only when the command is fully understood
// and every effect is harmless, deny when an effect is clearly dangerous, and
// otherwise leave it to the judge with the record as context. A program name
// alone never makes a command safe.
package effects

// Spec is what the table knows about one program or one of its subcommands.
type Spec struct {
	// Names are the program names (first is canonical) or the subcommand and
	// its aliases.
	Names []string `yaml:"names"`
	// Summary says in a few words what the program does.
	Summary string `yaml:"summary,omitempty"`
	// Operands is what the positional arguments are (see the Operand* kinds).
	Operands string `yaml:"operands,omitempty"`
	// First, when set, is what the first positional argument is instead
	// (a sed script, an awk program, a pattern, a URL, …).
	First string `yaml:"first,omitempty"`
	// AnyOption says that no option changes what the program does (pure
	// readers and printers): every option is understood.
	AnyOption bool `yaml:"any_option,omitempty"`
	// StopAtFirst says options end at the first positional argument: what
	// follows belongs to the script or program run (python script.py --x).
	StopAtFirst bool `yaml:"stop_at_first,omitempty"`
	// Options are the known options; an option not listed makes the command
	// not understood.
	Options []Option `yaml:"options,omitempty"`
	// Subcommands are the known subcommands; when a program has some, a
	// command without a known one is not understood.
	Subcommands []*Spec `yaml:"subcommands,omitempty"`
	// NoSubcommandOK says the program may be run without a subcommand.
	NoSubcommandOK bool `yaml:"no_subcommand_ok,omitempty"`
	// Code is code the command runs besides its operands: "project" (the
	// workspace's own build, test or task definitions), "package" (a package
	// fetched by name), "shell" (commands of its own, such as a job runner).
	Code string `yaml:"code,omitempty"`
	// Network is what the command does on the network by itself: "read"
	// (fetches), "send" (uploads workspace data to where it is configured).
	Network string `yaml:"network,omitempty"`
	// Mutates names what outside the machine the command changes: remote,
	// cloud, cluster, database, registry, system. Such commands are judged
	// unless a rule decides them.
	Mutates string `yaml:"mutates,omitempty"`
	// MutatesOnBareSession limits Mutates to an interactive session: when
	// the splitter followed the command it runs there (ssh host CMD), that
	// command's own effects decide.
	MutatesOnBareSession bool `yaml:"mutates_on_bare_session,omitempty"`
	// Privileged says the command acts with another identity or on the
	// machine's configuration (service managers, package managers of the
	// system).
	Privileged bool `yaml:"privileged,omitempty"`
	// Recursive says the program always works on whole trees (rimraf):
	// its operands are recursive without an option.
	Recursive bool `yaml:"recursive,omitempty"`
	// Examples are whole command lines with the answer the effects give them
	// (without the policy's rules); `hookguard policy test` checks them.
	Examples Examples `yaml:"examples,omitempty"`
}

// Option is one known option of a program.
type Option struct {
	// Names are the spellings: "-r", "--recursive". A short option that takes a
	// value may be written -oFILE or -o FILE; a long one --out=FILE or --out FILE.
	Names []string `yaml:"names"`
	// Value, when set, says the option takes a value and what it is (an Operand
	// kind: read, write, dir, code:python, url, data, any, …).
	Value string `yaml:"value,omitempty"`
	// Operands changes what the positional arguments are (sed -i: write).
	Operands string `yaml:"operands,omitempty"`
	// NoFirst says the first positional argument is an ordinary operand when
	// this option is given (sed -e SCRIPT, grep -e PATTERN).
	NoFirst bool `yaml:"no_first,omitempty"`
	// Recursive marks options that make the operation recursive.
	Recursive bool `yaml:"recursive,omitempty"`
	// DryRun marks options that only show what would happen.
	DryRun bool `yaml:"dry_run,omitempty"`
	// Deletes marks options that delete at the destination (rsync --delete).
	Deletes bool `yaml:"deletes,omitempty"`
	// UntilEnd says the option's value runs to a ";" or "+" argument (find
	// -exec CMD ARGS… ;): the splitter follows that command on its own.
	UntilEnd bool `yaml:"until_end,omitempty"`
	// Stop says the arguments after this option (and its value) belong to
	// the code it runs (python -c CODE ARGS…, python -m MODULE ARGS…).
	Stop bool `yaml:"stop,omitempty"`
	// Filter marks options that select some of the files under the operands
	// (find -name): the operands themselves are then not acted on whole.
	Filter bool `yaml:"filter,omitempty"`
	// Concern, when set, is a reason that makes the command not harmless (the
	// judge decides): --no-verify, --force, …
	Concern string `yaml:"concern,omitempty"`
}

// Examples are command lines and the answer the effects give each.
type Examples struct {
	Allow []string `yaml:"allow,omitempty"`
	Judge []string `yaml:"judge,omitempty"`
	Deny  []string `yaml:"deny,omitempty"`
}

// Operand kinds: what a positional argument or an option's value is.
const (
	OperandNone      = "none"        // text that is not a file (echo's words, a commit message)
	OperandRead      = "read"        // a file or directory read
	OperandWrite     = "write"       // a file written (created or overwritten)
	OperandFolder    = "folder"      // a folder created (mkdir): written, but nothing in it is overwritten
	OperandDelete    = "delete"      // a file or directory removed
	OperandMode      = "mode"        // a file whose mode or owner changes
	OperandDest      = "dest"        // the last operand is written, the others read (cp, install, ln)
	OperandMove      = "move"        // the last operand is written, the others removed (mv)
	OperandDir       = "dir"         // a directory the command works in (-C DIR)
	OperandExtract   = "extract"     // a directory files are extracted into
	OperandURL       = "url"         // a network address fetched
	OperandData      = "data"        // data sent over the network (@file reads a file)
	OperandScript    = "script"      // a file of code run
	OperandCommand   = "command"     // a shell command run
	OperandEnv       = "env"         // VAR=value set for what runs
	OperandAny       = "any"         // an opaque value with no effect of its own
	OperandDD        = "dd"          // dd's if=FILE (read) and of=FILE (written)
	OperandModule    = "module"      // a Python module run as a program (python -m NAME)
	OperandGitConf   = "gitconfig"   // git's -c KEY=VALUE: keys that run commands are code
	OperandUpload    = "upload"      // a file read and sent over the network (curl -T FILE)
	OperandProject   = "projectfile" // a file of task definitions run (make -f FILE): the workspace's own, or code from elsewhere
	OperandPID       = "pid"         // a process id (one chosen at run time is judged)
	OperandList      = "list"        // a file or folder whose names and attributes are shown, not its contents
	OperandKey       = "key"         // a key file used to authenticate (ssh -i, ssh-add): read, never shown or sent
	OperandTarAction = "tar-action"  // tar's --checkpoint-action: exec=CMD runs CMD, the other actions print
	OperandDiscard   = "discard"     // a file overwritten with its committed version (uncommitted edits lost)
	OperandHeader    = "header"      // a request header (a run-time value in it is sent)
	// Inline code in a language: "code:python", "code:sed", "code:awk", …
	OperandCodePrefix = "code:"
)
