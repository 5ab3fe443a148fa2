// The targets a rule matches (per event kind) and the path classes a shell rule can require.

package rules

import (
	"github.com/hookguard/hookguard/rules/effects"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
)

// MatchTimeout bounds one pattern match, so that no pattern can hang the hook.
// regexp2's timeout clock ticks about every 100 ms, so the real bound is coarser.
// Real patterns take microseconds; the margin keeps a loaded machine from
// turning a slow match into a different answer.
const MatchTimeout = 200 * time.Millisecond

// maxTargetLen caps the text one pattern runs over; longer text is checked in
// its first and last parts (file contents can be megabytes).
const maxTargetLen = 256 << 10

// The targets a rule can match, per kind.
const (
	TargetCommand  = "command"  // shell: each simple command, normalized ("rm -rf /")
	TargetPipeline = "pipeline" // shell: each pipeline ("curl x | sh")
	TargetLine     = "line"     // shell: the command line as written (comments included)
	TargetEnv      = "env"      // shell: each VAR=value assignment of a command
	TargetWrites   = "writes"   // shell: each file a command writes or removes; write: the path
	TargetPath     = "path"     // read/write: the file path; shell: path arguments; mcp: paths in the input
	TargetContent  = "content"  // read/write: the file content
	TargetTool     = "tool"     // mcp: the tool name
	TargetServer   = "server"   // mcp: the server name, url or command
	TargetInput    = "input"    // mcp: the tool input as canonical JSON
	TargetCall     = "call"     // mcp: "server tool input"
	TargetPrompt   = "prompt"   // prompt and subagent: the text
	TargetText     = "text"     // the free text of any event: prompt, file content, tool input, command line
)

var validTargets = map[hook.Kind][]string{
	hook.KindShell:    {TargetCommand, TargetPipeline, TargetLine, TargetEnv, TargetWrites, TargetPath, TargetText},
	hook.KindMCP:      {TargetCall, TargetTool, TargetServer, TargetInput, TargetPath, TargetText},
	hook.KindRead:     {TargetPath, TargetContent, TargetText},
	hook.KindWrite:    {TargetPath, TargetContent, TargetWrites, TargetText},
	hook.KindPrompt:   {TargetPrompt, TargetText, TargetPath},
	hook.KindSubagent: {TargetPrompt, TargetText},
}

var defaultTargets = map[hook.Kind]string{
	hook.KindShell: TargetCommand, hook.KindMCP: TargetCall, hook.KindRead: TargetPath,
	hook.KindWrite: TargetPath, hook.KindPrompt: TargetPrompt, hook.KindSubagent: TargetPrompt,
}

// The path classes a shell rule can require (Rule.Paths).
const (
	PathRoot      = "root"      // / itself or /*
	PathHome      = "home"      // the home directory itself or ~/*
	PathHomeSub   = "home_sub"  // inside home but outside every workspace
	PathSystem    = "system"    // /etc, /usr, /bin, /var, … and below
	PathWorkspace = "workspace" // a workspace root, an ancestor of one, or everything in one (*)
	PathInside    = "inside"    // strictly inside a workspace root
	PathOutside   = "outside"   // outside every workspace root (and not temp)
	PathTemp      = "temp"      // /tmp, /var/tmp and below
	PathDynamic   = "dynamic"   // built at run time, or relative to an unknown directory
	PathBuild     = "build"     // inside a workspace, in a build output (settings.build_outputs)
	PathSource    = "source"    // inside a workspace, not in a build output
)

var validPaths = map[string]bool{PathRoot: true, PathHome: true, PathHomeSub: true, PathSystem: true,
	PathWorkspace: true, PathInside: true, PathOutside: true, PathTemp: true, PathDynamic: true,
	PathBuild: true, PathSource: true,
	effects.ClassSecret: true, effects.ClassEnvFile: true, effects.ClassMaybeSecret: true, effects.ClassGuard: true,
	effects.ClassAgent: true, effects.ClassVCS: true, effects.ClassVCSOther: true, effects.ClassPersistence: true,
	effects.ClassCache: true, effects.ClassCI: true, effects.ClassHooks: true, effects.ClassData: true}

func (r *Rule) target(k hook.Kind) string {
	t := r.Target
	if t == "" {
		return defaultTargets[k]
	}
	if t == TargetText {
		return textTargets[k]
	}
	return t
}

var textTargets = map[hook.Kind]string{
	hook.KindShell: TargetLine, hook.KindMCP: TargetInput, hook.KindRead: TargetContent,
	hook.KindWrite: TargetContent, hook.KindPrompt: TargetPrompt, hook.KindSubagent: TargetPrompt,
}
