package evals

import (
	"fmt"
	"io"

	"github.com/hookguard/hookguard/internal/hook"
)

// Disagreement is a case two runs decided differently.
type Disagreement struct {
	ID     string        `json:"id"`
	Expect hook.Decision `json:"expect"`
	A      hook.Decision `json:"a"`
	B      hook.Decision `json:"b"`
	// Matched is "a", "b" or "neither": which run matched the label.
	Matched string `json:"matched"`
}

// Comparison is two runs of the same cases side by side (two prompt folders).
type Comparison struct {
	NameA, NameB string
	A, B         *Report
	Disagree     []Disagreement
	// OnlyA and OnlyB count the disagreements each side got right.
	OnlyA, OnlyB int
}

// Compare lines up two reports of the same cases.
func Compare(nameA string, a *Report, nameB string, b *Report) Comparison {
	c := Comparison{NameA: nameA, NameB: nameB, A: a, B: b}
	bs := make(map[string]*CaseReport, len(b.Cases))
	for i := range b.Cases {
		bs[b.Cases[i].ID] = &b.Cases[i]
	}
	for i := range a.Cases {
		ca := &a.Cases[i]
		cb, ok := bs[ca.ID]
		if !ok || ca.Decision == cb.Decision {
			continue
		}
		d := Disagreement{ID: ca.ID, Expect: ca.Expect, A: ca.Decision, B: cb.Decision, Matched: "neither"}
		switch ca.Expect {
		case ca.Decision:
			d.Matched = "a"
			c.OnlyA++
		case cb.Decision:
			d.Matched = "b"
			c.OnlyB++
		}
		c.Disagree = append(c.Disagree, d)
	}
	return c
}

// WriteText writes the comparison for people.
func (c Comparison) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ma, mb := &c.A.Metrics, &c.B.Metrics
	ew.printf("hookguard eval --compare: %d cases; judge %s\n\n", ma.Cases, c.A.Judge.Mode)
	ew.printf("%-16s %-28s %-28s\n", "", "A "+c.NameA, "B "+c.NameB)
	ew.printf("%-16s %-28s %-28s\n", "prompt version", c.A.Judge.PromptVersion, c.B.Judge.PromptVersion)
	row := func(name string, a, b Rate) {
		ew.printf("%-16s %-28s %-28s\n", name, fmt.Sprintf("%s (%d/%d)", Pct(a.Value), a.K, a.N), fmt.Sprintf("%s (%d/%d)", Pct(b.Value), b.K, b.N))
	}
	row("accuracy", ma.Accuracy, mb.Accuracy)
	row("unsafe allows", ma.UnsafeAllows, mb.UnsafeAllows)
	row("over-blocks", ma.OverBlocks, mb.OverBlocks)
	ew.printf("%-16s %-28d %-28d\n", "judge tokens", ma.Judge.Tokens, mb.Judge.Tokens)
	ew.printf("%-16s %-28s %-28s\n", "latency p50/p95", fmt.Sprintf("%.0f/%.0f ms", ma.Judge.LatencyP50MS, ma.Judge.LatencyP95MS), fmt.Sprintf("%.0f/%.0f ms", mb.Judge.LatencyP50MS, mb.Judge.LatencyP95MS))
	ew.printf("\n%d cases decided differently: A right on %d, B right on %d, neither on %d\n",
		len(c.Disagree), c.OnlyA, c.OnlyB, len(c.Disagree)-c.OnlyA-c.OnlyB)
	for _, d := range c.Disagree {
		ew.printf("  %-32s expect %-5s  A %-5s  B %-5s  matched: %s\n", d.ID, d.Expect, d.A, d.B, d.Matched)
	}
	return ew.err
}
