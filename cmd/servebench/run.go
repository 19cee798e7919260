package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/enginemetrics"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
	"github.com/servebench/servebench/servebench/threshold"
)

func init() {
	register("run", "replay a workload against an OpenAI-compatible endpoint and score it", runRun)
}

// runFlags holds the run command's flags.
type runFlags struct {
	baseURL, model, endpoint, workload, arrival, output, apiKeyEnv, format, lengthControl, metricsURL string
	report                                                                                            string
	rate, burstiness, timeScale, requireAttainment                                                    float64
	burstSize, count, maxConcurrency, warmup                                                          int
	seed                                                                                              int64
	thinkTime, duration, timeout, firstTokenTimeout, idleTimeout                                      time.Duration
	lagTolerance, ttftSLO, tpotSLO, e2eSLO                                                            time.Duration
	ttftFromScheduled, keepText, logprobs, noStream, noProgress, resetPrefixCache                     bool
	runSafety
	gpu              telemetryFlags
	sharding         shardFlags
	metricsInterval  time.Duration
	requestsInReport bool
	users            usersFlag
	searchUsers      bool // sweep --users auto sets it
	benchReport      benchmarkReportFlags
	metricsListen    metricsListenFlags
	backends         backendFlags
	tenants          tenantFlags
	phases           string
	adapters         adapterFlags
	history          conversationHistoryFlag
	images           imageFlags
	thresholds       thresholdFlag
	synthetic        syntheticFlags
	// ci is registered by run, sweep and ab themselves (k8s job takes
	// none of it).
	ci ciFlags
}

func (f *runFlags) register(fs *flag.FlagSet) {
	// The client's defaults are NewClient's, so the command and the
	// library cannot drift apart.
	defaults := openai.NewClient("", "")
	fs.StringVar(&f.baseURL, "base-url", "", "engine root URL, e.g. http://127.0.0.1:8000 (required)")
	fs.StringVar(&f.model, "model", "", "served model name (required)")
	fs.StringVar(&f.endpoint, "endpoint", string(defaults.Endpoint), endpointHelp())
	fs.StringVar(&f.workload, "workload", "", "workload JSONL file (required unless --prompt-tokens and --max-tokens generate the rows)")
	fs.StringVar(&f.arrival, "arrival", string(schedule.ProcessPoisson), "arrival process: "+processNames())
	fs.Float64Var(&f.rate, "rate", 0, "mean offered rate in requests per second (open loop)")
	fs.Float64Var(&f.burstiness, "burstiness", 1, "gamma shape k; CV = 1/sqrt(k)")
	fs.IntVar(&f.burstSize, "burst-size", 1, "requests per burst group (burst b requests every b/rate)")
	fs.Float64Var(&f.timeScale, "time-scale", 1, "replay: multiply stored timestamps (0.5 = twice as fast)")
	fs.Var(&f.users, "users", `closed loop: number of users, each sending its next request (or session) when its previous one ended; implies --arrival closed; with --duration they stop starting requests at the deadline (sweep: "auto" searches the SLO concurrency, or over sessions the agent capacity)`)
	fs.DurationVar(&f.thinkTime, "think-time", 0, "closed loop: think time between a user's requests")
	fs.Int64Var(&f.seed, "seed", 1, "seed of the sampled arrival processes and of the rows --prompt-tokens generates")
	fs.IntVar(&f.count, "count", 0, "number of arrivals")
	fs.DurationVar(&f.duration, "duration", 0, "length of the arrival window")
	fs.IntVar(&f.maxConcurrency, "max-concurrency", 0, "client cap on requests in flight (0: none)")
	fs.IntVar(&f.warmup, "warmup", 0, "warmup requests before the window (excluded from the cohort)")
	fs.BoolVar(&f.resetPrefixCache, "reset-prefix-cache", false, resetPrefixCacheHelp)
	fs.DurationVar(&f.timeout, "timeout", defaults.TotalTimeout, "total deadline per request")
	fs.DurationVar(&f.firstTokenTimeout, "first-token-timeout", defaults.FirstTokenTimeout, "deadline for the first content after send (0: none)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", defaults.IdleTimeout, "deadline for the gap between stream events (0: none)")
	fs.DurationVar(&f.ttftSLO, "ttft-slo", 0, "TTFT objective (0: not declared)")
	fs.DurationVar(&f.tpotSLO, "tpot-slo", 0, "TPOT objective (0: not declared)")
	fs.DurationVar(&f.e2eSLO, "e2e-slo", 0, "end-to-end objective (0: not declared)")
	fs.BoolVar(&f.ttftFromScheduled, "ttft-from-scheduled", false, "judge TTFT from the scheduled time instead of the send time")
	fs.DurationVar(&f.lagTolerance, "schedule-lag-tolerance", schedule.DefaultLagTolerance, "schedule lag beyond which the run is not valid")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the API key (never written anywhere)")
	fs.StringVar(&f.metricsURL, "metrics-url", "", "the engine's Prometheus endpoint, scraped before and after the measurement (e.g. http://127.0.0.1:8000/metrics)")
	fs.BoolVar(&f.requestsInReport, "requests-in-report", false, "also keep every request's entry in report.json (memory then grows with the run's length)")
	fs.DurationVar(&f.metricsInterval, "metrics-interval", enginemetrics.DefaultInterval, "with --metrics-url: scrape this often through the measurement and put the series in the report (0: only before and after)")
	fs.StringVar(&f.output, "output", "", "run directory for schedule.json, outcomes.jsonl and report.json (required)")
	fs.Float64Var(&f.requireAttainment, "require-attainment", -1, "exit 3 when a valid run's attainment is below this fraction (the shorthand of --threshold attainment>=X)")
	fs.Var(&f.thresholds, "threshold", thresholdHelp)
	fs.StringVar(&f.format, "format", "text", "report on stdout: text, json or html")
	fs.StringVar(&f.report, "report", reportSummary, "text on stdout: summary (one screen) or full (the full text report, also written into --output)")
	fs.StringVar(&f.lengthControl, "length-control", string(defaults.LengthControl), "how ignore_eos rows are sent: ignore_eos, ignore_eos+min_tokens or unsupported")
	fs.BoolVar(&f.keepText, "keep-text", false, "keep every response's text in the outcome records")
	fs.BoolVar(&f.logprobs, "logprobs", false, "ask for logprobs so that tokens per event are proven")
	fs.BoolVar(&f.noStream, "no-stream", false, "use non-streaming requests (TTFT then equals E2E)")
	fs.BoolVar(&f.noProgress, "no-progress", false, "do not show progress on stderr (it is shown only when stderr is a terminal)")
	f.runSafety.register(fs)
	f.gpu.register(fs)
	f.sharding.register(fs)
	f.benchReport.register(fs)
	f.metricsListen.register(fs)
	f.backends.register(fs)
	f.tenants.register(fs)
	fs.StringVar(&f.phases, "phases", "", phasesHelp)
	f.adapters.register(fs)
	f.history.register(fs)
	f.images.register(fs)
	f.synthetic.register(fs)
}

// runRun is the run command.
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	f.ci.register(fs, true)
	if code, done := parseCommandLine(fs, args, stderr); done {
		return code
	}
	f.given = setFlags(fs)
	if err := f.ci.check(); err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	f.thresholds.unjudgedFail = f.ci.unjudgedFails()
	cfg, err := f.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	return withInterrupts("servebench run", stderr, func(ctx context.Context) int {
		return f.execute(ctx, cfg, stdout, stderr)
	})
}

// execute runs the configured run and prints its report; it returns the
// exit code.
func (f *runFlags) execute(ctx context.Context, cfg servebench.RunConfig, stdout, stderr io.Writer) int {
	defer f.metricsListen.stop()
	defer f.images.close()
	defer unloadAdapters(&cfg, stderr)
	if err := f.beforeLoad(ctx, &cfg, stderr); err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	defer finishOutput(f.out, "run", stderr)
	res, err := servebench.Run(ctx, cfg)
	if res == nil || res.Report == nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
	}
	if err := f.printRunReport(stdout, res); err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "run directory: %s\n", res.Dir)
	thresholdsPassed := f.thresholds.judgeRun(res.Report, res.Dir, f.requireAttainment, stderr)
	return f.finishRun(res.Report, verdictExitCode(res.Report, f.requireAttainment, thresholdsPassed, stderr), stderr)
}

// processNames lists the arrival processes for the flag's help.
func processNames() string {
	var names []string
	for _, p := range schedule.Processes() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// msOf converts a duration to milliseconds, the unit of the records.
func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// arrivalSpec is the arrival the flags declare, for any process.
func (f *runFlags) arrivalSpec() schedule.ArrivalSpec {
	return schedule.ArrivalSpec{
		Process: schedule.Process(f.arrival), RateRPS: f.rate, Burstiness: f.burstiness, BurstSize: f.burstSize,
		TimeScale: f.timeScale, Users: f.users.n, ThinkTimeMS: msOf(f.thinkTime), Seed: f.seed,
	}
}

// checkRequired refuses a command line without the flags every run needs
// (a length for any arrival but replay), or with an unknown report format
// or form.
func (f *runFlags) checkRequired() error {
	switch {
	case f.baseURL == "":
		return errors.New("--base-url is required")
	case f.model == "":
		return errors.New("--model is required")
	case f.workload == "" && !f.synthetic.given():
		return errors.New("give --workload FILE, or --prompt-tokens N and --max-tokens N to generate the rows")
	case f.output == "":
		return errors.New("--output is required")
	case f.count == 0 && f.duration == 0 && f.phases == "" && schedule.Process(f.arrival) != schedule.ProcessReplay:
		return errors.New("give --count or --duration")
	case f.format != "text" && f.format != "json" && f.format != "html":
		return fmt.Errorf("--format: want text, json or html, got %q", f.format)
	}
	return checkReportForm(f.report)
}

// config turns the flags into a RunConfig, rejecting bad combinations:
// the flags' Settings, built by the one mapping, with the run's progress
// display and GPU sampler.
func (f *runFlags) config(stderr io.Writer) (servebench.RunConfig, error) {
	s, err := f.settings()
	if err != nil {
		return servebench.RunConfig{}, err
	}
	gpu, err := f.gpu.sampler(stderr)
	if err != nil {
		return servebench.RunConfig{}, err
	}
	cfg, err := s.RunConfig()
	if err != nil {
		if gpu != nil {
			_ = gpu.Close()
		}
		return cfg, arrivalFlagError(err)
	}
	if gpu != nil {
		cfg.GPUSampler = gpu
	}
	if !f.noProgress {
		cfg.Observer = newProgress(stderr)
	}
	return cfg, nil
}

// settings are the run the flags declare, each error naming its flag.
func (f *runFlags) settings() (servebench.Settings, error) {
	var s servebench.Settings
	if err := f.impliedArrival(); err != nil {
		return s, err
	}
	if err := f.checkRequired(); err != nil {
		return s, err
	}
	if err := f.checkFlags(); err != nil {
		return s, err
	}
	if err := f.checkThresholds(); err != nil {
		return s, err
	}
	if err := schedule.CheckPrintableName("--model", f.model); err != nil {
		return s, err
	}
	c, err := f.client()
	if err != nil {
		return s, err
	}
	if err := checkObjectiveFlags(c.Endpoint, f.ttftSLO, f.tpotSLO, f.e2eSLO); err != nil {
		return s, err
	}
	if err := f.synthetic.check(f.workload, c.Endpoint); err != nil {
		return s, err
	}
	w, err := f.loadWorkload()
	if err != nil {
		return s, err
	}
	policy, err := declaredCachePolicy(f.workload, w)
	if err != nil {
		return s, err
	}
	s = servebench.Settings{
		Workload: w, Arrival: f.arrivalSpec(), Count: f.count, Duration: f.duration, Warmup: f.warmup,
		MaxConcurrency: f.maxConcurrency, LagTolerance: f.lagTolerance, OutputDir: f.output, KeepRequests: f.requestsInReport,
		ResetPrefixCache: f.resetPrefixCache, CachePolicy: policy,
		EngineMetrics: servebench.EngineMetricsConfig{URL: f.metricsURL, Interval: metricsIntervalFlag(f.metricsInterval)},
		Score: score.Options{SLO: report.SLO{
			TTFT: f.ttftSLO, TPOT: f.tpotSLO, E2E: f.e2eSLO, TTFTFromScheduled: f.ttftFromScheduled,
		}, Percentiles: threshold.Levels(f.thresholds.parsed)},
		Client: c,
	}
	for _, apply := range []func(*servebench.Settings) error{
		f.sharding.apply, f.benchReport.apply, f.adapters.apply, f.images.apply, f.history.apply, f.backends.apply,
		f.tenants.apply, f.applyPhases,
	} {
		if err := apply(&s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// client is the client the flags declare: NewClient's defaults with the
// flags' endpoint, key, stream, length control, deadlines and headers.
func (f *runFlags) client() (*openai.Client, error) {
	endpoint, err := record.ParseEndpoint(f.endpoint)
	if err != nil {
		return nil, fmt.Errorf("--endpoint: %w", err)
	}
	lc, err := openai.ParseLengthControl(f.lengthControl)
	if err != nil {
		return nil, fmt.Errorf("--length-control: %w", err)
	}
	apiKey := ""
	if f.apiKeyEnv != "" {
		if apiKey = os.Getenv(f.apiKeyEnv); apiKey == "" {
			return nil, fmt.Errorf("--api-key-env: %s is empty or unset", f.apiKeyEnv)
		}
	}
	c := openai.NewClient(f.baseURL, f.model)
	c.Endpoint, c.APIKey, c.NoStream, c.LengthControl, c.KeepText, c.Logprobs = endpoint, apiKey, f.noStream, lc, f.keepText, f.logprobs
	// A zero flag is no deadline; zero FirstTokenTimeout already is.
	c.FirstTokenTimeout = f.firstTokenTimeout
	c.IdleTimeout = openai.NoDeadlineIfZero(f.idleTimeout)
	c.TotalTimeout = openai.NoDeadlineIfZero(f.timeout)
	c.Header, c.Redirects = f.headers.header.Clone(), openai.RedirectPolicy(f.followRedirects)
	return c, nil
}
