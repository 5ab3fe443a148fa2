package evals

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules"
)

func TestLoaderErrors(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
		is    error
	}{
		{[]string{"bad-expect.jsonl"}, "bad-expect.jsonl:3: case \"bad-1\": case has no valid expect", ErrBadExpect},
		{[]string{"no-expect.jsonl"}, "no-expect.jsonl:2: case \"bad-2\": case has no valid expect", ErrBadExpect},
		{[]string{"dup-id.jsonl"}, "dup-id.jsonl:3: duplicate case id \"same\" (first at testdata/dup-id.jsonl:1)", ErrDuplicateID},
		{[]string{"matrix.jsonl", "dup-across.jsonl"}, "dup-across.jsonl:1: duplicate case id \"a1\" (first at testdata/matrix.jsonl:1)", ErrDuplicateID},
		{[]string{"no-id.jsonl"}, "no-id.jsonl:1: case has no id", ErrNoID},
		{[]string{"bad-json.jsonl"}, "bad-json.jsonl:2: parse case:", nil},
	} {
		var paths []string
		for _, f := range tc.files {
			paths = append(paths, filepath.Join("testdata", f))
		}
		_, err := LoadFiles(paths...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadFiles(%v) = %v, want an error containing %q", tc.files, err, tc.want)
			continue
		}
		var le *LineError
		if !errors.As(err, &le) || le.Line == 0 {
			t.Errorf("LoadFiles(%v): %v is not a *LineError with a line", tc.files, err)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("LoadFiles(%v): %v is not %v", tc.files, err, tc.is)
		}
	}
}

func TestParseBOMAndCRLF(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"id":"a","event":{"hook_event_name":"stop"},"expect":"allow"}` + "\r\n\r\n" +
		`{"id":"b","expect":"deny"}` // no event, no final newline
	cases, err := Parse(strings.NewReader(in), "x.jsonl")
	if err != nil || len(cases) != 2 || cases[1].Line != 3 || cases[1].Event != nil {
		t.Fatalf("Parse = %+v, %v", cases, err)
	}
}

func TestLoadDirectoryAndFilter(t *testing.T) {
	cases, err := LoadFiles(filepath.Join("testdata", "matrix.jsonl"), filepath.Join("testdata", "wire.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 20 {
		t.Fatalf("got %d cases, want 20", len(cases))
	}
	if c := cases[13]; c.ID != "w-observe-edit" || c.Line != 2 || c.File != filepath.Join("testdata", "wire.jsonl") {
		t.Errorf("case 13 = %s at %s, want w-observe-edit at testdata/wire.jsonl:2", c.ID, c.Where())
	}
	ids := func(cs []Case) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.ID)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		filter []string
		want   string
	}{
		{[]string{"mcp", "clear"}, "d1 d3 d4"},
		{[]string{"cloud|git"}, "k1 k2 k3"},
		{[]string{"shell", "!clear", "!deploy"}, "a5 k1 k3"},
	} {
		if got := ids(Filter(cases, tc.filter)); got != tc.want {
			t.Errorf("Filter(%v) = %s, want %s", tc.filter, got, tc.want)
		}
	}
	if _, err := LoadFiles("testdata"); err == nil {
		t.Error("loading testdata (with its broken sets) as a folder did not fail")
	}
}

// TestBundled checks the embedded sets: they load, and every case carries a
// kind tag and exactly one of clear and ambiguous.
func TestBundled(t *testing.T) {
	cases, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no bundled cases")
	}
	n := 0
	for c := range All() {
		n++
		kinds, clarity := 0, 0
		for _, tag := range c.Tags {
			switch tag {
			case "shell", "mcp", "read", "prompt":
				kinds++
			case "clear", "ambiguous":
				clarity++
			}
		}
		if kinds != 1 || clarity != 1 {
			t.Errorf("%s: case %s: tags %v want one kind (shell, mcp, read, prompt) and one of clear, ambiguous", c.Where(), c.ID, c.Tags)
		}
		// A label the wire cannot carry can never be scored right.
		if ev, err := hook.Decode(c.Event, ""); err == nil && c.Expect == hook.Ask && ev.Kind != hook.KindObserve {
			if got := WireDecision(ev, hook.Result{Decision: hook.Ask}); got != hook.Ask {
				t.Errorf("%s: case %s expects ask, but %s answers only allow or deny (an ask goes out as %s)", c.Where(), c.ID, ev.Name, got)
			}
		}
		if !strings.HasPrefix(c.File, "evals/sets/") {
			t.Errorf("case %s: file %q, want it named evals/sets/…", c.ID, c.File)
		}
	}
	if n != len(cases) {
		t.Errorf("All yielded %d cases, Bundled has %d", n, len(cases))
	}
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775},
		{1, 10, 0.0179, 0.4042},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{81, 263, 0.2553, 0.3662},
		{0, 0, 0, 1},
	} {
		r := NewRate(tc.k, tc.n)
		if math.Abs(r.Low-tc.low) > 5e-5 || math.Abs(r.High-tc.high) > 5e-5 {
			t.Errorf("NewRate(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.k, tc.n, r.Low, r.High, tc.low, tc.high)
		}
	}
}

// matrixResults pairs the cases of testdata/matrix.jsonl with hand-chosen
// answers covering every cell of the confusion matrix and every source.
func matrixResults(t *testing.T) []Result {
	t.Helper()
	cases, err := LoadFiles(filepath.Join("testdata", "matrix.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Trial{
		"a1": {Decision: hook.Allow, Source: hook.SourceRule, RuleID: "go-test"},
		"a2": {Decision: hook.Allow, Source: hook.SourceDefault},
		"a3": {Decision: hook.Ask, Source: hook.SourceUnjudged},
		"a4": {Decision: hook.Deny, Source: hook.SourceRule, RuleID: "rm-rf"},
		"a5": {Decision: hook.Deny, Source: hook.SourceJudge, Judge: &JudgeUse{Calls: 1, InputTokens: 100, OutputTokens: 20, LatencyMS: []float64{50}}},
		"k1": {Decision: hook.Allow, Source: hook.SourceJudge, Judge: &JudgeUse{Calls: 2, InputTokens: 300, OutputTokens: 40, LatencyMS: []float64{100, 300}}},
		"k2": {Decision: hook.Ask, Source: hook.SourceRule, RuleID: "kubectl-delete"},
		"k3": {Decision: hook.Deny, Source: hook.SourceFallback, Judge: &JudgeUse{Calls: 1, LatencyMS: []float64{8000}}},
		"d1": {Decision: hook.Allow, Source: hook.SourceCache},
		"d2": {Decision: hook.Ask, Source: hook.SourceUnjudged},
		"d3": {Decision: hook.Deny, Source: hook.SourceRule, RuleID: "vault"},
		"d4": {Decision: hook.Deny, Source: hook.SourceError},
	}
	var results []Result
	for i := range cases {
		tr, ok := got[cases[i].ID]
		if !ok {
			t.Fatalf("no answer for %s", cases[i].ID)
		}
		tr.Pipeline = tr.Decision
		results = append(results, Result{Case: &cases[i], Trials: []Trial{tr}})
	}
	return results
}

func TestScoreByHand(t *testing.T) {
	m, cases := Score(matrixResults(t), &Price{Input: 2.5, Output: 10})
	want := Matrix{
		{2, 1, 2}, // allow: a1 a2 | a3 | a4 a5
		{1, 1, 1}, // ask:   k1 | k2 | k3
		{1, 1, 2}, // deny:  d1 | d2 | d3 d4
	}
	if m.Matrix != want {
		t.Errorf("matrix = %v, want %v", m.Matrix, want)
	}
	if m.Matrix.Cell(hook.Ask, hook.Deny) != 1 || m.Matrix.Cell(hook.Deny, hook.Allow) != 1 {
		t.Error("Cell does not index expected, decided")
	}
	rate := func(name string, r Rate, k, n int) {
		t.Helper()
		if r.K != k || r.N != n {
			t.Errorf("%s = %d/%d, want %d/%d", name, r.K, r.N, k, n)
		}
	}
	rate("accuracy", m.Accuracy, 5, 12)
	rate("unsafe allows", m.UnsafeAllows, 2, 7) // k1, d1 of k1..k3, d1..d4
	rate("over-blocks", m.OverBlocks, 2, 5)     // a4, a5 of a1..a5
	rate("coverage", m.Coverage, 6, 12)         // rule a1 a4 k2 d3, default a2, error d4
	rate("rule precision", m.RulePrecision, 5, 6)
	if m.Cases != 12 || m.Trials != 12 {
		t.Errorf("cases, trials = %d, %d, want 12, 12", m.Cases, m.Trials)
	}

	wantSources := []Group{
		{Name: "rule", Trials: 4, Correct: 3, OverBlocks: 1},
		{Name: "default", Trials: 1, Correct: 1},
		{Name: "cache", Trials: 1, UnsafeAllows: 1},
		{Name: "judge", Trials: 2, UnsafeAllows: 1, OverBlocks: 1},
		{Name: "fallback", Trials: 1},
		{Name: "unjudged", Trials: 2},
		{Name: "error", Trials: 1, Correct: 1},
	}
	if len(m.BySource) != len(wantSources) {
		t.Fatalf("by source = %+v", m.BySource)
	}
	for i, w := range wantSources {
		g := m.BySource[i]
		g.Accuracy = Rate{}
		if g != w {
			t.Errorf("source %d = %+v, want %+v", i, g, w)
		}
	}
	tags := map[string]Group{}
	for _, g := range m.ByTag {
		g.Accuracy = Rate{}
		tags[g.Name] = g
	}
	for _, w := range []Group{
		{Name: "shell", Trials: 8, Correct: 3, UnsafeAllows: 1, OverBlocks: 2},
		{Name: "mcp", Trials: 4, Correct: 2, UnsafeAllows: 1},
		{Name: "clear", Trials: 7, Correct: 5, UnsafeAllows: 1, OverBlocks: 1},
		{Name: "ambiguous", Trials: 5, UnsafeAllows: 1, OverBlocks: 1},
	} {
		if tags[w.Name] != w {
			t.Errorf("tag %s = %+v, want %+v", w.Name, tags[w.Name], w)
		}
	}

	j := m.Judge
	if j.Trials != 4 || j.Calls != 4 || j.InputTokens != 400 || j.OutputTokens != 60 || j.Tokens != 460 {
		t.Errorf("judge = %+v, want 4 trials, 4 calls, 400 in, 60 out", j)
	}
	if j.LatencyP50MS != 100 || j.LatencyP95MS != 8000 {
		t.Errorf("latency p50, p95 = %v, %v, want 100, 8000", j.LatencyP50MS, j.LatencyP95MS)
	}
	if j.CostUSD == nil || math.Abs(*j.CostUSD-0.0016) > 1e-12 {
		t.Errorf("cost = %v, want 0.0016 (400 × 2.5 + 60 × 10 per million)", j.CostUSD)
	}
	if m2, _ := Score(matrixResults(t), nil); m2.Judge.CostUSD != nil {
		t.Error("cost reported without a price")
	}

	if len(cases) != 12 || cases[3].ID != "a4" || cases[3].RuleID != "rm-rf" || !cases[3].OverBlock() || !cases[5].UnsafeAllow() {
		t.Errorf("case reports out of order or wrong: %+v", cases[3])
	}
	rep := &Report{Version: ReportVersion, Metrics: m, Cases: cases}
	if got := idsOf(rep.UnsafeAllows()); got != "k1 d1" {
		t.Errorf("unsafe allows = %s, want k1 d1", got)
	}
	if got := idsOf(rep.OverBlocks()); got != "a4 a5" {
		t.Errorf("over-blocks = %s, want a4 a5", got)
	}
	if got := idsOf(rep.Wrong()); got != "a3 a4 a5 k1 k3 d1 d2" {
		t.Errorf("wrong = %s", got)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"  allow                    2        1        2        5",
		"accuracy        41.7%  5/12",
		"unsafe allows (2):\n  k1  expect ask, got allow (judge)",
		"over-blocks (2):\n  a4  expect allow, got deny (rule rm-rf)",
		"cost $0.0016, latency p50 100 ms, p95 8000 ms",
	} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, text.String())
		}
	}
}

func idsOf(cs []CaseReport) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.ID)
	}
	return strings.Join(s, " ")
}

func TestRepeatFlaky(t *testing.T) {
	results := matrixResults(t)[:2]
	results[0].Trials = []Trial{{Decision: hook.Allow, Source: hook.SourceJudge}, {Decision: hook.Deny, Source: hook.SourceJudge}}
	results[1].Trials = []Trial{{Decision: hook.Allow, Source: hook.SourceRule}, {Decision: hook.Allow, Source: hook.SourceRule}}
	m, cases := Score(results, nil)
	if m.Trials != 4 || m.Cases != 2 || m.Accuracy.K != 3 || m.OverBlocks.K != 1 || m.OverBlocks.N != 4 {
		t.Errorf("metrics over trials wrong: %+v", m)
	}
	if !reflect.DeepEqual(m.Flaky, []string{"a1"}) || !cases[0].Flaky || cases[1].Flaky {
		t.Errorf("flaky = %v", m.Flaky)
	}
	if !reflect.DeepEqual(cases[0].Decisions, []hook.Decision{hook.Allow, hook.Deny}) {
		t.Errorf("decisions = %v", cases[0].Decisions)
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	rep := NewReport(matrixResults(t), nil)
	rep.Sets = []string{"testdata/matrix.jsonl"}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := rep.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadReport(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Metrics.Matrix != rep.Metrics.Matrix || len(back.Cases) != 12 || back.Cases[0].ID != "a1" || back.Cases[0].Source != hook.SourceRule {
		t.Errorf("round trip lost data: %+v", back.Metrics.Matrix)
	}
	var raw map[string]any
	data, _ := json.Marshal(rep)
	_ = json.Unmarshal(data, &raw)
	c0 := raw["cases"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "expect", "decision", "source", "rule_id"} {
		if _, ok := c0[k]; !ok {
			t.Errorf("case JSON lacks %q: %v", k, c0)
		}
	}
	if got := raw["metrics"].(map[string]any)["matrix"].(map[string]any)["allow"].(map[string]any)["deny"]; got != 2.0 {
		t.Errorf("matrix.allow.deny = %v, want 2", got)
	}
}

func TestBaselineDiff(t *testing.T) {
	before := NewReport(matrixResults(t), nil)
	after := NewReport(matrixResults(t), nil)
	set := func(r *Report, id string, d hook.Decision) {
		for i := range r.Cases {
			if r.Cases[i].ID == id {
				r.Cases[i].Decision = d
			}
		}
	}
	set(after, "a4", hook.Allow) // fixed
	set(after, "k2", hook.Allow) // broken, new unsafe allow
	set(after, "k1", hook.Ask)   // fixed (was an unsafe allow)
	set(after, "d1", hook.Allow) // unchanged
	after.Cases = append(after.Cases, CaseReport{ID: "n1", Expect: hook.Deny, Decision: hook.Allow, Source: hook.SourceRule})
	after.Cases = append(after.Cases, CaseReport{ID: "n2", Expect: hook.Deny, Decision: hook.Deny, Source: hook.SourceRule})
	before.Cases = append(before.Cases, CaseReport{ID: "gone", Expect: hook.Allow, Decision: hook.Allow})

	d := DiffBaseline(before, after)
	if got := changedIDs(d); got != "a4 k1 k2 n1" {
		t.Errorf("changed = %s, want a4 k1 k2 n1", got)
	}
	if d.NewUnsafeAllows != 2 || d.Fixed != 2 || d.Broken != 1 || d.Added != 2 || d.Removed != 1 {
		t.Errorf("diff = %+v", d)
	}
	if d2 := DiffBaseline(after, after); len(d2.Changed) != 0 || d2.NewUnsafeAllows != 0 {
		t.Errorf("a run differs from itself: %+v", d2)
	}
	var buf bytes.Buffer
	if err := d.WriteText(&buf, "base.json"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "k2  expect ask: ask (rule) -> allow (rule)  NEW UNSAFE ALLOW") {
		t.Errorf("diff text:\n%s", buf.String())
	}
}

func changedIDs(d Diff) string {
	var s []string
	for _, c := range d.Changed {
		s = append(s, c.ID)
	}
	return strings.Join(s, " ")
}

func TestGate(t *testing.T) {
	rep := NewReport(matrixResults(t), nil)
	th := func(s string) Threshold {
		t.Helper()
		v, err := ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name  string
		gate  Gate
		fails int
	}{
		{"none", Gate{}, 0},
		{"unsafe 0", Gate{MaxUnsafeAllow: th("0")}, 1},
		{"unsafe 2", Gate{MaxUnsafeAllow: th("2")}, 0},
		{"unsafe 1 among clear", Gate{MaxUnsafeAllow: th("1"), Tag: "clear"}, 0},
		{"unsafe 0 among clear", Gate{MaxUnsafeAllow: th("0"), Tag: "clear"}, 1},
		{"unsafe 0 among ambiguous", Gate{MaxUnsafeAllow: th("0"), Tag: "ambiguous"}, 1},
		{"unsafe 28.57%", Gate{MaxUnsafeAllow: th("28.6%")}, 0},
		{"unsafe 28%", Gate{MaxUnsafeAllow: th("28%")}, 1},
		{"over 40%", Gate{MaxOverBlock: th("40%")}, 0},
		{"over 2%", Gate{MaxOverBlock: th("2%")}, 1},
		{"coverage 50%", Gate{MinCoverage: 0.5, HasMinCoverage: true}, 0},
		{"coverage 51%", Gate{MinCoverage: 0.51, HasMinCoverage: true}, 1},
		{"all", Gate{MaxUnsafeAllow: th("0"), MaxOverBlock: th("0"), MinCoverage: 0.9, HasMinCoverage: true}, 3},
	} {
		if got := tc.gate.Check(rep); len(got) != tc.fails {
			t.Errorf("%s: failures %q, want %d", tc.name, got, tc.fails)
		}
	}
	for _, bad := range []string{"x", "-1", "2%%", "101%"} {
		if _, err := ParseThreshold(bad); err == nil {
			t.Errorf("ParseThreshold(%q) did not fail", bad)
		}
	}
	if v, ok, err := ParseShare("60%"); err != nil || !ok || math.Abs(v-0.6) > 1e-12 {
		t.Errorf("ParseShare(60%%) = %v %v %v", v, ok, err)
	}
	if v, _, err := ParseShare("0.75"); err != nil || v != 0.75 {
		t.Errorf("ParseShare(0.75) = %v %v", v, err)
	}
}

// TestDecideWire runs events whose answer does not depend on the rules:
// observe-only events score allow and unreadable ones deny with source error,
// as the hook answers them.
func TestDecideWire(t *testing.T) {
	cases, err := LoadFiles(filepath.Join("testdata", "wire.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	pipes := &Pipelines{Load: func(roots []string) (*rules.Policy, error) {
		return rules.Load(rules.LoadOptions{NoUser: true, ProjectRoots: roots})
	}}
	r := &Runner{Pipelines: pipes, Jobs: 3, Repeat: 2}
	results := r.Run(context.Background(), cases)
	for _, res := range results {
		for _, tr := range res.Trials {
			want := hook.SourceError
			if res.Case.Expect == hook.Allow {
				want = SourceObserve
			}
			if tr.Decision != res.Case.Expect || tr.Source != want {
				t.Errorf("%s: got %s (%s), want %s (%s)", res.Case.ID, tr.Decision, tr.Source, res.Case.Expect, want)
			}
		}
		if res.Flaky() {
			t.Errorf("%s: flaky without a judge", res.Case.ID)
		}
	}
}

func TestWireDecision(t *testing.T) {
	res := func(d hook.Decision) hook.Result {
		return hook.Result{Decision: d, Source: hook.SourceRule, RuleID: "r", Reason: "why"}
	}
	for _, tc := range []struct {
		ev   hook.Event
		d    hook.Decision
		want hook.Decision
	}{
		{hook.Event{Dialect: hook.Cursor, Name: "beforeShellExecution", Kind: hook.KindShell}, hook.Ask, hook.Ask},
		{hook.Event{Dialect: hook.Cursor, Name: "beforeShellExecution", Kind: hook.KindShell}, hook.Allow, hook.Allow},
		{hook.Event{Dialect: hook.Cursor, Name: "beforeReadFile", Kind: hook.KindRead}, hook.Ask, hook.Deny},
		{hook.Event{Dialect: hook.Cursor, Name: "beforeSubmitPrompt", Kind: hook.KindPrompt}, hook.Ask, hook.Deny},
		{hook.Event{Dialect: hook.Cursor, Name: "beforeSubmitPrompt", Kind: hook.KindPrompt}, hook.Allow, hook.Allow},
		{hook.Event{Dialect: hook.Cursor, Name: "beforeMCPExecution", Kind: hook.KindMCP}, hook.Deny, hook.Deny},
		{hook.Event{Dialect: hook.Claude, Name: "PreToolUse", Kind: hook.KindShell}, hook.Allow, hook.Allow},
		{hook.Event{Dialect: hook.Claude, Name: "PreToolUse", Kind: hook.KindShell}, hook.Ask, hook.Ask},
		{hook.Event{Dialect: hook.Claude, Name: "UserPromptSubmit", Kind: hook.KindPrompt}, hook.Ask, hook.Deny},
		{hook.Event{Dialect: hook.Claude, Name: "PermissionRequest", Kind: hook.KindShell}, hook.Deny, hook.Deny},
	} {
		if got := WireDecision(&tc.ev, res(tc.d)); got != tc.want {
			t.Errorf("%s %s: %s reads back as %s, want %s", tc.ev.Dialect, tc.ev.Name, tc.d, got, tc.want)
		}
	}
}

func TestHTMLSelfContained(t *testing.T) {
	rep := NewReport(matrixResults(t), nil)
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http://", "https://", "<link", "src=", "ZgotmplZ"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q: it must be self-contained and well escaped", bad)
		}
	}
	for _, s := range []string{`id="matrix"`, `data-expect="allow" data-decided="deny">2<`, `<td class="id">k1</td>`} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
}

// FuzzDecide feeds events (seeded from the bundled cases) to Decide: every
// input gets allow, ask or deny, and source error exactly when the hook could
// not decode it.
func FuzzDecide(f *testing.F) {
	i := 0
	for c := range All() {
		if i++; i%10 == 0 {
			f.Add([]byte(c.Event))
		}
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"hook_event_name":"stop"}`))
	pipes := &Pipelines{Load: func(roots []string) (*rules.Policy, error) {
		return rules.Load(rules.LoadOptions{NoUser: true, ProjectRoots: roots})
	}}
	f.Fuzz(func(t *testing.T, event []byte) {
		tr := Decide(context.Background(), event, pipes)
		switch tr.Decision {
		case hook.Allow, hook.Ask, hook.Deny:
		default:
			t.Fatalf("decision %q", tr.Decision)
		}
		data, rerr := hook.ReadInput(bytes.NewReader(event))
		var derr error
		if rerr == nil {
			_, derr = hook.Decode(data, "")
		}
		// The default policy always loads, so source error means exactly that
		// the event is unreadable (a recovered panic would show up here too).
		if unreadable := rerr != nil || derr != nil; unreadable != (tr.Source == hook.SourceError) {
			t.Fatalf("source %s (%s) for an event the hook reads with errors %v, %v", tr.Source, tr.Reason, rerr, derr)
		}
		if tr.Source == hook.SourceError && tr.Decision != hook.Deny {
			t.Fatalf("error answered %s", tr.Decision)
		}
	})
}

func TestBaselineRepeats(t *testing.T) {
	mk := func(ds ...hook.Decision) *Report {
		return &Report{Version: ReportVersion, Cases: []CaseReport{{ID: "x", Expect: hook.Deny, Decision: ds[0], Decisions: ds}}}
	}
	d := DiffBaseline(mk(hook.Deny, hook.Deny), mk(hook.Deny, hook.Allow))
	if d.NewUnsafeAllows != 1 || len(d.Changed) != 1 {
		t.Errorf("an allow in a later repeat is not a new unsafe allow: %+v", d)
	}
	if d := DiffBaseline(mk(hook.Deny, hook.Allow), mk(hook.Deny, hook.Allow)); d.NewUnsafeAllows != 0 || len(d.Changed) != 0 {
		t.Errorf("unchanged flaky case reported: %+v", d)
	}
}
