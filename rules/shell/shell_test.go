package shell

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// splitCase is one labeled case of testdata/split.json.
type splitCase struct {
	Name string `json:"name"`
	Line string `json:"line"`
	Cwd  string `json:"cwd"`
	Home string `json:"home"`
	// Roots are the workspace roots ($(git rev-parse --show-toplevel)).
	Roots []string `json:"roots"`
	// MaxDepth is passed as Options.MaxDepth.
	MaxDepth int `json:"max_depth"`
	// Want lists the expected commands in order; when Exact is false, they
	// must appear in this order among the commands found.
	Want  []wantCmd `json:"want"`
	Exact bool      `json:"exact"`
	// Absent names programs that must not appear.
	Absent []string `json:"absent"`
	// Pipelines, when set, must equal Result.Pipelines.
	Pipelines      []string `json:"pipelines"`
	ParseError     bool     `json:"parse_error"`
	DepthExceeded  bool     `json:"depth_exceeded"`
	AnyDynamicName bool     `json:"any_dynamic_name"`
}

// wantCmd is an expected command; nil fields are not checked.
type wantCmd struct {
	Name        string            `json:"name"`
	Args        []string          `json:"args"`
	DynamicArgs []bool            `json:"dynamic_args"`
	DynamicName *bool             `json:"dynamic_name"`
	DynamicCode *bool             `json:"dynamic_code"`
	CodeSplit   *bool             `json:"code_split"`
	Via         *string           `json:"via"`
	Cwd         *string           `json:"cwd"`
	Depth       *int              `json:"depth"`
	Wrappers    []string          `json:"wrappers"`
	Assigns     map[string]string `json:"assigns"`
	Redirects   []Redirect        `json:"redirects"`
	Text        *string           `json:"text"`
	Stdin       *string           `json:"stdin"`
	Pipeline    *string           `json:"pipeline"`
	Output      *string           `json:"output"`
}

func loadCases(t testing.TB) []splitCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "split.json"))
	if err != nil {
		t.Fatalf("read cases: %v", err)
	}
	var cases []splitCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("decode testdata/split.json: %v", err)
	}
	return cases
}

func TestSplit(t *testing.T) {
	for _, tc := range loadCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			res := Split(tc.Line, Options{Cwd: tc.Cwd, Home: tc.Home, MaxDepth: tc.MaxDepth, WorkspaceRoots: tc.Roots})
			checkInvariants(t, res)
			if got := res.ParseError != nil; got != tc.ParseError {
				t.Errorf("ParseError = %v, want error: %v", res.ParseError, tc.ParseError)
			}
			if res.DepthExceeded != tc.DepthExceeded {
				t.Errorf("DepthExceeded = %v, want %v", res.DepthExceeded, tc.DepthExceeded)
			}
			if tc.Exact && len(res.Commands) != len(tc.Want) {
				t.Errorf("got %d commands, want %d:\n%s", len(res.Commands), len(tc.Want), dump(res))
			}
			next := 0
			for _, w := range tc.Want {
				found := false
				for next < len(res.Commands) {
					c := res.Commands[next]
					next++
					if c.Name == w.Name {
						checkCmd(t, res, c, w)
						found = true
						break
					}
					if tc.Exact {
						t.Errorf("command %q, want %q", c.Name, w.Name)
					}
				}
				if !found {
					t.Errorf("command %q not found (in order):\n%s", w.Name, dump(res))
					break
				}
			}
			for _, a := range tc.Absent {
				for _, c := range res.Commands {
					if c.Name == a {
						t.Errorf("command %q must not be emitted:\n%s", a, dump(res))
					}
				}
			}
			if tc.Pipelines != nil && !slices.Equal(res.Pipelines, tc.Pipelines) {
				t.Errorf("Pipelines = %q, want %q", res.Pipelines, tc.Pipelines)
			}
			if tc.AnyDynamicName && !slices.ContainsFunc(res.Commands, func(c Command) bool { return c.DynamicName }) {
				t.Errorf("no command has DynamicName:\n%s", dump(res))
			}
		})
	}
}

func checkCmd(t *testing.T, res *Result, c Command, w wantCmd) {
	t.Helper()
	if w.Args != nil && !slices.Equal(c.Args, w.Args) {
		t.Errorf("%s: Args = %q, want %q", w.Name, c.Args, w.Args)
	}
	if w.DynamicArgs != nil && !slices.Equal(c.DynamicArgs, w.DynamicArgs) {
		t.Errorf("%s: DynamicArgs = %v, want %v", w.Name, c.DynamicArgs, w.DynamicArgs)
	}
	if w.DynamicName != nil && c.DynamicName != *w.DynamicName {
		t.Errorf("%s: DynamicName = %v, want %v", w.Name, c.DynamicName, *w.DynamicName)
	}
	if w.DynamicCode != nil && c.DynamicCode != *w.DynamicCode {
		t.Errorf("%s: DynamicCode = %v, want %v", w.Name, c.DynamicCode, *w.DynamicCode)
	}
	if w.CodeSplit != nil && c.CodeSplit != *w.CodeSplit {
		t.Errorf("%s: CodeSplit = %v, want %v", w.Name, c.CodeSplit, *w.CodeSplit)
	}
	if w.Via != nil && c.Via != *w.Via {
		t.Errorf("%s: Via = %q, want %q", w.Name, c.Via, *w.Via)
	}
	if w.Cwd != nil && c.Cwd != *w.Cwd {
		t.Errorf("%s: Cwd = %q, want %q", w.Name, c.Cwd, *w.Cwd)
	}
	if w.Depth != nil && c.Depth != *w.Depth {
		t.Errorf("%s: Depth = %d, want %d", w.Name, c.Depth, *w.Depth)
	}
	if w.Wrappers != nil && !slices.Equal(c.Wrappers, w.Wrappers) {
		t.Errorf("%s: Wrappers = %q, want %q", w.Name, c.Wrappers, w.Wrappers)
	}
	for k, v := range w.Assigns {
		if got, ok := c.Assigns[k]; !ok || got != v {
			t.Errorf("%s: Assigns[%s] = %q, want %q", w.Name, k, got, v)
		}
	}
	if w.Redirects != nil && !slices.Equal(c.Redirects, w.Redirects) {
		t.Errorf("%s: Redirects = %+v, want %+v", w.Name, c.Redirects, w.Redirects)
	}
	if w.Text != nil && c.Text != *w.Text {
		t.Errorf("%s: Text = %q, want %q", w.Name, c.Text, *w.Text)
	}
	if w.Stdin != nil && c.Stdin != *w.Stdin {
		t.Errorf("%s: Stdin = %q, want %q", w.Name, c.Stdin, *w.Stdin)
	}
	if w.Output != nil && (!c.OutputKnown || c.Output != *w.Output) {
		t.Errorf("%s: Output = %q (known %v), want %q", w.Name, c.Output, c.OutputKnown, *w.Output)
	}
	if w.Pipeline != nil && res.Pipelines[c.Pipeline] != *w.Pipeline {
		t.Errorf("%s: pipeline = %q, want %q", w.Name, res.Pipelines[c.Pipeline], *w.Pipeline)
	}
}

// checkInvariants holds for every Result.
func checkInvariants(t testing.TB, res *Result) {
	t.Helper()
	if res == nil {
		t.Fatal("Split returned nil")
	}
	if len(res.Commands) > MaxCommands {
		t.Errorf("%d commands, over the cap %d", len(res.Commands), MaxCommands)
	}
	for i, c := range res.Commands {
		if c.Pipeline < 0 || c.Pipeline >= len(res.Pipelines) {
			t.Errorf("command %d (%q): Pipeline %d out of range (%d pipelines)", i, c.Name, c.Pipeline, len(res.Pipelines))
		}
		if len(c.Args) != len(c.DynamicArgs) {
			t.Errorf("command %d (%q): %d args but %d DynamicArgs", i, c.Name, len(c.Args), len(c.DynamicArgs))
		}
		if c.Name != "" && !c.DynamicName && strings.Contains(c.Name, "/") && !strings.HasSuffix(c.Name, "/") {
			t.Errorf("command %d: Name %q is not a base name", i, c.Name)
		}
	}
}

func dump(res *Result) string {
	var b strings.Builder
	for _, c := range res.Commands {
		j, _ := json.Marshal(c)
		b.WriteString("  ")
		b.Write(j)
		b.WriteByte('\n')
	}
	j, _ := json.Marshal(res.Pipelines)
	b.WriteString("  pipelines: ")
	b.Write(j)
	return b.String()
}

func TestSplitNeverNil(t *testing.T) {
	for _, line := range []string{"", " ", "\n", ";;", "(", "$(", "<<EOF", "'", "a\x00b", "{ a; ", "if then fi"} {
		res := Split(line, Options{})
		checkInvariants(t, res)
	}
}

func TestSplitTooManyCommands(t *testing.T) {
	line := strings.Repeat("true; ", MaxCommands+50)
	res := Split(line, Options{})
	checkInvariants(t, res)
	if res.ParseError == nil {
		t.Errorf("no ParseError for %d commands", MaxCommands+50)
	}
}

func TestSplitDeepNesting(t *testing.T) {
	line := strings.Repeat("(", 300) + "rm -rf /" + strings.Repeat(")", 300)
	res := Split(line, Options{})
	checkInvariants(t, res)
	if !res.DepthExceeded && res.ParseError == nil {
		t.Errorf("300 nested subshells: neither DepthExceeded nor ParseError")
	}
	// Exponential variable growth stays bounded.
	line = "X=aaaaaaaaaaaaaaaa" + strings.Repeat("; X=$X$X", 40) + "; eval echo $X"
	res = Split(line, Options{})
	checkInvariants(t, res)
}

func FuzzSplit(f *testing.F) {
	for _, tc := range loadCases(f) {
		f.Add(tc.Line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		res := Split(line, Options{Cwd: "/w/p", Home: "/home/u"})
		checkInvariants(t, res)
	})
}

// benchLines is a realistic mix of agent shell commands.
var benchLines = []string{
	"cd web && npm ci && npm run build 2>&1 | tail -20",
	"git status",
	"git diff --stat HEAD~1",
	"go test ./... 2>&1 | tail -50",
	"ls -la",
	"cat README.md",
	"grep -rn \"TODO\" --include='*.go' . | head -20",
	"npm install --save-dev typescript@5",
	"python3 -m pytest -x -q tests/",
	"find . -name '*.pyc' -delete",
	"rm -rf build/ dist/ node_modules/",
	"git add -A && git commit -m \"fix: handle empty input\"",
	"docker ps --format '{{.Names}}'",
	"curl -fsSL https://example.com/install.sh | bash",
	"export NODE_ENV=production && npm run build",
	"for f in *.md; do wc -l \"$f\"; done",
	"sudo apt-get install -y jq",
	"bash -c 'cd /tmp && rm -rf x'",
	"echo $(date) >> log.txt",
	"kubectl get pods -n default -o wide | grep -v Running",
}

func BenchmarkSplit(b *testing.B) {
	opts := Options{Cwd: "/home/u/proj", Home: "/home/u"}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range benchLines {
			Split(l, opts)
		}
	}
}

func BenchmarkSplitTypical(b *testing.B) {
	opts := Options{Cwd: "/home/u/proj", Home: "/home/u"}
	b.ReportAllocs()
	for b.Loop() {
		Split(benchLines[0], opts)
	}
}

// TestSplitLoops: a command inside a for loop over one command substitution,
// or inside a while-read loop fed by a pipe or a process substitution, knows
// which commands produce its variable's values; loops over other words or
// input do not bind.
func TestSplitLoops(t *testing.T) {
	for _, tc := range []struct {
		line, cmd, name string
		want            [2]int // {0, 0}: not bound
	}{
		{`for f in $(git ls-files '*.md'); do wc -w "$f"; done`, "wc", "f", [2]int{0, 1}},
		{`for f in $(git ls-files | sort); do wc -l "$f"; done`, "wc", "f", [2]int{0, 2}},
		{`ls; for x in $(find src -name '*.go'); do gofmt -l "$x"; done`, "gofmt", "x", [2]int{1, 2}},
		{`for f in a.txt b.txt; do wc -l "$f"; done`, "wc", "f", [2]int{}},
		{`for f in $(git ls-files) extra.txt; do wc -l "$f"; done`, "wc", "f", [2]int{}},
		{`for f in "$@"; do wc -l "$f"; done`, "wc", "f", [2]int{}},
		{`git ls-files '*.py' | while read -r f; do wc -l "$f"; done`, "wc", "f", [2]int{0, 1}},
		{`git diff --name-only | grep ts | while IFS= read -r f; do wc -l "$f"; done`, "wc", "f", [2]int{0, 2}},
		{`while read -r f; do wc -l "$f"; done < <(git ls-files)`, "wc", "f", [2]int{0, 1}},
		{`while read -r f; do wc -l "$f"; done < list.txt`, "wc", "f", [2]int{}},
		{`git ls-files | while read a b; do wc -l "$a"; done`, "wc", "a", [2]int{}},
		{`git ls-files | until read f; do wc -l "$f"; done`, "wc", "f", [2]int{}},
		{`while read -r f; do wc -l "$f"; done`, "wc", "f", [2]int{}},
	} {
		res := Split(tc.line, Options{})
		checkInvariants(t, res)
		found := false
		for _, c := range res.Commands {
			if c.Name != tc.cmd {
				continue
			}
			found = true
			if got := c.Loops[tc.name]; got != tc.want {
				t.Errorf("%s: Loops[%s] = %v, want %v", tc.line, tc.name, got, tc.want)
			}
		}
		if !found {
			t.Errorf("%s: no %s command", tc.line, tc.cmd)
		}
	}
}

// TestSplitSubstArgs: an argument that is one whole command substitution
// knows the commands it ran; a word with more in it does not.
func TestSplitSubstArgs(t *testing.T) {
	res := Split(`sed -i 's/a/b/' $(git ls-files '*.ts' | grep -v gen) "x$(date)"`, Options{})
	checkInvariants(t, res)
	c := res.Commands[0]
	if c.Name != "sed" || len(c.SubstArgs) != 1 {
		t.Fatalf("sed: SubstArgs %v", c.SubstArgs)
	}
	k, ok := c.SubstArgs[2]
	if !ok || res.Substs[k] != [2]int{1, 3} || res.Commands[1].Name != "git" || res.Commands[2].Name != "grep" {
		t.Errorf("SubstArgs %v, Substs %v, commands %s %s", c.SubstArgs, res.Substs, res.Commands[1].Name, res.Commands[2].Name)
	}
}
