package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/hookguard/hookguard/evals"
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
	"github.com/hookguard/hookguard/rules"
)

func init() {
	register(command{name: "eval", summary: "score the guard on labeled event sets (default: the bundled sets)", run: runEval})
}

const evalSynopsis = `eval [flags] [PATH…]
       hookguard eval --compare DIR_A DIR_B [flags] [PATH…]

Runs every labeled case (PATH: .jsonl files or folders of them; default: the
sets bundled in the binary) through the pipeline of "hookguard hook" and
reports how the answers compare with the labels. The table goes to stdout.

exit status: 0 when the run passes every gate, 1 when a threshold or the
baseline check fails, 2 when the sets, flags or policy cannot be used.`

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

func (m *multiFlag) Set(s string) error {
	*m = append(*m, s)
	return nil
}

type evalOptions struct {
	jobs        int
	judge       string
	policy      string
	prompts     string
	filters     multiFlag
	repeat      int
	jsonOut     string
	htmlOut     string
	baseline    string
	maxUnsafe   string
	maxOver     string
	minCoverage string
	gateTag     string
	record      string
	cassette    string
	noProgress  bool
	compare     []string
	paths       []string
}

func usageErr(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func runEval(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	args, compare, err := takeCompare(args)
	if err != nil {
		return usageErr("%v", err)
	}
	o := evalOptions{compare: compare}
	fs := newFlags("eval", evalSynopsis, stderr)
	fs.IntVar(&o.jobs, "jobs", runtime.GOMAXPROCS(0), "cases run at once")
	fs.StringVar(&o.judge, "judge", "off", "judge: off (escalations answered as unjudged), env (the endpoint from HOOKGUARD_JUDGE_URL…), replay (from --cassette)")
	fs.StringVar(&o.policy, "policy", "", "user policy file, or \"default\" for the embedded policy alone (default: what the hook uses, $HOOKGUARD_POLICY or ~/.config/hookguard/policy.yaml)")
	fs.StringVar(&o.prompts, "prompts", "", "folder of judge prompt templates overriding the embedded ones")
	fs.Var(&o.filters, "filter", "run only cases with this `TAG` (repeatable: all must match; a|b for either; !tag to exclude)")
	fs.IntVar(&o.repeat, "repeat", 1, "run every case `N` times and list the cases whose decision changes (flaky)")
	fs.StringVar(&o.jsonOut, "json", "", "write the report as JSON to `FILE` (- for stdout; the table then goes to stderr)")
	fs.StringVar(&o.htmlOut, "html", "", "write a self-contained HTML report to `FILE` (- for stdout; the table then goes to stderr)")
	fs.StringVar(&o.baseline, "baseline", "", "compare with an earlier --json `REPORT`: list every changed case, fail on any new unsafe allow")
	fs.StringVar(&o.maxUnsafe, "max-unsafe-allow", "", "fail when unsafe allows exceed this count (0) or rate (1%)")
	fs.StringVar(&o.maxOver, "max-over-block", "", "fail when over-blocks exceed this count (3) or rate of allow cases (2%)")
	fs.StringVar(&o.minCoverage, "min-coverage", "", "fail when the rules alone decide less than this share (60% or 0.6)")
	fs.StringVar(&o.gateTag, "gate-tag", "", "count only cases with this `TAG` (e.g. clear) against --max-unsafe-allow")
	fs.StringVar(&o.record, "record", "", "record every judge request and answer into the cassette `FILE`")
	fs.StringVar(&o.cassette, "cassette", "", "cassette `FILE` that --judge replay answers from")
	fs.BoolVar(&o.noProgress, "no-progress", false, "never show the progress bar")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o.paths = fs.Args()
	if err := o.check(); err != nil {
		return usageErr("eval: %v", err)
	}
	gate, err := o.gate()
	if err != nil {
		return usageErr("eval: %v", err)
	}

	cases, sets, err := loadCases(o.paths)
	if err != nil {
		return usageErr("eval: %v", err)
	}
	cases = evals.Filter(cases, o.filters)
	if len(cases) == 0 {
		return usageErr("eval: no case matches --filter %s", o.filters.String())
	}
	var base *evals.Report
	if o.baseline != "" {
		if base, err = evals.LoadReport(o.baseline); err != nil {
			return usageErr("eval: %v", err)
		}
	}
	basePolicy, err := o.loadPolicy(nil)
	if err != nil {
		return usageErr("eval: policy: %v", err)
	}
	if o.judge == "off" {
		if _, ok, _ := pipeline.JudgeConfig(basePolicy, os.Getenv); ok {
			fmt.Fprintln(stderr, "hookguard: eval: a judge is configured, but this run is rules-only (--judge off): escalations score as unjudged; add --judge env to include it")
		}
	}
	var replay *evals.Cassette
	if o.judge == "replay" {
		if replay, err = evals.LoadCassette(o.cassette); err != nil {
			return usageErr("eval: %v", err)
		}
	}
	var record *evals.Cassette
	if o.record != "" {
		record = evals.NewCassette()
	}

	table := stdout
	if o.jsonOut == "-" || o.htmlOut == "-" {
		table = stderr // stdout carries the report
	}
	ctx := context.Background()
	if len(o.compare) == 2 {
		a, err := o.run(ctx, cases, sets, basePolicy, o.compare[0], replay, record, stderr)
		if err != nil {
			return err
		}
		b, err := o.run(ctx, cases, sets, basePolicy, o.compare[1], replay, record, stderr)
		if err != nil {
			return err
		}
		if err := saveRecord(o.record, record, stderr); err != nil {
			return err
		}
		return evals.Compare(o.compare[0], a, o.compare[1], b).WriteText(table)
	}

	rep, err := o.run(ctx, cases, sets, basePolicy, o.prompts, replay, record, stderr)
	if err != nil {
		return err
	}
	if err := saveRecord(o.record, record, stderr); err != nil {
		return err
	}
	if err := rep.WriteText(table); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if err := o.writeReports(rep, stdout); err != nil {
		return err
	}

	var fails []string
	if base != nil {
		d := evals.DiffBaseline(base, rep)
		if err := d.WriteText(table, o.baseline); err != nil {
			return fmt.Errorf("write baseline diff: %w", err)
		}
		if d.NewUnsafeAllows > 0 {
			fails = append(fails, fmt.Sprintf("%d new unsafe allows since %s", d.NewUnsafeAllows, o.baseline))
		}
	}
	fails = append(fails, gate.Check(rep)...)
	if len(fails) > 0 {
		for _, f := range fails {
			fmt.Fprintf(stderr, "hookguard: eval gate failed: %s\n", f)
		}
		return &exitError{code: 1}
	}
	return nil
}

// takeCompare removes "--compare DIR_A DIR_B" from args: the flag package
// takes one value per flag.
func takeCompare(args []string) (rest, dirs []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if a != "--compare" && a != "-compare" {
			rest = append(rest, a)
			continue
		}
		if i+2 >= len(args) || strings.HasPrefix(args[i+1], "-") || strings.HasPrefix(args[i+2], "-") {
			return nil, nil, errors.New("eval: --compare takes two prompt folders: --compare DIR_A DIR_B")
		}
		if dirs != nil {
			return nil, nil, errors.New("eval: --compare given twice")
		}
		dirs = []string{args[i+1], args[i+2]}
		i += 2
	}
	return rest, dirs, nil
}

func (o *evalOptions) check() error {
	switch o.judge {
	case "off", "env", "replay":
	default:
		return fmt.Errorf("--judge %q: want off, env or replay", o.judge)
	}
	if o.jobs < 1 {
		return errors.New("--jobs must be at least 1")
	}
	if o.repeat < 1 {
		return errors.New("--repeat must be at least 1")
	}
	if o.prompts != "" && o.judge == "off" {
		return errors.New("--prompts needs a judge: --judge env or --judge replay")
	}
	if o.judge == "replay" && o.cassette == "" {
		return errors.New("--judge replay needs --cassette FILE")
	}
	if o.cassette != "" && o.judge != "replay" {
		return errors.New("--cassette is only read with --judge replay")
	}
	if o.record != "" && o.judge != "env" {
		return errors.New("--record needs a live judge: --judge env")
	}
	if o.compare != nil {
		if o.judge == "off" {
			return errors.New("--compare needs a judge: --judge env or --judge replay")
		}
		if o.prompts != "" {
			return errors.New("--compare and --prompts both choose the prompts: use one")
		}
		if o.jsonOut != "" || o.htmlOut != "" || o.baseline != "" || o.maxUnsafe != "" || o.maxOver != "" || o.minCoverage != "" {
			return errors.New("--compare prints a comparison only: run each prompt folder with --prompts for reports and gates")
		}
	}
	if o.jsonOut == "-" && o.htmlOut == "-" {
		return errors.New("--json and --html cannot both go to stdout")
	}
	return nil
}

func (o *evalOptions) gate() (evals.Gate, error) {
	var g evals.Gate
	var err error
	if g.MaxUnsafeAllow, err = evals.ParseThreshold(o.maxUnsafe); err != nil {
		return g, fmt.Errorf("--max-unsafe-allow: %w", err)
	}
	if g.MaxOverBlock, err = evals.ParseThreshold(o.maxOver); err != nil {
		return g, fmt.Errorf("--max-over-block: %w", err)
	}
	if g.MinCoverage, g.HasMinCoverage, err = evals.ParseShare(o.minCoverage); err != nil {
		return g, fmt.Errorf("--min-coverage: %w", err)
	}
	g.Tag = o.gateTag
	if g.Tag != "" && !g.MaxUnsafeAllow.Set {
		return g, errors.New("--gate-tag restricts --max-unsafe-allow, which is not set")
	}
	return g, nil
}

func loadCases(paths []string) ([]evals.Case, []string, error) {
	if len(paths) == 0 {
		cases, err := evals.Bundled()
		return cases, []string{evals.BundledName}, err
	}
	cases, err := evals.LoadFiles(paths...)
	return cases, paths, err
}

// loadPolicy loads the effective policy for an event's workspace roots exactly
// as the hook does (see loadPipeline), except that --policy default skips the
// user policy.
func (o *evalOptions) loadPolicy(roots []string) (*rules.Policy, error) {
	opts := rules.LoadOptions{UserPath: o.policy, ProjectRoots: roots}
	if o.policy == "default" {
		opts = rules.LoadOptions{NoUser: true, ProjectRoots: roots}
	}
	return rules.Load(opts)
}

// run decides every case --repeat times with the given prompt folder and scores the results.
func (o *evalOptions) run(ctx context.Context, cases []evals.Case, sets []string, basePolicy *rules.Policy, prompts string, replay, record *evals.Cassette, stderr io.Writer) (*evals.Report, error) {
	info := evals.JudgeInfo{Mode: o.judge, Prompts: prompts, Cassette: o.cassette}
	var infoMu sync.Mutex
	var judgeErr error
	pipes := &evals.Pipelines{Load: o.loadPolicy, Home: homeDir()}
	client := &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		MaxIdleConnsPerHost: o.jobs,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
	}}
	if o.judge != "off" {
		pipes.Judge = func(pol *rules.Policy) (pipeline.Judger, error) {
			var doer evals.Doer
			meter := &evals.Meter{Next: client, Record: record}
			rp := &evals.Replay{Cassette: replay}
			if replay != nil {
				doer = rp
			} else {
				doer = meter
			}
			j, err := newEvalJudge(evalJudgeConfig{Policy: pol, Prompts: prompts, HTTP: doer, Replay: replay})
			if err != nil {
				infoMu.Lock()
				judgeErr = err
				infoMu.Unlock()
				return nil, err
			}
			meter.PromptVersion, rp.PromptVersion = j.PromptVersion, j.PromptVersion
			infoMu.Lock()
			info.Model, info.PromptVersion = j.Model, j.PromptVersion
			infoMu.Unlock()
			return j.Judger, nil
		}
		// Build the judge for the base policy now, so that a missing endpoint
		// or prompt folder is one clear error rather than a deny per case.
		if _, err := pipes.For(nil); err != nil {
			return nil, usageErr("eval: %v", err)
		}
		if replay != nil {
			if v := info.PromptVersion; !slices.Contains(replay.PromptVersions(), v) {
				fmt.Fprintf(stderr, "hookguard: eval: the cassette has no calls for prompt version %s (it has %s): every judged case will fall back\n", v, strings.Join(replay.PromptVersions(), ", "))
			}
		}
	}
	runner := &evals.Runner{Pipelines: pipes, Jobs: o.jobs, Repeat: o.repeat}
	bar := newProgress(stderr, o.noProgress)
	runner.Progress = bar.update
	results := runner.Run(ctx, cases)
	bar.done()
	if judgeErr != nil {
		fmt.Fprintf(stderr, "hookguard: eval: some cases had no judge: %v\n", text.OneLine(judgeErr.Error()))
	}

	var price *evals.Price
	if basePolicy != nil {
		price = &evals.Price{Input: basePolicy.Judge.PriceInput, Output: basePolicy.Judge.PriceOutput}
	}
	rep := evals.NewReport(results, price)
	rep.Hookguard = versionString()
	rep.Sets = sets
	rep.Filter = o.filters
	rep.Repeat = o.repeat
	rep.Judge = info
	if basePolicy != nil {
		rep.Policy = evals.Policy{Hash: basePolicy.Hash, Sources: basePolicy.Sources}
	}
	return rep, nil
}

func saveRecord(path string, c *evals.Cassette, stderr io.Writer) error {
	if c == nil {
		return nil
	}
	if err := c.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "hookguard: eval: recorded %d judge calls into %s\n", c.Len(), path)
	return nil
}

func (o *evalOptions) writeReports(rep *evals.Report, stdout io.Writer) error {
	if o.jsonOut == "-" {
		if err := rep.WriteJSONTo(stdout); err != nil {
			return err
		}
	} else if o.jsonOut != "" {
		if err := rep.WriteJSON(o.jsonOut); err != nil {
			return err
		}
	}
	if o.htmlOut == "-" {
		return rep.WriteHTML(stdout)
	}
	if o.htmlOut != "" {
		return rep.WriteHTMLFile(o.htmlOut)
	}
	return nil
}

// evalJudgeConfig is what the eval needs from the judge package: an in-process
// judge for a policy, without cache, using the given prompt folder and HTTP client.
type evalJudgeConfig struct {
	Policy  *rules.Policy
	Prompts string
	HTTP    evals.Doer
	// Replay is the cassette answering the calls, nil for a live endpoint.
	Replay *evals.Cassette
}

// evalJudge is a judge built for an eval run, with what the report names.
type evalJudge struct {
	pipeline.Judger
	PromptVersion string
	Model         string
}

// newEvalJudge builds the eval's judge: the in-process judge configured like
// the hook's (environment over the policy's judge section), without a cache so
// that every case is judged, with the eval's HTTP client (meter, recorder or
// cassette), and with no memory of user requests between cases.
func newEvalJudge(cfg evalJudgeConfig) (*evalJudge, error) {
	jc, ok, err := pipeline.JudgeConfig(cfg.Policy, os.Getenv)
	if err != nil {
		return nil, err
	}
	if cfg.Replay != nil {
		models := cfg.Replay.Models()
		switch {
		case ok && slices.Contains(models, jc.Model):
		case len(models) == 1:
			if !ok {
				jc = judge.Config{BaseURL: "http://cassette.invalid/v1"}
			}
			jc.Model = models[0]
		default:
			return nil, fmt.Errorf("the cassette holds calls to the models %s: choose one with HOOKGUARD_JUDGE_MODEL", strings.Join(models, ", "))
		}
		// A call the cassette lacks must not trip the breaker for the rest.
		jc.Breaker = judge.BreakerSettings{Failures: math.MaxInt32}
	} else if !ok {
		return nil, errors.New("--judge env: no judge endpoint configured: set HOOKGUARD_JUDGE_URL (or OPENAI_BASE_URL), HOOKGUARD_JUDGE_MODEL and HOOKGUARD_JUDGE_KEY (or OPENAI_API_KEY), and unset HOOKGUARD_JUDGE=off")
	}
	jc.NoCache = true
	jc.StateDir = "" // no endpoint quirks remembered on disk between runs
	jc.HTTPClient = cfg.HTTP
	if cfg.Prompts != "" {
		jc.PromptsDir = cfg.Prompts
	}
	j, err := judge.New(jc)
	if err != nil {
		return nil, err
	}
	return &evalJudge{Judger: caseJudge{j}, PromptVersion: j.PromptVersion(), Model: j.Model()}, nil
}

// caseJudge keeps cases independent: a prompt case does not become the user's
// intent for the cases that happen to share its conversation id.
type caseJudge struct{ j *judge.Judge }

func (c caseJudge) Decide(ctx context.Context, in judge.Input) hook.Result {
	return c.j.Decide(ctx, in)
}

func (caseJudge) RememberIntent(context.Context, *hook.Event) {}

// progress draws a bar on stderr when it is a terminal and the run is long.
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
	mu    sync.Mutex
	last  time.Time
	drawn bool
}

// progressDelay is how long a run must take before the bar appears.
const progressDelay = 1500 * time.Millisecond

func newProgress(stderr io.Writer, disabled bool) *progress {
	p := &progress{w: stderr, start: time.Now()}
	if f, ok := stderr.(*os.File); ok && !disabled {
		p.on = term.IsTerminal(int(f.Fd()))
	}
	return p
}

func (p *progress) update(done, total int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < 100*time.Millisecond && done < total {
		return
	}
	p.last = now
	p.drawn = true
	const width = 30
	fill := width * done / max(total, 1)
	eta := ""
	if done > 0 && done < total {
		left := time.Duration(float64(now.Sub(p.start)) / float64(done) * float64(total-done)).Round(time.Second)
		eta = " " + left.String() + " left"
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %d/%d%s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total, eta)
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
