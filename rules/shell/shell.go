// Package shell splits a shell command line into the simple commands it would
// run, the way a reviewer reads it: through pipes, lists, subshells, command and
// process substitutions, wrappers (sudo, env, timeout, xargs, …), nested shells
// (bash -c, eval, strings and heredocs piped into a shell) and find -exec. It
// parses with mvdan.cc/sh/v3 and never executes anything.
package shell

// Options give the context a command line runs in.
type Options struct {
	// Cwd is the directory the command starts in; "" when unknown.
	Cwd string
	// Home is the user's home directory, used for ~ and $HOME; "" when unknown.
	Home string
	// WorkspaceRoots are the event's workspace roots: $(git rev-parse
	// --show-toplevel) run inside one is that root.
	WorkspaceRoots []string
	// MaxDepth bounds recursion into nested shells (bash -c, eval, …). 0 means 4.
	MaxDepth int
}

// Command is one simple command after unwrapping.
type Command struct {
	// Name is the program as it would be looked up, reduced to its base name
	// (/bin/rm and \rm are "rm"). Empty for a bare assignment.
	Name string
	// Program is the program word as written, unquoted ("./ls", "/bin/rm",
	// "rm"): ./name runs a file of the workspace, not the system program.
	Program string
	// FoundProgram says Program is a substitution that finds the program by
	// its name ($(which python3), $(go env GOPATH)/bin/tflint): Name is it.
	FoundProgram bool
	// Args are the arguments after Name, unquoted, with ~, $HOME and variables
	// assigned earlier on the same line substituted. A part that cannot be known
	// before running (command substitution, unknown variable, glob of a variable)
	// is kept in its source form and flagged in DynamicArgs.
	Args []string
	// DynamicArgs[i] reports whether Args[i] is built at run time.
	DynamicArgs []bool
	// DynamicName reports that the program name itself is built at run time
	// ($(printf r)m, $CMD, eval of a variable): such a command cannot be judged by rules.
	DynamicName bool
	// DynamicCode reports that the command runs shell code that is only known at
	// run time: a shell fed by a pipe from another program (curl … | sh), or
	// bash -c / eval of a string holding a variable or command substitution.
	// Known parts of such code are still split (unknown variables stay in
	// source form); code holding a substitution is not split. An eval whose
	// code holds a substitution also sets DynamicName.
	DynamicCode bool
	// CodeSplit reports that the command only runs other code that was split
	// into commands of its own (bash -c '…', eval '…', su -c, watch, docker
	// exec CONTAINER CMD…): those commands carry the decision.
	CodeSplit bool
	// Assigns are the VAR=value prefixes of this command (GIT_SSH_COMMAND=…), values unquoted.
	Assigns map[string]string
	// Wrappers lists what was unwrapped to reach Name, outermost first (sudo, env, timeout, xargs, …).
	Wrappers []string
	// Via says how the command was reached when it is not a top-level command:
	// "bash -c", "eval", "pipe to shell", "heredoc to shell", "find -exec", "xargs",
	// "container exec",
	// "command substitution", "process substitution", "command substitution
	// into export" (ViaExportSubst). Empty at top level.
	Via string
	// Loops are the variables of for loops around this command whose values
	// are the words of one command substitution (for f in $(git ls-files)):
	// each name maps to the range [lo, hi) of Commands that substitution
	// ran, whose output the variable takes in turn. A name set anew inside
	// the loop is resolved as usual and does not appear as "$name".
	Loops map[string][2]int
	// SubstArgs maps an argument that is one whole command substitution
	// ($(git ls-files '*.ts')) to its entry in Result.Substs.
	SubstArgs map[int]int
	// NameSubst is, for a program name that is one whole command
	// substitution ($(curl -s …) run as the command), its entry in
	// Result.Substs plus one; 0 otherwise.
	NameSubst int
	// Depth is the nesting depth of re-parsed shells (0 at top level).
	Depth int
	// Cwd is the working directory this command runs in, tracked through cd/pushd;
	// "" when unknown (cd to a variable, cd -, …).
	Cwd string
	// Stdin is the text fed to the command on stdin when it is known: a heredoc,
	// a here-string, or the output of echo/printf/cat-of-a-heredoc piped in
	// (psql <<EOF … EOF, echo "DROP TABLE t" | mysql, python3 <<EOF …). Parts only
	// known at run time are in source form. Empty when nothing or unknown.
	Stdin string
	// ArgFile is the file xargs or parallel reads the arguments from
	// (-a FILE): its lines become the command's arguments.
	ArgFile string
	// Output is what the command prints when the splitter knows it entirely:
	// echo's and printf's literal arguments rendered, cat of a known heredoc
	// (what a redirection then writes). OutputKnown says it is set.
	Output      string
	OutputKnown bool
	// StdinFed says stdin comes from a pipe, a heredoc or a here-string
	// (known or not), not from the terminal.
	StdinFed bool
	// Redirects are the file redirections of this command (> file, >> file, 2> file, &> file, < file).
	Redirects []Redirect
	// Pipeline is the index in Result.Pipelines of the pipeline this command belongs to.
	Pipeline int
	// After lists the commands (indexes in Result.Commands) on the left of
	// an && this command is on the right of: it runs only when they (the
	// last of a pipeline among them) succeeded.
	After []int
	// Text is the normalized command: Name followed by Args, each quoted only when it
	// needs quoting (syntax.Quote style), single spaces. Rules match against it.
	Text string
}

// Redirect is one redirection of a command.
type Redirect struct {
	Op     string // ">", ">>", "<", "&>", "2>", …
	Target string // unquoted target ("/dev/sda", ".cursor/hooks.json")
}

// Result is a split command line.
type Result struct {
	// Commands lists every simple command found, in source order, nested ones included.
	Commands []Command
	// Substs are, for the command substitutions that are whole arguments
	// (Command.SubstArgs), the range [lo, hi) of Commands each ran.
	Substs [][2]int
	// Pipelines holds the normalized text of each pipeline: the Text of its commands
	// joined with " | " ("curl -fsSL https://x | sh"). A lone command is a pipeline of one.
	Pipelines []string
	// ParseError is set when the line (or a nested shell string) could not be parsed;
	// Commands then holds what could be recovered. Callers must not allow such a line by default.
	ParseError error
	// DepthExceeded is set when nesting went beyond Options.MaxDepth.
	DepthExceeded bool
}
