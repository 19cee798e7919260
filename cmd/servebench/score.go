package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
	"github.com/servebench/servebench/servebench/stats"
)

func init() {
	register("score", "score TRACE EVENTS strictly, or re-score a run directory (--run DIR)", runScore)
}

// scoreFlags holds the score command's flags.
type scoreFlags struct {
	runDir, format, percentile          string
	requests                            string
	confidence                          float64
	ttftSLO, tpotSLO, e2eSLO            time.Duration
	ttftFromScheduled                   bool
	lagTolerance                        time.Duration
	fluidityFirstToken, fluidityCadence time.Duration
	lagToleranceSet                     bool
}

func (f *scoreFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.runDir, "run", "", "re-score the run directory DIR (schedule.json, outcomes.jsonl) instead of TRACE EVENTS")
	fs.StringVar(&f.requests, "requests", "", "with --run: write the per-request entries as JSON lines to FILE ('none' drops them); the report points to it. Without it the report leaves them out (the HTML report's charts read them from a scratch file)")
	fs.StringVar(&f.format, "format", "text", "report on stdout: text (the full text report, as run --report full prints it), json or html")
	fs.StringVar(&f.percentile, "percentile", "", "percentile method: nearest-rank (default) or linear")
	fs.Float64Var(&f.confidence, "confidence", 0, "confidence of the one-sided Wilson lower bound (default 0.95)")
	fs.DurationVar(&f.ttftSLO, "ttft-slo", 0, "TTFT objective, e.g. 300ms (0: the input's own)")
	fs.DurationVar(&f.tpotSLO, "tpot-slo", 0, "TPOT objective (0: the input's own)")
	fs.DurationVar(&f.e2eSLO, "e2e-slo", 0, "end-to-end objective (0: the input's own)")
	fs.BoolVar(&f.ttftFromScheduled, "ttft-from-scheduled", false, "judge TTFT from the scheduled time instead of the send time")
	fs.DurationVar(&f.lagTolerance, "schedule-lag-tolerance", 0, "schedule lag beyond which the load counts as not delivered (default: the input's own, else 20ms)")
	fs.DurationVar(&f.fluidityFirstToken, "fluidity-first-token", 0, "fluidity: first-token deadline after send (with --fluidity-cadence)")
	fs.DurationVar(&f.fluidityCadence, "fluidity-cadence", 0, "fluidity: cadence of the later token deadlines")
}

// options turns the flags into score.Options.
func (f *scoreFlags) options() (score.Options, error) {
	opts := score.Options{
		SLO:              report.SLO{TTFT: f.ttftSLO, TPOT: f.tpotSLO, E2E: f.e2eSLO, TTFTFromScheduled: f.ttftFromScheduled},
		Confidence:       f.confidence,
		PercentileMethod: stats.PercentileMethod(f.percentile),
	}
	if f.format != "json" && f.format != "text" && f.format != "html" {
		return opts, fmt.Errorf("--format %q: want json, text or html", f.format)
	}
	if f.confidence != 0 && !(f.confidence > 0 && f.confidence < 1) {
		return opts, fmt.Errorf("--confidence %v: want a value in (0, 1)", f.confidence)
	}
	if !stats.PercentileMethod(f.percentile).Valid() {
		return opts, fmt.Errorf("--percentile %q: want nearest-rank or linear", f.percentile)
	}
	if f.ttftSLO < 0 || f.tpotSLO < 0 || f.e2eSLO < 0 {
		return opts, errors.New("SLO flags must not be negative")
	}
	if f.lagToleranceSet {
		if f.lagTolerance < 0 {
			return opts, fmt.Errorf("--schedule-lag-tolerance %v: must not be negative", f.lagTolerance)
		}
		ms := msOf(f.lagTolerance)
		opts.LagToleranceMS = &ms
	}
	if (f.fluidityFirstToken > 0) != (f.fluidityCadence > 0) || f.fluidityFirstToken < 0 || f.fluidityCadence < 0 {
		return opts, errors.New("--fluidity-first-token and --fluidity-cadence go together, both positive")
	}
	if f.fluidityFirstToken > 0 {
		opts.Fluidity = &score.FluidityRule{FirstTokenDeadline: f.fluidityFirstToken, Cadence: f.fluidityCadence}
	}
	return opts, nil
}

// runScore is the score command. Exit codes: 0 the input and the schedule
// are valid; 2 the accounting is complete but the load was not delivered (a
// request unsent or sent later than the lag tolerance); 1 malformed or
// incomplete input, or bad usage. The report goes to stdout for 0 and 2;
// errors go to stderr naming the file, line and field. Nothing is written
// to disk.
func runScore(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servebench score TRACE EVENTS [flags]")
		fmt.Fprintln(stderr, "       servebench score --run DIR [flags]")
		fs.PrintDefaults()
	}
	var f scoreFlags
	f.register(fs)
	positional, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 1
	}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "schedule-lag-tolerance" {
			f.lagToleranceSet = true
		}
	})
	opts, err := f.options()
	if err != nil {
		fmt.Fprintf(stderr, "servebench score: %v\n", err)
		return 1
	}

	var rep *report.Report
	switch {
	case f.runDir != "" && len(positional) == 0:
		var done func()
		rep, done, err = scoreRunDirFlags(f, opts)
		defer done()
	case f.runDir == "" && len(positional) == 2:
		rep, err = scoreTraceFiles(positional[0], positional[1], opts)
	default:
		fs.Usage()
		return 1
	}
	if err != nil {
		var u *score.UndefinedObjectiveError
		if errors.As(err, &u) {
			err = fmt.Errorf("--%s-slo: %w", u.Objective, err)
		}
		fmt.Fprintf(stderr, "servebench score: %v\n", err)
		return 1
	}
	if err := printReport(stdout, rep, f.format); err != nil {
		fmt.Fprintf(stderr, "servebench score: %v\n", err)
		return 1
	}
	if err := rep.LoadDelivered(); err != nil {
		fmt.Fprintln(stderr, "servebench score: load not delivered: the input is not evidence for its offered rate")
		for _, why := range rep.InvalidReasons {
			fmt.Fprintf(stderr, "  - %s\n", why)
		}
		return 2
	}
	return 0
}

// scoreTraceFiles reads and scores the normalized format.
func scoreTraceFiles(tracePath, eventsPath string, opts score.Options) (*report.Report, error) {
	trace, err := os.ReadFile(tracePath)
	if err != nil {
		return nil, err
	}
	events, err := os.ReadFile(eventsPath)
	if err != nil {
		return nil, err
	}
	return score.Trace(tracePath, trace, eventsPath, events, opts)
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, which it returns in order. "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
