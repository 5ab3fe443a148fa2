// Command judgebench measures whole `hookguard hook` processes against a local
// OpenAI-compatible test server: a cache hit, a breaker-open fallback, and the
// judge's overhead on top of the model's own latency. Run it via bench/judge.sh.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

func main() {
	bin := flag.String("bin", "", "hookguard binary")
	n := flag.Int("n", 30, "runs per scenario")
	latency := flag.Duration("latency", 200*time.Millisecond, "the test model's own latency")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "judgebench: -bin is required")
		os.Exit(2)
	}
	var hang atomic.Bool
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "judgebench:", err)
		os.Exit(1)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			<-r.Context().Done()
			return
		}
		time.Sleep(*latency)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"decision\":\"ask\",\"risk\":\"medium\",\"reason\":\"bench\"}"},"finish_reason":"stop"}],"usage":{"total_tokens":9}}`)
	}))
	url := "http://" + ln.Addr().String() + "/v1"

	env := func(extra ...string) []string {
		state, _ := os.MkdirTemp("", "judgebench-")
		home, _ := os.MkdirTemp("", "judgebench-home-")
		return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "HOOKGUARD_STATE_DIR=" + state,
			"HOOKGUARD_JUDGE_URL=" + url, "HOOKGUARD_SERVE_IDLE=30s"}, extra...)
	}
	event := func(cmd string) string {
		return fmt.Sprintf(`{"hook_event_name":"beforeShellExecution","command":%q,"cwd":"/tmp/p","workspace_roots":["/tmp/p"]}`, cmd)
	}
	run := func(env []string, ev string) time.Duration {
		cmd := exec.Command(*bin, "hook")
		cmd.Env = env
		cmd.Stdin = strings.NewReader(ev)
		start := time.Now()
		out, err := cmd.Output()
		d := time.Since(start)
		if err != nil || !strings.HasPrefix(string(out), "{") {
			fmt.Fprintf(os.Stderr, "judgebench: hook failed: %v %s\n", err, out)
		}
		return d
	}
	stop := func(env []string) {
		cmd := exec.Command(*bin, "judge", "stop")
		cmd.Env = env
		_ = cmd.Run()
		for _, e := range env {
			if d, ok := strings.CutPrefix(e, "HOOKGUARD_STATE_DIR="); ok {
				os.RemoveAll(d)
			}
			if d, ok := strings.CutPrefix(e, "HOME="); ok {
				os.RemoveAll(filepath.Clean(d))
			}
		}
	}
	series := func(name string, f func(i int) time.Duration) time.Duration {
		ds := make([]time.Duration, *n)
		for i := range ds {
			ds[i] = f(i)
		}
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		med := ds[len(ds)/2]
		fmt.Printf("%-44s median %8s   min %8s   p90 %8s\n", name, ms(med), ms(ds[0]), ms(ds[len(ds)*9/10]))
		return med
	}
	fmt.Printf("hookguard judge bench: %d runs each, test model latency %s\n\n", *n, *latency)

	off := env("HOOKGUARD_JUDGE=off")
	series("rules only (judge off, unjudged ask)", func(int) time.Duration { return run(off, event("./tools/sync-fixtures.sh --all")) })
	stop(off)

	e := env()
	run(e, event("./tools/sync-fixtures.sh --all")) // start the server, fill the cache
	series("cache hit (judge server)", func(int) time.Duration { return run(e, event("./tools/sync-fixtures.sh --all")) })
	miss := series("cache miss via server (model call)", func(i int) time.Duration {
		return run(e, event(fmt.Sprintf("./tools/sync-fixtures.sh --batch %d", i)))
	})
	stop(e)

	ip := env("HOOKGUARD_JUDGE_SERVER=off")
	run(ip, event("./tools/sync-fixtures.sh --all"))
	series("cache hit (in-process, bbolt store)", func(int) time.Duration { return run(ip, event("./tools/sync-fixtures.sh --all")) })
	missIP := series("cache miss in-process (model call)", func(i int) time.Duration {
		return run(ip, event(fmt.Sprintf("./tools/sync-fixtures.sh --batch %d", i)))
	})
	stop(ip)

	hang.Store(true)
	h := env("HOOKGUARD_JUDGE_TIMEOUT=300ms")
	for i := range 3 {
		run(h, event(fmt.Sprintf("./tools/sync-fixtures.sh --open %d", i)))
	}
	series("breaker open fallback (judge server)", func(i int) time.Duration {
		return run(h, event(fmt.Sprintf("./tools/sync-fixtures.sh --hang %d", i)))
	})
	stop(h)

	fmt.Printf("\njudge overhead on top of the model's %s: %s via the server, %s in-process\n",
		ms(*latency), ms(miss-*latency), ms(missIP-*latency))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
