// Command proctime times whole processes: it runs each command many times,
// interleaved so that machine noise hits them alike, feeding the same stdin,
// and prints the median, p10 and p90 wall time of each and the ratio of each
// median to the first command's. It stands in for hyperfine where that is not
// installed.
//
//	go run ./bench/proctime -runs 300 -input ev.json -- ./trivial -- ./hookguard hook
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("runs", 200, "runs per command")
	warmup := flag.Int("warmup", 10, "untimed runs per command first")
	input := flag.String("input", "", "file fed to every run's stdin")
	flag.Parse()
	cmds := splitCommands(flag.Args())
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: proctime [-runs N] [-input FILE] -- CMD ARGS… [-- CMD ARGS…]")
		os.Exit(2)
	}
	var stdin []byte
	if *input != "" {
		var err error
		if stdin, err = os.ReadFile(*input); err != nil {
			fmt.Fprintln(os.Stderr, "proctime:", err)
			os.Exit(1)
		}
	}
	times := make([][]time.Duration, len(cmds))
	for i := 0; i < *warmup+*runs; i++ {
		for j, c := range cmds {
			d, err := once(c, stdin)
			if err != nil {
				fmt.Fprintf(os.Stderr, "proctime: %s: %v\n", strings.Join(c, " "), err)
				os.Exit(1)
			}
			if i >= *warmup {
				times[j] = append(times[j], d)
			}
		}
	}
	base := median(times[0])
	for j, c := range cmds {
		m := median(times[j])
		fmt.Printf("%-40s median %8.3f ms  p10 %8.3f ms  p90 %8.3f ms  ratio %.2f\n",
			strings.Join(c, " "), ms(m), ms(pct(times[j], 10)), ms(pct(times[j], 90)), float64(m)/float64(base))
	}
}

func once(c []string, stdin []byte) (time.Duration, error) {
	cmd := exec.Command(c[0], c[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
			return d, nil // a deny with exit 2 is a valid answer
		}
		return d, err
	}
	return d, nil
}

func splitCommands(args []string) [][]string {
	var out [][]string
	var cur []string
	for _, a := range args {
		if a == "--" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func median(ds []time.Duration) time.Duration { return pct(ds, 50) }

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
