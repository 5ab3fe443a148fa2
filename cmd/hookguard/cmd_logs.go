package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/hookguard/hookguard/internal/audit"
	"github.com/hookguard/hookguard/internal/statedir"
)

func init() {
	register(command{name: "logs", summary: "show recent decisions from the audit log", run: runLogs})
}

func runLogs(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("logs", "logs [--denied] [--since 1h] [-n N] [--json]", stderr)
	denied := fs.Bool("denied", false, "only denied actions")
	since := fs.String("since", "", "only decisions newer than this: a duration (90m, 2h, 7d) or a time (2026-01-02 or RFC 3339)")
	n := fs.Int("n", 50, "show at most the last N decisions (0 = all)")
	asJSON := fs.Bool("json", false, "print the matching audit lines as JSON lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("logs takes no arguments (got %q)", fs.Arg(0))
	}
	now := time.Now()
	f := audit.Filter{Denied: *denied}
	if *since != "" {
		t, err := parseSince(*since, now)
		if err != nil {
			return err
		}
		f.Since = t
	}
	log := &audit.Log{Dir: statedir.Dir(nil)}
	lines, bad, err := log.Read(f, *n)
	if err != nil {
		return err
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "hookguard: skipped %d unreadable line(s) in the audit log\n", bad)
	}
	if *asJSON {
		for _, l := range lines {
			stdout.Write(l.Raw)
			io.WriteString(stdout, "\n")
		}
		return nil
	}
	if len(lines) == 0 {
		msg := "no decisions logged yet"
		if *denied || *since != "" {
			msg = "no matching decisions"
		}
		if !audit.Enabled() {
			msg += " (the audit log is off: HOOKGUARD_AUDIT=off)"
		}
		fmt.Fprintf(stdout, "%s in %s\n", msg, log.Path())
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tDECISION\tBY\tEVENT\tSUBJECT\tREASON")
	for _, l := range lines {
		r := l.Record
		by := r.Source
		if r.RuleID != "" {
			by = r.RuleID
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n",
			formatTime(r.Time, now), strings.ToUpper(r.Decision), by, eventLabel(&r),
			cell(subject(&r), 60), cell(r.Reason, 70))
	}
	return tw.Flush()
}

// parseSince reads a duration back from now (with d for days) or a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if strings.HasSuffix(s, "d") {
		var days int
		if _, err := fmt.Sscanf(s, "%dd", &days); err == nil && days >= 0 {
			return now.Add(-time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			d = -d
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (90m, 2h, 7d) nor a time (2026-01-02, RFC 3339)", s)
}

func formatTime(t, now time.Time) string {
	t = t.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

func eventLabel(r *audit.Record) string {
	if r.Kind != "" {
		return r.Kind
	}
	return r.Event
}

func subject(r *audit.Record) string {
	switch {
	case r.Command != "":
		return r.Command
	case r.Path != "":
		return r.Path
	case r.Tool != "" && r.Server != "":
		return r.Server + ":" + r.Tool
	case r.Tool != "":
		return r.Tool
	case r.Kind == "prompt":
		return "(prompt)"
	}
	return ""
}

// cell makes a value fit one table cell: one line, at most n runes.
func cell(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
