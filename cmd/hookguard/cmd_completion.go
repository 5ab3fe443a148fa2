package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

func init() {
	register(command{name: "completion", summary: "print a shell completion script (bash, zsh or fish)", run: runCompletion})
}

// bashCompletion completes hookguard in bash (and in zsh through bashcompinit).
const bashCompletion = `_hookguard() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "@COMMANDS@" -- "$cur") )
    return
  fi
  if [[ $cur == -* ]]; then
    local flags
    flags=$("${COMP_WORDS[0]}" "${COMP_WORDS[1]}" --help 2>&1 | grep -oE '^  -[A-Za-z][A-Za-z0-9-]*' | sed 's/^  -/--/')
    COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
    return
  fi
  COMPREPLY=( $(compgen -f -- "$cur") )
}
complete -o default -F _hookguard hookguard
`

// completionScripts complete command names from the built-in list and a
// command's flags from its own --help, so they never go stale.
var completionScripts = map[string]string{
	"bash": "# hookguard completion for bash: eval \"$(hookguard completion bash)\"\n" + bashCompletion,
	"zsh":  "# hookguard completion for zsh: eval \"$(hookguard completion zsh)\"\nautoload -U +X bashcompinit && bashcompinit\n" + bashCompletion,
	"fish": `# hookguard completion for fish: hookguard completion fish | source
complete -c hookguard -f -n '__fish_use_subcommand' -a '@COMMANDS@'
complete -c hookguard -n 'not __fish_use_subcommand' -a '(hookguard (commandline -opc)[2] --help 2>&1 | string match -r "^  -[A-Za-z][A-Za-z0-9-]*" | string replace -r "^  -" -- "--")'
complete -c hookguard -n 'not __fish_use_subcommand' -F
`,
}

func runCompletion(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("completion", "completion bash|zsh|fish", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2}
	}
	script, ok := completionScripts[fs.Arg(0)]
	if !ok {
		return &exitError{code: 2, msg: fmt.Sprintf("completion: unknown shell %q (use bash, zsh or fish)", fs.Arg(0))}
	}
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	_, err := io.WriteString(stdout, strings.ReplaceAll(script, "@COMMANDS@", strings.Join(names, " ")))
	return err
}
