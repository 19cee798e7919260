package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
)

func init() {
	register("ab", "run a baseline and a candidate engine in alternating rounds and compare them", runAB)
}

// abFlags are the flags ab adds to every run flag.
type abFlags struct {
	baselineURL, candidateURL, baselineModel, candidateModel     string
	baselineMetrics, candidateMetrics, baselineKey, candidateKey string
	rounds                                                       roundsFlag
	maxRounds                                                    int
	maxDuration                                                  time.Duration
	dryRun                                                       bool
	noiseFile                                                    string
}

// runAB is the ab command.
func runAB(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench ab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf runFlags
	rf.registerWithout(fs, abRefusedFlags)
	var af abFlags
	fs.StringVar(&af.baselineURL, "baseline-url", "", "the baseline engine's root URL (required)")
	fs.StringVar(&af.candidateURL, "candidate-url", "", "the candidate engine's root URL (required)")
	fs.StringVar(&af.baselineModel, "baseline-model", "", "served model on the baseline (default --model)")
	fs.StringVar(&af.candidateModel, "candidate-model", "", "served model on the candidate (default --model)")
	fs.StringVar(&af.baselineMetrics, "baseline-metrics-url", "", "the baseline engine's Prometheus endpoint")
	fs.StringVar(&af.candidateMetrics, "candidate-metrics-url", "", "the candidate engine's Prometheus endpoint")
	fs.StringVar(&af.baselineKey, "baseline-api-key-env", "", "environment variable holding the baseline's API key (default --api-key-env)")
	fs.StringVar(&af.candidateKey, "candidate-api-key-env", "", "environment variable holding the candidate's API key (default --api-key-env)")
	fs.Var(&af.rounds, "rounds", "auto, or a fixed number of rounds; each is one baseline and one candidate run, in the balanced ABBA order; auto runs 4, then 2 more before each next look until every deciding statistic is decided (one round gives an advisory result, exit 6)")
	fs.IntVar(&af.maxRounds, "max-rounds", ab.DefaultMaxRounds, "with --rounds auto: the most rounds a side (at least 4)")
	fs.DurationVar(&af.maxDuration, "max-duration", 0, "with --rounds auto: start no block of rounds that would likely end after this much wall time (0: no bound)")
	fs.BoolVar(&af.dryRun, "dry-run", false, "check the plan against the tolerances, print whether it can decide and the run size that can, and send nothing (exit 1 when it cannot)")
	fs.StringVar(&af.noiseFile, "noise", "", "noise.json from servebench noise: the measured run-to-run noise the plan check takes (default: the binomial bound for proportions and a stated prior for latencies)")

	var cf compareFlags
	cf.register(fs, false)
	rf.ci.register(fs, true)
	if code, done := parseCommandLine(fs, args, stderr, abRefusedFlags...); done {
		return code
	}
	rf.given = setFlags(fs)
	if err := rf.ci.check(); err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	applyABDefaults(&rf, "servebench ab", stderr)
	base, cand, err := af.sides(&rf, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	opts, err := cf.options(fs, stderr)
	if err == nil {
		err = compare.CheckOptions(opts, base.Client.Endpoint)
		if err != nil && strings.HasPrefix(err.Error(), "decide:") {
			err = fmt.Errorf("--%w", err)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	if sameServer(base, cand) != "" {
		fmt.Fprintf(stderr, "servebench ab: WARNING: %s\n", sameServer(base, cand))
	}
	if code, done := af.checkPlan(&rf, base, opts, stdout, stderr); done {
		return code
	}
	out, err := prepareOutput(rf.output, rf.overwrite)
	if err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	defer finishOutput(out, "ab", stderr)
	ctx, stop := interruptContext(stderr)
	defer stop()
	res, err := ab.Run(ctx, ab.Config{
		Baseline: base, Candidate: cand, Rounds: af.rounds.n, MaxRounds: af.maxRounds, MaxDuration: af.maxDuration,
		SameServer: sameServer(base, cand),
		OutputDir:  rf.output, Options: opts,
		BeforeRun: func(side compare.Side, round int, cfg *servebench.RunConfig) (func(), error) {
			fmt.Fprintf(stderr, "round %d of %s: %s (%s)\n", round, af.roundsOf(), side, cfg.Client.BaseURL)
			return nil, nil
		},
		AfterLook: func(look int, c *compare.Comparison, undecided []string) {
			if len(undecided) == 0 || c.Verdict == compare.Regression {
				fmt.Fprintf(stderr, "look %d after %d rounds: %s\n", look, c.Rounds.Baseline, c.Verdict)
				return
			}
			fmt.Fprintf(stderr, "look %d after %d rounds: undecided %s\n", look, c.Rounds.Baseline, strings.Join(undecided, ", "))
		},
	})
	if errors.Is(err, ab.ErrInterrupted) {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err) // which runs are kept, and why no verdict
	}
	if code, interrupted := interruptExit(ctx, "servebench ab", stderr); interrupted {
		return code // the finished rounds stay on disk; no comparison is written
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	if err := printComparison(stdout, res, rf.report, rf.output); err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "run order: %v\ncomparison: %s, %s and %s\n", res.Order, filepath.Join(rf.output, compare.ComparisonTextFile),
		filepath.Join(rf.output, compare.ComparisonFile), filepath.Join(rf.output, compare.ComparisonHTMLFile))
	return rf.ci.finishComparison("ab", res.Comparison, firstReport(res.Candidate), stderr)
}

// sides builds the two sides' run configurations from the shared run flags
// and each side's own URL, model, metrics endpoint and key.
func (af *abFlags) sides(rf *runFlags, stderr io.Writer) (base, cand servebench.RunConfig, err error) {
	switch {
	case af.baselineURL == "" || af.candidateURL == "":
		return base, cand, errors.New("--baseline-url and --candidate-url are required")
	case af.rounds.auto() && af.maxRounds < ab.FirstLookRounds:
		return base, cand, fmt.Errorf("--max-rounds: want at least %d with --rounds auto (its first look is after %d rounds), got %d", ab.FirstLookRounds, ab.FirstLookRounds, af.maxRounds)
	case af.maxDuration < 0:
		return base, cand, fmt.Errorf("--max-duration: want 0 or more, got %v", af.maxDuration)
	case rf.images.sizes != "":
		return base, cand, errors.New("--images: ab does not generate images; give a workload whose rows carry them")
	}
	side := func(url, model, metrics, keyEnv string) (servebench.RunConfig, error) {
		f := *rf
		f.baseURL, f.metricsURL = url, metrics
		if model != "" {
			f.model = model
		}
		if keyEnv != "" {
			f.apiKeyEnv = keyEnv
		}
		f.noProgress = true
		return f.config(stderr)
	}
	if base, err = side(af.baselineURL, af.baselineModel, af.baselineMetrics, af.baselineKey); err != nil {
		return base, cand, fmt.Errorf("baseline: %w", err)
	}
	if cand, err = side(af.candidateURL, af.candidateModel, af.candidateMetrics, af.candidateKey); err != nil {
		return base, cand, fmt.Errorf("candidate: %w", err)
	}
	return base, cand, nil
}

// printComparison prints the A/B comparison: its full text, or the
// summary (the default) with the baseline's first load point and where
// the full comparison is in dir.
func printComparison(w io.Writer, res *ab.Result, form, dir string) error {
	if form == reportFull {
		return res.Comparison.WriteText(w)
	}
	load := ""
	if len(res.Baseline) > 0 {
		load = render.LoadPoint(res.Baseline[0]) + " per run"
	}
	full := fmt.Sprintf("%s (also %s, %s)", filepath.Join(dir, compare.ComparisonTextFile), compare.ComparisonFile, compare.ComparisonHTMLFile)
	return res.Comparison.WriteSummary(w, load, []string{full})
}

// roundsOf says how many rounds the qualification runs: the fixed number,
// or "at most N" with --rounds auto.
func (af *abFlags) roundsOf() string {
	if af.rounds.auto() {
		return fmt.Sprintf("at most %d", af.maxRounds)
	}
	return af.rounds.String()
}

// The load ab offers when neither a length nor a rate is given: 150
// requests a run, the size its default deciding statistics and
// tolerances are calibrated at (docs/ab-calibration.md), as a Poisson
// process of 10 requests a second.
const (
	abDefaultCount = 150
	abDefaultRate  = 10.0
)

// applyABDefaults gives a run without --count or --duration
// abDefaultCount requests, and a rate-driven arrival without --rate
// abDefaultRate, saying so on stderr.
func applyABDefaults(rf *runFlags, command string, stderr io.Writer) {
	process := schedule.Process(rf.arrival)
	if process == schedule.ProcessReplay || rf.users.n > 0 {
		return
	}
	if !rf.given["count"] && !rf.given["duration"] {
		rf.count = abDefaultCount
		fmt.Fprintf(stderr, "%s: %d requests a run (no --count or --duration given)\n", command, abDefaultCount)
	}
	if !rf.given["rate"] && process != schedule.ProcessClosed {
		rf.rate = abDefaultRate
		fmt.Fprintf(stderr, "%s: --rate %g (no --rate given)\n", command, abDefaultRate)
	}
}
