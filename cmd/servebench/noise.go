package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

func init() {
	register("noise", "run identical rounds against one engine and measure each statistic's run-to-run noise and the smallest tolerance the gate decides", runNoise)
}

// noiseRefusedFlags are the run flags noise does not take.
var noiseRefusedFlags = []refusedFlag{
	{"require-attainment", "noise measures, it does not judge", false},
	{"threshold", "noise measures, it does not judge", false},
	{"shard", "each round runs whole, in turn", false},
	{"start-at", "each round runs whole, in turn", false},
	{"run-id", "each round gets its own ID", false},
	{"format", "noise writes noise.json and prints its table", false},
}

// noiseFlags are the flags noise adds to the run flags.
type noiseFlags struct {
	rounds, maxRounds int
	confidence        float64
	decide            string
}

// runNoise is the noise command.
func runNoise(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench noise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf runFlags
	rf.registerWithout(fs, noiseRefusedFlags)
	var nf noiseFlags
	fs.IntVar(&nf.rounds, "rounds", 6, "identical rounds against the engine (at least 2), round K with seed + K − 1")
	fs.IntVar(&nf.maxRounds, "max-rounds", ab.DefaultMaxRounds, "the gate's --max-rounds the smallest tolerances are computed for")
	fs.Float64Var(&nf.confidence, "confidence", 0.95, "the gate's family-wise confidence, and the level of the noise's upper bound")
	fs.StringVar(&nf.decide, "decide", "", "the gate's deciding statistics, whose number sets the family (default: compare's default deciding set)")
	if code, done := parseCommandLine(fs, args, stderr, noiseRefusedFlags...); done {
		return code
	}
	rf.given = setFlags(fs)
	opts, err := nf.options()
	if err != nil {
		fmt.Fprintf(stderr, "servebench noise: %v\n", err)
		return 1
	}
	applyABDefaults(&rf, "servebench noise", stderr)
	cfg, err := rf.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench noise: %v\n", err)
		return 1
	}
	return withInterrupts("servebench noise", stderr, func(ctx context.Context) int {
		return nf.execute(ctx, &rf, cfg, opts, stdout, stderr)
	})
}

// options checks the flags and returns what the noise floor assumes.
func (nf *noiseFlags) options() (compare.NoiseOptions, error) {
	opts := compare.NoiseOptions{MaxRounds: nf.maxRounds, Confidence: nf.confidence}
	switch {
	case nf.rounds < 2:
		return opts, fmt.Errorf("--rounds: want at least 2 (the run-to-run noise needs two rounds), got %d", nf.rounds)
	case nf.maxRounds < ab.FirstLookRounds:
		return opts, fmt.Errorf("--max-rounds: want at least %d, got %d", ab.FirstLookRounds, nf.maxRounds)
	case !(nf.confidence > 0 && nf.confidence < 1):
		return opts, fmt.Errorf("--confidence: want a value in (0, 1), got %v", nf.confidence)
	}
	if nf.decide != "" {
		d, err := compare.ParseDecide(nf.decide)
		if err != nil {
			return opts, fmt.Errorf("--decide: %w", err)
		}
		opts.Deciding = len(d)
	}
	return opts, nil
}

// execute checks the engine, runs the rounds, and writes and prints the
// noise floor.
func (nf *noiseFlags) execute(ctx context.Context, rf *runFlags, cfg servebench.RunConfig, opts compare.NoiseOptions, stdout, stderr io.Writer) int {
	defer rf.metricsListen.stop()
	defer rf.images.close()
	defer unloadAdapters(&cfg, stderr)
	if err := rf.beforeLoad(ctx, &cfg, stderr); err != nil {
		fmt.Fprintf(stderr, "servebench noise: %v\n", err)
		return 1
	}
	defer finishOutput(rf.out, "noise", stderr)
	var reports []*report.Report
	for k := 1; k <= nf.rounds; k++ {
		fmt.Fprintf(stderr, "round %d of %d (%s)\n", k, nf.rounds, cfg.Client.BaseURL)
		rep, err := noiseRound(ctx, cfg, k)
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "servebench noise: interrupted in round %d; the %d finished rounds are kept in %s, and no noise.json is written\n", k, len(reports), rf.output)
			return 1
		}
		if err != nil {
			fmt.Fprintf(stderr, "servebench noise: round %d: %v\n", k, err)
			return 1
		}
		if !rep.Valid {
			fmt.Fprintf(stderr, "servebench noise: round %d did not deliver its load (%v): its noise would be the generator's, not the engine's\n", k, rep.InvalidReasons)
			return 2
		}
		reports = append(reports, rep)
	}
	floor, err := compare.MeasureNoise(reports, opts)
	if err == nil {
		err = writeNoise(rf.output, floor)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench noise: %v\n", err)
		return 1
	}
	printNoise(stdout, floor)
	fmt.Fprintf(stderr, "noise floor: %s\n", filepath.Join(rf.output, compare.NoiseFile))
	return 0
}

// noiseRound runs round k: the configuration with seed + k − 1, in
// round-k under the output directory.
func noiseRound(ctx context.Context, cfg servebench.RunConfig, k int) (*report.Report, error) {
	run := cfg
	run.OutputDir = filepath.Join(cfg.OutputDir, "round-"+strconv.Itoa(k))
	run.RunID, run.Schedule = "", nil
	if run.Arrival != nil {
		if spec := run.Arrival.Spec(); spec.Process != schedule.ProcessReplay {
			spec.Seed += int64(k - 1)
			a, err := schedule.NewArrival(spec)
			if err != nil {
				return nil, err
			}
			run.Arrival = a
		}
	}
	res, err := servebench.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	return res.Report, nil
}

// writeNoise writes noise.json in dir.
func writeNoise(dir string, floor *compare.NoiseFloor) error {
	b, err := json.MarshalIndent(floor, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, compare.NoiseFile), append(b, '\n'), 0o644)
}

// printNoise prints the table, the --tolerance line and the YAML
// tolerances block.
func printNoise(w io.Writer, floor *compare.NoiseFloor) {
	fmt.Fprintf(w, "noise over %d identical rounds of %d requests; smallest tolerances that --rounds auto decides within %d rounds with 80 %% probability at this run size (upper bound at %g)\n",
		floor.Rounds, floor.RequestsPerRound, floor.MaxRounds, floor.Confidence)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "statistic\tnoise/round\tupper bound\tsmallest tolerance")
	var flags, yaml []string
	for _, s := range floor.Statistics {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, noisePercent(s.Noise), noisePercent(s.NoiseUpper), noisePercent(s.MinTolerance))
		flags = append(flags, fmt.Sprintf("--tolerance %s=%s", s.Name, noisePercent(s.MinTolerance)))
		yaml = append(yaml, fmt.Sprintf("    %s: %s", s.Name, noisePercent(s.MinTolerance)))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nfor servebench ab:\n  %s\n\nfor a contract's baseline section:\n  tolerances:\n%s\n", strings.Join(flags, " "), strings.Join(yaml, "\n"))
}

// noisePercent prints a fraction as a percentage (points for a
// proportion), the form --tolerance and YAML take.
func noisePercent(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e5)/1e3, 'f', -1, 64) + "%"
}
