package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/servebench/servebench/servebench"
)

func init() {
	register("sweep", "run a workload at several offered rates and select the SLO capacity", runSweep)
}

// runSweep is the sweep command: the run command's flags, a list of rates
// instead of one, and a capacity rule. It exits 0 when a tested rate
// passed, 4 when none did, 1 on bad input.
func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	rates := fs.String("rates", "", "comma-separated offered rates in requests/s, lowest first (required)")
	alpha := fs.Float64("min-attainment", 0.95, "attainment a rate needs to pass")
	wilson := fs.Bool("wilson", false, "judge the one-sided Wilson lower bound of attainment instead of the observed value")
	confidence := fs.Float64("confidence", 0.95, "confidence of the Wilson bound")
	backlog := fs.Bool("no-backlog-growth", true, "fail a rate whose outstanding work grew over its window")
	repeat := fs.Int("repeat", 1, "runs at each rate, each with the next seed; a rate passes only when all its runs pass")
	descending := fs.Bool("descending", false, "test the highest rate first (shows hysteresis an upward sweep hides)")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	points, err := parseRates(*rates)
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: --rates: %v\n", err)
		return 1
	}
	if !servebench.Process(f.arrival).Sampled() {
		fmt.Fprintf(stderr, "servebench sweep: --arrival %s has no offered rate to sweep\n", f.arrival)
		return 1
	}
	f.rate = points[0]
	cfg, err := f.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	rule := servebench.CapacityRule{MinAttainment: *alpha, UseWilsonLower: *wilson, Confidence: *confidence, RequireNoBacklogGrowth: *backlog}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sweep, err := servebench.RunSweep(ctx, cfg, servebench.SweepPlan{Rates: points, Repeat: *repeat, Descending: *descending, Rule: rule})
	if sweep != nil {
		printSweep(stdout, sweep)
		fmt.Fprintf(stderr, "run directories: %s/rate-*\n", cfg.OutputDir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	if sweep.Selection.RPS == nil {
		return 4
	}
	return 0
}
