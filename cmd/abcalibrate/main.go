// Command abcalibrate measures how servebench's A/B comparison behaves
// against the in-process simulated engine: the false-alarm rate of A/A
// comparisons and the coverage of every interval kind, the power to detect
// a 10 % TPOT slowdown, a 3-point attainment drop and a 2-point error-rate
// rise, and how often the "about N more rounds" advice decides. Every
// repetition is a full A/B qualification (ABBA order, a fresh engine per
// run, every run kept until the repetition ends); each rate is printed
// with its Wilson interval, the repetition counts, the engine's time
// scale, the offered rate and the time the calibration took. It is a
// benchmark command, not part of CI.
//
// Usage:
//
//	go run ./cmd/abcalibrate -reps 60 -out calibration.jsonl
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/schedule"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// settings are the calibration's parameters.
type settings struct {
	reps, first, rounds, maxRounds, count, promptTokens, outputTokens, warmup, maxExtra int
	lagTolerance                                                                        time.Duration
	rate, timeScale, confidence, slowdown, runNoise                                     float64
	experiments, out                                                                    string
	baseStep                                                                            time.Duration
	tolerances                                                                          []compare.Tolerance
	decide                                                                              []string
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("abcalibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s settings
	fs.IntVar(&s.reps, "reps", 30, "repetitions of each experiment")
	fs.IntVar(&s.first, "first", 1, "number of the first repetition; repetition n seeds its arrivals and engines from n, so batches with different -first are independent")
	roundsText := fs.String("rounds", "auto", "rounds per A/B qualification: auto (until decided, as ab's default) or a fixed number")
	fs.IntVar(&s.maxRounds, "max-rounds", ab.DefaultMaxRounds, "with -rounds auto: the most rounds a side")
	fs.IntVar(&s.count, "count", 150, "requests per run")
	fs.IntVar(&s.promptTokens, "prompt-tokens", 256, "prompt length of every row")
	fs.IntVar(&s.outputTokens, "output-tokens", 64, "forced output length of every row")
	fs.IntVar(&s.warmup, "warmup", 5, "warmup requests before each run's window (excluded from the cohort)")
	fs.IntVar(&s.maxExtra, "max-extra-rounds", 8, "morerounds: the most extra rounds a repetition runs to check the advice")
	fs.DurationVar(&s.lagTolerance, "schedule-lag-tolerance", 50*time.Millisecond, "schedule lag beyond which a run is not valid load")
	fs.Float64Var(&s.rate, "rate", 20, "offered rate in requests per second (Poisson)")
	fs.Float64Var(&s.timeScale, "time-scale", 0.25, "simulated engine time scale (model time × scale = wall time)")
	fs.Float64Var(&s.confidence, "confidence", 0.95, "family-wise confidence of each comparison")
	fs.DurationVar(&s.baseStep, "step-base", 8*time.Millisecond, "the baseline engine's decode step (model time)")
	fs.Float64Var(&s.slowdown, "slowdown", 0, "the candidate's decode-step factor for the experiments that slow it (e.g. 1.07 runs morerounds at 7 % slower; 0 keeps each experiment's own)")
	fs.Float64Var(&s.runNoise, "run-noise", 0, "run-to-run noise: every run's decode step is multiplied by exp(σ·Z), Z standard normal seeded by the run's position, so σ 0.035 is about 3.5 % per run (0: none beyond the machine's own)")
	fs.StringVar(&s.experiments, "experiments", "aa,tpot10,attainment3,errors2", "experiments to run, comma separated: "+experimentNames())
	tols := fs.String("tolerances", "", "statistics to compare, NAME=VALUE comma separated (default: compare's defaults, deciding by compare.DefaultDecide)")
	decide := fs.String("decide", "", "deciding statistics, comma separated (default: compare's)")
	fs.StringVar(&s.out, "out", "", "JSONL file receiving every repetition's comparison (optional)")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if *roundsText != "auto" {
		n, err := strconv.Atoi(*roundsText)
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "abcalibrate: -rounds: want auto or a whole number of at least 1, got %q\n", *roundsText)
			return 1
		}
		s.rounds = n
	}
	var err error
	if s.tolerances, err = parseTolerances(*tols); err != nil {
		fmt.Fprintf(stderr, "abcalibrate: -tolerances: %v\n", err)
		return 1
	}
	if *decide != "" {
		if s.decide, err = compare.ParseDecide(*decide); err != nil {
			fmt.Fprintf(stderr, "abcalibrate: -decide: %v\n", err)
			return 1
		}
	}
	w, err := workload(s)
	if err != nil {
		fmt.Fprintf(stderr, "abcalibrate: %v\n", err)
		return 1
	}
	var out io.Writer = io.Discard
	if s.out != "" {
		f, err := os.Create(s.out)
		if err != nil {
			fmt.Fprintf(stderr, "abcalibrate: %v\n", err)
			return 1
		}
		defer f.Close()
		out = f
	}
	fmt.Fprintf(stdout, "abcalibrate: %d repetitions per experiment, rounds %s (at most %d with auto) × %d requests per side, Poisson %.4g rps, simulated engine time scale %g, step base %v, %d-token prompts, %d forced output tokens, %d warmup requests, schedule-lag tolerance %v, confidence %g, run-to-run noise σ %g, %d compared statistics\n",
		s.reps, *roundsText, s.maxRounds, s.count, s.rate, s.timeScale, s.baseStep, s.promptTokens, s.outputTokens, s.warmup, s.lagTolerance, s.confidence, s.runNoise, max(len(s.tolerances), len(compare.DefaultTolerances())))
	total := time.Now()
	for _, name := range strings.Split(s.experiments, ",") {
		e, ok := experiments[name]
		if !ok {
			fmt.Fprintf(stderr, "abcalibrate: unknown experiment %q (want %s)\n", name, experimentNames())
			return 1
		}
		if e.moreRounds && s.rounds == 0 {
			fmt.Fprintf(stderr, "abcalibrate: %s checks the advice of a fixed number of rounds: give -rounds N\n", name)
			return 1
		}
		e = e.withSlowdown(s.slowdown)
		start := time.Now()
		t, err := e.run(context.Background(), s, w, out, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "abcalibrate: %s: %v\n", name, err)
			return 1
		}
		t.print(stdout, e, time.Since(start))
	}
	fmt.Fprintf(stdout, "total time %v\n", time.Since(total).Round(time.Second))
	return 0
}

// parseTolerances reads NAME=VALUE,…; empty gives nil, compare's
// defaults.
func parseTolerances(list string) ([]compare.Tolerance, error) {
	if list == "" {
		return nil, nil
	}
	var out []compare.Tolerance
	for _, item := range strings.Split(list, ",") {
		t, err := compare.ParseTolerance(item)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// workload is the fixed-shape workload every run replays.
func workload(s settings) (*schedule.Workload, error) {
	var buf bytes.Buffer
	g := fixtures.FixedShape{Seed: 1, Requests: s.count, PromptTokens: s.promptTokens, MaxTokens: s.outputTokens}
	if _, err := g.Generate(&buf); err != nil {
		return nil, err
	}
	return schedule.ParseWorkload("fixed-shape.jsonl", buf.Bytes())
}
