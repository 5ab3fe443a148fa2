// Command hookguard guards AI coding agents: it answers Cursor and Claude Code
// hook events with allow, ask or deny. See the README.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/hookguard/hookguard/internal/text"
)

// command is one subcommand. Each lives in its own cmd_*.go file and registers
// itself from init, so main stays a dispatcher.
type command struct {
	name    string
	summary string
	// run gets the arguments after the command name. It returns an exitError to
	// choose the exit code, or any other error for a one-line message and exit 1.
	run func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// exitError ends the program with a code, after printing msg when it is not empty.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		if _, ok := commands[args[1]]; ok {
			// hookguard help CMD is hookguard CMD --help.
			args = []string{args[1], "--help"}
		}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "hookguard: unknown command %q (run hookguard --help)\n", args[0])
		return 2
	}
	err := runCommand(c, args[1:], stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stderr, "hookguard: %s\n", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "hookguard: %s\n", text.OneLine(err.Error()))
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "hookguard guards AI coding agents: it answers Cursor and Claude Code hook events with allow, ask or deny.")
	fmt.Fprintln(w, "\nusage: hookguard <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nrun hookguard <command> --help for a command's flags.")
}

// parseFlags parses a command's flags. A flag error (already printed with
// the usage by the flag package) exits 2, as every usage error does, and is
// not printed a second time.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &exitError{code: 2}
}

// newFlags makes a FlagSet that prints its usage to stderr and returns errors.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: hookguard %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// runCommand runs c, turning a panic into an error that says so: a
// command never crashes with a stack trace (hook answers deny on its own,
// before this).
func runCommand(c command, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &exitError{code: 2, msg: fmt.Sprintf("internal error in %s (please report it): %v", c.name, r)}
		}
	}()
	return c.run(args, stdin, stdout, stderr)
}
