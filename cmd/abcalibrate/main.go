// Command abcalibrate measures how servebench's A/B comparison behaves
// against the in-process simulated engine: the false-alarm rate of A/A
// comparisons, the power to see a 25 % slower decode step, and how often a
// 2 % slowdown is called a regression against a 5 % tolerance. Every
// repetition is a full three-round A/B qualification (alternating order,
// every run kept); each rate is printed with its Wilson interval, the
// repetition counts, the engine's time scale, the offered rate and the time
// the calibration took. It is a benchmark command, not part of CI.
//
// Usage:
//
//	go run ./cmd/abcalibrate -reps 30 -out calibration.jsonl
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// settings are the calibration's parameters.
type settings struct {
	reps, first, rounds, count, promptTokens, outputTokens, warmup int
	lagTolerance                                                   time.Duration
	rate, timeScale, confidence                                    float64
	experiments, out                                               string
	baseStep                                                       time.Duration
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("abcalibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s settings
	fs.IntVar(&s.reps, "reps", 30, "repetitions of each experiment")
	fs.IntVar(&s.first, "first", 1, "number of the first repetition; repetition n seeds its arrivals and engines from n, so batches with different -first are independent")
	fs.IntVar(&s.rounds, "rounds", 3, "rounds per A/B qualification")
	fs.IntVar(&s.count, "count", 150, "requests per run")
	fs.IntVar(&s.promptTokens, "prompt-tokens", 256, "prompt length of every row")
	fs.IntVar(&s.outputTokens, "output-tokens", 64, "forced output length of every row")
	fs.IntVar(&s.warmup, "warmup", 5, "warmup requests before each run's window (excluded from the cohort)")
	fs.DurationVar(&s.lagTolerance, "schedule-lag-tolerance", 50*time.Millisecond, "schedule lag beyond which a run is not valid load")
	fs.Float64Var(&s.rate, "rate", 20, "offered rate in requests per second (Poisson)")
	fs.Float64Var(&s.timeScale, "time-scale", 0.25, "simulated engine time scale (model time × scale = wall time)")
	fs.Float64Var(&s.confidence, "confidence", 0.95, "family-wise confidence of each comparison")
	fs.DurationVar(&s.baseStep, "step-base", 8*time.Millisecond, "the baseline engine's decode step (model time)")
	fs.StringVar(&s.experiments, "experiments", "aa,power,tolerance", "experiments to run, comma separated")
	fs.StringVar(&s.out, "out", "", "JSONL file receiving every repetition's comparison (optional)")
	if err := fs.Parse(args); err != nil {
		return 1
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
	fmt.Fprintf(stdout, "abcalibrate: %d repetitions per experiment, %d rounds × %d requests per side, Poisson %.4g rps, simulated engine time scale %g, step base %v, %d-token prompts, %d forced output tokens, %d warmup requests, schedule-lag tolerance %v, confidence %g\n",
		s.reps, s.rounds, s.count, s.rate, s.timeScale, s.baseStep, s.promptTokens, s.outputTokens, s.warmup, s.lagTolerance, s.confidence)
	total := time.Now()
	for _, name := range strings.Split(s.experiments, ",") {
		e, ok := experiments[name]
		if !ok {
			fmt.Fprintf(stderr, "abcalibrate: unknown experiment %q (want aa, power or tolerance)\n", name)
			return 1
		}
		start := time.Now()
		tally, err := e.run(context.Background(), s, w, out, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "abcalibrate: %s: %v\n", name, err)
			return 1
		}
		tally.print(stdout, e, time.Since(start))
	}
	fmt.Fprintf(stdout, "total time %v\n", time.Since(total).Round(time.Second))
	return 0
}

// workload is the fixed-shape workload every run replays.
func workload(s settings) (*servebench.Workload, error) {
	var buf bytes.Buffer
	g := fixtures.FixedShape{Seed: 1, Requests: s.count, PromptTokens: s.promptTokens, MaxTokens: s.outputTokens}
	if _, err := g.Generate(&buf); err != nil {
		return nil, err
	}
	return servebench.ParseWorkload("fixed-shape.jsonl", buf.Bytes())
}

// experiment is one calibration question.
type experiment struct {
	name string
	// slowdown multiplies the candidate's decode step.
	slowdown float64
	// question says what is counted.
	question string
	// hit says whether a repetition counts.
	hit func(c *compare.Comparison) bool
	// want states the target.
	want string
}

var experiments = map[string]experiment{
	"aa": {name: "false alarms (A/A)", slowdown: 1, question: "any regression",
		hit: func(c *compare.Comparison) bool { return c.Verdict == compare.Regression }, want: "at most 1 − confidence"},
	"power": {name: "power (decode step 25 % slower)", slowdown: 1.25, question: "a tpot regression (tpot_p50 or tpot_p99)",
		hit: tpotRegression, want: "at least 0.95"},
	"tolerance": {name: "2 % slowdown against a 5 % tolerance", slowdown: 1.02, question: "any regression",
		hit: func(c *compare.Comparison) bool { return c.Verdict == compare.Regression }, want: "at most 1 − confidence"},
}

func tpotRegression(c *compare.Comparison) bool {
	for _, m := range c.Regressed() {
		if strings.HasPrefix(m.Name, "tpot_") {
			return true
		}
	}
	return false
}

// tally counts one experiment's repetitions: over all of them, and over
// those whose every run was valid load (the only ones servebench itself
// would accept as evidence; the others exit 2).
type tally struct {
	reps, valid, hits, validHits int
	verdicts                     map[compare.Verdict]int
}

func (e experiment) run(ctx context.Context, s settings, w *servebench.Workload, out io.Writer, log io.Writer) (tally, error) {
	t := tally{verdicts: map[compare.Verdict]int{}}
	for rep := s.first; rep < s.first+s.reps; rep++ {
		c, err := repetition(ctx, s, w, e.slowdown, rep)
		if err != nil {
			return t, fmt.Errorf("repetition %d: %w", rep, err)
		}
		t.reps++
		t.verdicts[c.Verdict]++
		hit := e.hit(c)
		if hit {
			t.hits++
		}
		if c.Valid {
			t.valid++
			if hit {
				t.validHits++
			}
		}
		line, _ := json.Marshal(map[string]any{"experiment": e.name, "repetition": rep, "comparison": c})
		fmt.Fprintf(out, "%s\n", line)
		fmt.Fprintf(log, "%s #%d: %s (counted: %v, valid load: %v)\n", e.name, rep, c.Verdict, hit, c.Valid)
	}
	return t, nil
}

func (t tally) print(w io.Writer, e experiment, took time.Duration) {
	rate := func(hits, n int) string {
		if n == 0 {
			return "no repetitions"
		}
		lo, hi := compare.WilsonInterval(hits, n, 0.95)
		return fmt.Sprintf("%d of %d = %.3f, 95%% Wilson interval [%.3f, %.3f]", hits, n, float64(hits)/float64(n), lo, hi)
	}
	fmt.Fprintf(w, "%s: %s (want %s)\n  all repetitions: %s\n  valid-load repetitions only: %s\n  verdicts %v; took %v\n",
		e.name, e.question, e.want, rate(t.hits, t.reps), rate(t.validHits, t.valid), t.verdicts, took.Round(time.Second))
}

// repetition runs one full A/B qualification; every run gets a fresh
// engine with its own seed, so the two sides of an A/A comparison are
// identical configurations with different seeds.
func repetition(ctx context.Context, s settings, w *servebench.Workload, slowdown float64, rep int) (*compare.Comparison, error) {
	dir, err := os.MkdirTemp("", "abcalibrate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	arrival, err := servebench.NewArrival(servebench.ArrivalSpec{Process: "poisson", RateRPS: s.rate, Seed: int64(rep) * 1000})
	if err != nil {
		return nil, err
	}
	side := func() servebench.RunConfig {
		return servebench.RunConfig{
			Workload: w, Arrival: arrival, Count: s.count, Warmup: s.warmup, LagTolerance: s.lagTolerance,
			Client: &servebench.Client{Endpoint: servebench.EndpointCompletions, Stream: true, Model: "simengine-tiny", TotalTimeout: time.Minute},
		}
	}
	cfg := compare.ABConfig{
		Baseline: side(), Candidate: side(), Rounds: s.rounds, OutputDir: dir,
		Options: compare.Options{Confidence: s.confidence},
		BeforeRun: func(sd compare.Side, round int, rc *servebench.RunConfig) (func(), error) {
			ec := simengine.DefaultConfig()
			ec.TimeScale = s.timeScale
			ec.StepBase = s.baseStep
			ec.Seed = uint64(rep*100 + round*2)
			if sd == compare.Candidate {
				ec.StepBase = time.Duration(float64(s.baseStep) * slowdown)
				ec.Seed++
			}
			srv, err := simengine.Start(ctx, ec)
			if err != nil {
				return nil, err
			}
			client := *rc.Client
			client.BaseURL = srv.BaseURL()
			rc.Client = &client
			return func() { srv.Close() }, nil
		},
	}
	res, err := compare.RunAB(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return res.Comparison, nil
}
