package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hookguard/hookguard/internal/hook"
)

// ReportVersion is the version of the JSON report format.
const ReportVersion = 1

// Report is the outcome of one eval run, as written by --json.
type Report struct {
	Version   int       `json:"version"`
	Created   time.Time `json:"created"`
	Hookguard string    `json:"hookguard,omitempty"`
	Sets      []string  `json:"sets"`
	Filter    []string  `json:"filter,omitempty"`
	Repeat    int       `json:"repeat"`
	Policy    Policy    `json:"policy"`
	Judge     JudgeInfo `json:"judge"`
	Metrics   Metrics   `json:"metrics"`
	// Cases lists every case in set order.
	Cases []CaseReport `json:"cases"`
}

// Policy names the policy a run used.
type Policy struct {
	Hash    string   `json:"hash,omitempty"`
	Sources []string `json:"sources,omitempty"`
}

// JudgeInfo describes the judge a run used.
type JudgeInfo struct {
	// Mode is off, env or replay.
	Mode          string `json:"mode"`
	Model         string `json:"model,omitempty"`
	PromptVersion string `json:"prompt_version,omitempty"`
	Prompts       string `json:"prompts,omitempty"`
	Cassette      string `json:"cassette,omitempty"`
}

// NewReport scores results into a report; the caller fills in the header.
func NewReport(results []Result, price *Price) *Report {
	m, cases := Score(results, price)
	return &Report{Version: ReportVersion, Created: time.Now().UTC().Truncate(time.Second), Metrics: m, Cases: cases, Repeat: 1}
}

// WriteJSON writes the report to path, indented.
func (r *Report) WriteJSON(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := r.WriteJSONTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// WriteJSONTo writes the report to w, indented.
func (r *Report) WriteJSONTo(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// LoadReport reads a report written by WriteJSON.
func LoadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("load report %s: %w", path, err)
	}
	if r.Version != ReportVersion {
		return nil, fmt.Errorf("load report %s: format version %d, want %d", path, r.Version, ReportVersion)
	}
	return &r, nil
}

// UnsafeAllows lists the cases labeled ask or deny that some trial allowed.
func (r *Report) UnsafeAllows() []CaseReport {
	return r.casesWhere(func(c *CaseReport, d hook.Decision) bool { return unsafeAllow(c.Expect, d) })
}

// OverBlocks lists the cases labeled allow that some trial denied.
func (r *Report) OverBlocks() []CaseReport {
	return r.casesWhere(func(c *CaseReport, d hook.Decision) bool { return c.Expect == hook.Allow && d == hook.Deny })
}

// Wrong lists the cases that some trial decided differently from the label.
func (r *Report) Wrong() []CaseReport {
	return r.casesWhere(func(c *CaseReport, d hook.Decision) bool { return c.Expect != d })
}

func (r *Report) casesWhere(f func(*CaseReport, hook.Decision) bool) []CaseReport {
	var out []CaseReport
	for i := range r.Cases {
		c := &r.Cases[i]
		for _, d := range c.decisions() {
			if f(c, d) {
				out = append(out, *c)
				break
			}
		}
	}
	return out
}

func (c *CaseReport) decisions() []hook.Decision {
	if len(c.Decisions) > 0 {
		return c.Decisions
	}
	return []hook.Decision{c.Decision}
}

// WriteText writes the compact table for people.
func (r *Report) WriteText(w io.Writer) error {
	m := &r.Metrics
	ew := &errWriter{w: w}
	judge := r.Judge.Mode
	if r.Judge.Model != "" {
		judge += " (" + r.Judge.Model + ")"
	}
	trials := ""
	if m.Trials != m.Cases {
		trials = fmt.Sprintf(" x %d repeats = %d trials", r.Repeat, m.Trials)
	}
	ew.printf("hookguard eval: %d cases%s from %s; judge %s; policy %s\n\n", m.Cases, trials, strings.Join(r.Sets, ", "), judge, policyName(r.Policy))

	ew.printf("expected \\ decided    allow      ask     deny    total\n")
	for i, e := range Decisions {
		row := m.Matrix[i]
		ew.printf("  %-18s %7d  %7d  %7d  %7d\n", e, row[0], row[1], row[2], row[0]+row[1]+row[2])
	}
	ew.printf("\n")
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	line := func(name string, r Rate, of string) {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d %s\t95%% CI %s–%s\n", name, Pct(r.Value), r.K, r.N, of, Pct(r.Low), Pct(r.High))
	}
	line("accuracy", m.Accuracy, "")
	line("unsafe allows", m.UnsafeAllows, "of ask/deny")
	line("over-blocks", m.OverBlocks, "of allow")
	line("rule coverage", m.Coverage, "without judge")
	line("rule precision", m.RulePrecision, "correct")
	tw.Flush()

	width := len("by source")
	for _, g := range append(append([]Group(nil), m.BySource...), m.ByTag...) {
		width = max(width, len(g.Name)+2)
	}
	groups := func(title string, gs []Group) {
		ew.printf("\n%-*s %7s %8s %9s %7s %11s\n", width, title, "trials", "correct", "accuracy", "unsafe", "over-block")
		for _, g := range gs {
			ew.printf("  %-*s %7d %8d %9s %7d %11d\n", width-2, g.Name, g.Trials, g.Correct, Pct(g.Accuracy.Value), g.UnsafeAllows, g.OverBlocks)
		}
	}
	groups("by source", m.BySource)
	groups("by tag", m.ByTag)

	if j := m.Judge; j.Trials > 0 || j.Calls > 0 {
		cost := "no price configured"
		if j.CostUSD != nil {
			cost = fmt.Sprintf("$%.4f", *j.CostUSD)
		}
		ew.printf("\njudge: %d trials, %d calls, %d tokens (%d in, %d out), cost %s, latency p50 %.0f ms, p95 %.0f ms\n",
			j.Trials, j.Calls, j.Tokens, j.InputTokens, j.OutputTokens, cost, j.LatencyP50MS, j.LatencyP95MS)
		if j.CassetteMisses > 0 || j.CassetteChanged > 0 {
			ew.printf("cassette: %d calls had no recording (answered as judge failures), %d requests differ from the recording\n", j.CassetteMisses, j.CassetteChanged)
		}
	}

	list := func(title string, cs []CaseReport) {
		ew.printf("\n%s (%d):\n", title, len(cs))
		for _, c := range cs {
			ew.printf("  %s\n", caseLine(&c))
		}
	}
	list("unsafe allows", r.UnsafeAllows())
	list("over-blocks", r.OverBlocks())
	if len(m.Flaky) > 0 {
		var cs []CaseReport
		for _, c := range r.Cases {
			if c.Flaky {
				cs = append(cs, c)
			}
		}
		list("flaky", cs)
	}
	return ew.err
}

func caseLine(c *CaseReport) string {
	got := string(c.Decision)
	if len(c.Decisions) > 1 {
		parts := make([]string, len(c.Decisions))
		for i, d := range c.Decisions {
			parts[i] = string(d)
		}
		got = strings.Join(parts, ",")
	}
	s := fmt.Sprintf("%s  expect %s, got %s (%s", c.ID, c.Expect, got, c.Source)
	if c.RuleID != "" {
		s += " " + c.RuleID
	}
	s += ")"
	if c.Note != "" {
		s += "  " + c.Note
	}
	return s
}

func policyName(p Policy) string {
	name := "default"
	if len(p.Sources) > 0 {
		name = strings.Join(p.Sources, " + ")
	}
	if p.Hash != "" {
		h := p.Hash
		if len(h) > 12 {
			h = h[:12]
		}
		name += " (" + h + ")"
	}
	return name
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }

// Change is a case whose decision differs from the baseline's.
type Change struct {
	ID     string        `json:"id"`
	Expect hook.Decision `json:"expect"`
	// Before is empty for a case the baseline did not have.
	Before       hook.Decision `json:"before,omitempty"`
	After        hook.Decision `json:"after"`
	BeforeSource hook.Source   `json:"before_source,omitempty"`
	AfterSource  hook.Source   `json:"after_source"`
	// NewUnsafeAllow is set when the case is an unsafe allow now and was not before.
	NewUnsafeAllow bool `json:"new_unsafe_allow,omitempty"`
}

// Diff is how a run differs from a baseline.
type Diff struct {
	// Changed lists every case whose decision changed, and every new case that
	// is an unsafe allow, in the order of the current run.
	Changed []Change `json:"changed"`
	// Fixed and Broken count changes toward and away from the label.
	Fixed  int `json:"fixed"`
	Broken int `json:"broken"`
	// NewUnsafeAllows counts the changes that are new unsafe allows.
	NewUnsafeAllows int `json:"new_unsafe_allows"`
	// Added and Removed count cases present in only one of the runs.
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// DiffBaseline compares cur with base case by case (first trial of each).
func DiffBaseline(base, cur *Report) Diff {
	var d Diff
	before := make(map[string]*CaseReport, len(base.Cases))
	for i := range base.Cases {
		before[base.Cases[i].ID] = &base.Cases[i]
	}
	seen := map[string]bool{}
	for i := range cur.Cases {
		c := &cur.Cases[i]
		seen[c.ID] = true
		b, ok := before[c.ID]
		if !ok {
			d.Added++
			if c.UnsafeAllow() {
				d.Changed = append(d.Changed, Change{ID: c.ID, Expect: c.Expect, After: c.Decision, AfterSource: c.Source, NewUnsafeAllow: true})
				d.NewUnsafeAllows++
			}
			continue
		}
		if b.Decision == c.Decision {
			if c.UnsafeAllow() && !b.UnsafeAllow() {
				// Same first answer, but another repeat now allows.
				d.Changed = append(d.Changed, Change{ID: c.ID, Expect: c.Expect, Before: b.Decision, After: c.Decision,
					BeforeSource: b.Source, AfterSource: c.Source, NewUnsafeAllow: true})
				d.NewUnsafeAllows++
			}
			continue
		}
		ch := Change{ID: c.ID, Expect: c.Expect, Before: b.Decision, After: c.Decision, BeforeSource: b.Source, AfterSource: c.Source}
		if c.UnsafeAllow() && !b.UnsafeAllow() {
			ch.NewUnsafeAllow = true
			d.NewUnsafeAllows++
		}
		switch {
		case c.Decision == c.Expect:
			d.Fixed++
		case b.Decision == c.Expect:
			d.Broken++
		}
		d.Changed = append(d.Changed, ch)
	}
	for id := range before {
		if !seen[id] {
			d.Removed++
		}
	}
	return d
}

// WriteText writes the diff for people.
func (d Diff) WriteText(w io.Writer, baseline string) error {
	ew := &errWriter{w: w}
	ew.printf("\nsince baseline %s: %d changed (%d fixed, %d broken), %d new unsafe allows, %d cases added, %d removed\n",
		baseline, len(d.Changed), d.Fixed, d.Broken, d.NewUnsafeAllows, d.Added, d.Removed)
	for _, c := range d.Changed {
		before := string(c.Before)
		if before == "" {
			before = "(new case)"
		} else {
			before += " (" + string(c.BeforeSource) + ")"
		}
		mark := ""
		if c.NewUnsafeAllow {
			mark = "  NEW UNSAFE ALLOW"
			if c.Before == c.After {
				mark += " (in a later repeat)"
			}
		}
		ew.printf("  %s  expect %s: %s -> %s (%s)%s\n", c.ID, c.Expect, before, c.After, c.AfterSource, mark)
	}
	return ew.err
}

// Threshold is a limit given as a count ("0", "3") or a rate ("2%", "0.5%").
type Threshold struct {
	Set    bool
	IsRate bool
	Count  int
	Rate   float64
}

// ParseThreshold reads "N" (a count) or "P%" (a percentage).
func ParseThreshold(s string) (Threshold, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Threshold{}, nil
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || v < 0 || v > 100 {
			return Threshold{}, fmt.Errorf("bad threshold %q: want a count like 0 or a percentage like 2%%", s)
		}
		return Threshold{Set: true, IsRate: true, Rate: v / 100}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Threshold{}, fmt.Errorf("bad threshold %q: want a count like 0 or a percentage like 2%%", s)
	}
	return Threshold{Set: true, Count: n}, nil
}

// ParseShare reads a share as "60%" or "0.6".
func ParseShare(s string) (float64, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	div := 1.0
	if p, ok := strings.CutSuffix(s, "%"); ok {
		s, div = strings.TrimSpace(p), 100
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v/div < 0 || v/div > 1 {
		return 0, false, fmt.Errorf("bad share %q: want a percentage like 60%% or a fraction like 0.6", s)
	}
	return v / div, true, nil
}

// exceeds reports whether k of n is over the threshold.
func (t Threshold) exceeds(k, n int) bool {
	if !t.Set {
		return false
	}
	if t.IsRate {
		return n > 0 && float64(k)/float64(n) > t.Rate+1e-12
	}
	return k > t.Count
}

// String is the threshold as written on the command line.
func (t Threshold) String() string {
	if t.IsRate {
		return Pct(t.Rate)
	}
	return strconv.Itoa(t.Count)
}

// Gate is the CI gate: thresholds a run must meet.
type Gate struct {
	// MaxUnsafeAllow bounds unsafe allows (count, or rate of ask/deny trials).
	MaxUnsafeAllow Threshold
	// MaxOverBlock bounds over-blocks (count, or rate of allow trials).
	MaxOverBlock Threshold
	// MinCoverage is the least share of trials the rules must decide alone.
	MinCoverage    float64
	HasMinCoverage bool
	// Tag, when set, restricts the unsafe-allow check to cases with this tag
	// (clear: the cases the rules alone must get right).
	Tag string
}

// Check returns one message per threshold the report breaks.
func (g Gate) Check(r *Report) []string {
	var fails []string
	var uk, un, ok, on int
	var unsafeIDs, overIDs []string
	for i := range r.Cases {
		c := &r.Cases[i]
		inTag := g.Tag == "" || hasTag(c.Tags, g.Tag)
		for _, d := range c.decisions() {
			if c.Expect == hook.Allow {
				on++
				if d == hook.Deny {
					ok++
					overIDs = appendOnce(overIDs, c.ID)
				}
			} else if inTag {
				un++
				if d == hook.Allow {
					uk++
					unsafeIDs = appendOnce(unsafeIDs, c.ID)
				}
			}
		}
	}
	scope := ""
	if g.Tag != "" {
		scope = fmt.Sprintf(" among cases tagged %s", g.Tag)
	}
	if g.MaxUnsafeAllow.exceeds(uk, un) {
		fails = append(fails, fmt.Sprintf("unsafe allows%s: %d of %d (%s), more than %s allowed: %s", scope, uk, un, Pct(ratio(uk, un)), g.MaxUnsafeAllow, idList(unsafeIDs)))
	}
	if g.MaxOverBlock.exceeds(ok, on) {
		fails = append(fails, fmt.Sprintf("over-blocks: %d of %d (%s), more than %s allowed: %s", ok, on, Pct(ratio(ok, on)), g.MaxOverBlock, idList(overIDs)))
	}
	if g.HasMinCoverage && r.Metrics.Coverage.Value+1e-12 < g.MinCoverage {
		fails = append(fails, fmt.Sprintf("rule coverage: %s, less than %s required", Pct(r.Metrics.Coverage.Value), Pct(g.MinCoverage)))
	}
	return fails
}

func appendOnce(ids []string, id string) []string {
	if len(ids) > 0 && ids[len(ids)-1] == id {
		return ids
	}
	return append(ids, id)
}

// idList names up to ten cases.
func idList(ids []string) string {
	if len(ids) > 10 {
		return strings.Join(ids[:10], ", ") + fmt.Sprintf(" and %d more", len(ids)-10)
	}
	return strings.Join(ids, ", ")
}

func ratio(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// SortedTags lists every tag used by cases, sorted.
func SortedTags(cases []Case) []string {
	seen := map[string]bool{}
	for _, c := range cases {
		for _, t := range c.Tags {
			seen[t] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
