package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/sweepreport"
)

func init() {
	register("sweep", "run a workload at several offered rates and select the SLO capacity", runSweep)
}

// runSweep is the sweep command: the run command's flags, a list of rates
// (or "auto") instead of one, and a capacity rule. It writes sweep.json
// and sweep.html in the output directory and exits 0 when a tested rate
// passed, 3 when a --threshold failed at the selected point, 4 when no
// rate passed, 1 on bad input.
func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.registerWithout(fs, sweepRefusedFlags)
	f.ci.register(fs, false)
	rates := fs.String("rates", "", `comma-separated offered rates in requests/s, or "auto" to search for the knee (required)`)
	alpha := fs.Float64("min-attainment", 0.95, "attainment a rate needs to pass")
	wilson := fs.Bool("wilson", false, "judge the one-sided Wilson lower bound of attainment instead of the observed value")
	confidence := fs.Float64("confidence", 0.95, "confidence of the Wilson bound")
	backlog := fs.Bool("no-backlog-growth", true, "fail a rate whose outstanding work grew over its window")
	repeat := fs.Int("repeat", 1, "runs at each rate, each with the next seed; a rate passes only when all its runs pass")
	descending := fs.Bool("descending", false, "test the highest rate first (shows hysteresis an upward sweep hides)")
	batchSizes := fs.String("batch-sizes", "", "comma-separated inputs per request, e.g. 1,8,32: one point per batch size at the single --rates rate, the embeddings workload's inputs regrouped (sweep.json's batch_size column)")
	var auto capacity.AutoRates
	fs.Float64Var(&auto.StartRPS, "auto-start", 1, "--rates auto: the first rate of the coarse series (req/s)")
	fs.Float64Var(&auto.Factor, "auto-factor", 2, "--rates auto: ratio between successive coarse rates")
	fs.Float64Var(&auto.MaxRPS, "auto-max", 256, "--rates auto: the highest rate tried (req/s)")
	fs.Float64Var(&auto.ResolutionRPS, "resolution", 0, "--rates auto: bisect until the passing and failing rates are this close (req/s; default a tenth of the start rate)")
	var users userSearchFlags
	users.register(fs)
	var ws workingSetFlags
	ws.register(fs)
	boundaryRuns := fs.Int("boundary-runs", 3, "--rates auto, --users auto: at most this many more runs at each end of the final bracket, until the pooled attainment separates them at --confidence")
	if code, done := parseCommandLine(fs, args, stderr, sweepRefusedFlags...); done {
		return code
	}
	f.given = setFlags(fs)
	if err := f.ci.check(); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	f.thresholds.unjudgedFail = f.ci.unjudgedFails()
	if code, done := f.workingSetSweep(ws, *rates, *batchSizes, stdout, stderr); done {
		return code
	}
	auto.BoundaryRuns, users.search.BoundaryRuns = *boundaryRuns, *boundaryRuns
	if err := checkSweepNumbers(*alpha, *confidence, *repeat); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	plan := capacity.Plan{Repeat: *repeat, Descending: *descending}
	if f.users.auto {
		if err := users.prepare(&f, *rates); err != nil {
			fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
			return 1
		}
		plan.Users = &users.search
	} else if *rates == "auto" {
		if err := checkAutoRateFlags(auto.StartRPS, auto.Factor, auto.MaxRPS, auto.ResolutionRPS); err != nil {
			fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
			return 1
		}
		if auto.ResolutionRPS == 0 {
			auto.ResolutionRPS = auto.StartRPS / 10
		}
		plan.Auto = &auto
		f.rate = auto.StartRPS
	} else {
		points, err := parseRates(*rates)
		if err != nil {
			fmt.Fprintf(stderr, "servebench sweep: --rates: %v\n", err)
			return 1
		}
		plan.Rates = points
		f.rate = points[0]
	}
	var sizes []int
	if *batchSizes != "" {
		var err error
		if sizes, err = parseBatchSizes(*batchSizes); err != nil {
			fmt.Fprintf(stderr, "servebench sweep: --batch-sizes: %v\n", err)
			return 1
		}
		if len(plan.Rates) != 1 {
			fmt.Fprintln(stderr, "servebench sweep: --batch-sizes runs every batch size at one rate: give one rate in --rates")
			return 1
		}
	}
	if plan.Users == nil && !schedule.Process(f.arrival).Sampled() {
		fmt.Fprintf(stderr, "servebench sweep: --arrival %s has no offered rate to sweep\n", f.arrival)
		return 1
	}
	cfg, err := f.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	plan.Rule = capacity.Rule{MinAttainment: *alpha, UseWilsonLower: *wilson, Confidence: *confidence, RequireNoBacklogGrowth: *backlog}
	return withInterrupts("servebench sweep", stderr, func(ctx context.Context) int {
		return f.executeSweep(ctx, cfg, plan, sizes, stdout, stderr)
	})
}

// executeSweep runs the planned sweep (one point per batch size when sizes
// is not nil), writes and prints its result; it returns the exit code.
func (f *runFlags) executeSweep(ctx context.Context, cfg servebench.RunConfig, plan capacity.Plan, sizes []int, stdout, stderr io.Writer) int {
	defer f.metricsListen.stop()
	defer f.images.close()
	defer unloadAdapters(&cfg, stderr)
	if err := f.beforeLoad(ctx, &cfg, stderr); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	defer finishOutput(f.out, "sweep", stderr)
	var sweep *capacity.Sweep
	var err error
	if sizes != nil {
		sweep, err = capacity.RunBatchSweep(ctx, cfg, sizes, plan.Rule)
	} else {
		sweep, err = capacity.RunSweep(ctx, cfg, plan)
	}
	if sweep != nil {
		res := sweepreport.FromSweep(sweep, cfg.OutputDir)
		if werr := writeSweepFiles(sweep, res, cfg.OutputDir); werr != nil {
			fmt.Fprintf(stderr, "servebench sweep: %v\n", werr)
			return 1
		}
		if perr := f.printSweepResult(stdout, sweep, res, cfg.OutputDir); perr != nil {
			fmt.Fprintf(stderr, "servebench sweep: %v\n", perr)
			return 1
		}
		fmt.Fprintf(stderr, "sweep directory: %s (sweep.txt, sweep.json, sweep.html, rate-*)\n", cfg.OutputDir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	code := sweepExitCode(sweep, plan.Users != nil, stderr)
	switch {
	case code == 0 && !f.thresholds.judgeSweep(sweep, cfg.OutputDir, stderr):
		fmt.Fprintln(stderr, "servebench sweep: a threshold did not pass at the selected point (an unjudged one, with no value, fails it too under --unjudged fail)")
		code = 3
	case code != 0 && f.thresholds.given():
		fmt.Fprintln(stderr, "servebench sweep: thresholds not judged: no point was selected")
	}
	if err := f.ci.appendSummary(sweepStepSummary(sweep, f.thresholds.judged, code)); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	return code
}

// sweepExitCode is 0 when a tested rate (or number of users, in a user
// search) passed, 2 when every point was generator_bound (the sweep
// measured the client, not the engine, like a run whose load was not
// delivered), else 4.
func sweepExitCode(sw *capacity.Sweep, users bool, stderr io.Writer) int {
	switch {
	case users && sw.Concurrency != nil && sw.Concurrency.Users != nil, !users && sw.Selection.RPS != nil:
		return 0
	case sw.Selection.AllGeneratorBound():
		fmt.Fprintln(stderr, "servebench sweep: load not delivered at any tested rate: the client was the limit, so the sweep is not evidence about the engine")
		return 2
	}
	return 4
}

// sweepRefusedFlags are the run flags a sweep does not take.
var sweepRefusedFlags = []refusedFlag{
	{"phases", "a sweep takes its rates from --rates; a phased plan is one run (run --phases)", false},
	{"shard", "a sweep runs its rates one after another; shard each rate's run instead (run --shard, --start-at)", false},
	{"start-at", "a sweep runs its rates one after another; shard each rate's run instead (run --shard, --start-at)", false},
	{"require-attainment", "a sweep judges each rate by --min-attainment (with --wilson for its lower bound) and exits 4 when none passed", true},
}

// writeSweepFiles writes sweep.json, sweep.html and the full text,
// sweep.txt, into dir.
func writeSweepFiles(sw *capacity.Sweep, res sweepreport.Result, dir string) error {
	if err := res.WriteFiles(dir); err != nil {
		return err
	}
	var text bytes.Buffer
	printSweepText(&text, sw)
	return safefile.WriteWhole(filepath.Join(dir, sweepTextFile), text.Bytes())
}

// printSweepResult prints the sweep in the chosen format: sweep.json,
// sweep.html, or as text, the summary (the default) or the full text.
func (f *runFlags) printSweepResult(w io.Writer, sw *capacity.Sweep, res sweepreport.Result, dir string) error {
	switch {
	case f.format == "json":
		b, err := res.MarshalIndent()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	case f.format == "html":
		return res.WriteHTML(w)
	case f.report == reportFull:
		printSweepText(w, sw)
		return nil
	}
	return printSweepSummary(w, sw, dir, f.thresholds.parsed)
}

// printSweepText writes the sweep's full text: the table of every tested
// rate (or number of users), the knee, the answer and how the rates were
// chosen.
func printSweepText(w io.Writer, sw *capacity.Sweep) {
	if sw.Concurrency != nil {
		printUserSearch(w, sw)
		return
	}
	printSweep(w, sw)
	if sw.Capacity != nil {
		fmt.Fprintf(w, "  %s\n", answerLine(sw))
	}
	if sw.Auto != nil {
		fmt.Fprintf(w, "  (rates chosen automatically: coarse %v, bisected %v, resolution %g req/s)\n",
			sw.Auto.Coarse, sw.Auto.Bisected, sw.Auto.ResolutionRPS)
	}
}
