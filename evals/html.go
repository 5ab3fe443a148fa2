package evals

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
)

//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use: package init runs in every hook process.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(htmlSource))
})

type htmlCard struct {
	Name, Value, Detail string
	Bad                 bool
}

type htmlCell struct {
	Expect, Decided hook.Decision
	N               int
	Class           string
}

type htmlRow struct {
	Expect hook.Decision
	Cells  []htmlCell
	Total  int
}

type htmlBar struct {
	Name                 string
	Trials, Correct      int
	CorrectPct, WrongPct string
	Accuracy             string
}

type htmlCase struct {
	ID, Got, Source, RuleID, Tags, Note, Reason, Class string
	Expect                                             hook.Decision
}

// WriteHTML writes the report as one self-contained page: no external assets.
func (r *Report) WriteHTML(w io.Writer) error {
	m := &r.Metrics
	data := struct {
		R         *Report
		M         *Metrics
		Sets      string
		Policy    string
		Created   string
		Cards     []htmlCard
		Decisions [3]hook.Decision
		Matrix    []htmlRow
		Sources   []htmlBar
		Tags      []htmlBar
		Judge     string
		Wrong     []htmlCase
	}{R: r, M: m, Sets: strings.Join(r.Sets, ", "), Policy: policyName(r.Policy), Created: r.Created.Format("2006-01-02 15:04 MST"), Decisions: Decisions}

	card := func(name string, rt Rate, detail string, bad bool) htmlCard {
		return htmlCard{Name: name, Value: Pct(rt.Value), Detail: fmt.Sprintf("%d/%d %s · 95%% CI %s–%s", rt.K, rt.N, detail, Pct(rt.Low), Pct(rt.High)), Bad: bad}
	}
	data.Cards = []htmlCard{
		card("accuracy", m.Accuracy, "", false),
		{Name: "unsafe allows", Value: fmt.Sprint(m.UnsafeAllows.K), Detail: fmt.Sprintf("%s of %d ask/deny · 95%% CI %s–%s", Pct(m.UnsafeAllows.Value), m.UnsafeAllows.N, Pct(m.UnsafeAllows.Low), Pct(m.UnsafeAllows.High)), Bad: m.UnsafeAllows.K > 0},
		{Name: "over-blocks", Value: Pct(m.OverBlocks.Value), Detail: fmt.Sprintf("%d of %d allow · 95%% CI %s–%s", m.OverBlocks.K, m.OverBlocks.N, Pct(m.OverBlocks.Low), Pct(m.OverBlocks.High)), Bad: m.OverBlocks.K > 0},
		card("rule coverage", m.Coverage, "without judge", false),
		card("rule precision", m.RulePrecision, "correct", false),
	}
	for i, e := range Decisions {
		row := htmlRow{Expect: e}
		for j, d := range Decisions {
			c := htmlCell{Expect: e, Decided: d, N: m.Matrix[i][j]}
			switch {
			case i == j:
				c.Class = "diag"
			case c.N == 0:
			case unsafeAllow(e, d):
				c.Class = "unsafe"
			case e == hook.Allow && d == hook.Deny:
				c.Class = "over"
			}
			row.Cells = append(row.Cells, c)
			row.Total += c.N
		}
		data.Matrix = append(data.Matrix, row)
	}
	data.Sources = bars(m.BySource)
	data.Tags = bars(m.ByTag)
	if j := m.Judge; j.Trials > 0 || j.Calls > 0 {
		cost := "no price configured"
		if j.CostUSD != nil {
			cost = fmt.Sprintf("$%.4f", *j.CostUSD)
		}
		data.Judge = fmt.Sprintf("%d trials, %d calls, %d tokens (%d in, %d out), cost %s, latency p50 %.0f ms, p95 %.0f ms",
			j.Trials, j.Calls, j.Tokens, j.InputTokens, j.OutputTokens, cost, j.LatencyP50MS, j.LatencyP95MS)
	}
	for _, c := range r.Wrong() {
		hc := htmlCase{ID: c.ID, Expect: c.Expect, Got: string(c.Decision), Source: string(c.Source), RuleID: c.RuleID,
			Tags: strings.Join(c.Tags, " "), Note: c.Note, Reason: c.Reason}
		if len(c.Decisions) > 1 {
			parts := make([]string, len(c.Decisions))
			for i, d := range c.Decisions {
				parts[i] = string(d)
			}
			hc.Got = strings.Join(parts, ",")
		}
		switch {
		case c.UnsafeAllow():
			hc.Class = "unsafe"
		case c.OverBlock():
			hc.Class = "over"
		}
		data.Wrong = append(data.Wrong, hc)
	}
	if err := htmlTemplate().Execute(w, data); err != nil {
		return fmt.Errorf("render html report: %w", err)
	}
	return nil
}

func bars(groups []Group) []htmlBar {
	most := 1
	for _, g := range groups {
		most = max(most, g.Trials)
	}
	out := make([]htmlBar, 0, len(groups))
	for _, g := range groups {
		out = append(out, htmlBar{
			Name: g.Name, Trials: g.Trials, Correct: g.Correct,
			CorrectPct: fmt.Sprintf("%.2f", 100*float64(g.Correct)/float64(most)),
			WrongPct:   fmt.Sprintf("%.2f", 100*float64(g.Trials-g.Correct)/float64(most)),
			Accuracy:   Pct(g.Accuracy.Value),
		})
	}
	return out
}

// WriteHTMLFile writes the HTML report to path.
func (r *Report) WriteHTMLFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	if err := r.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}
