package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/servebench/servebench/fixtures/samples"
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/outputdir"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
	"github.com/servebench/servebench/sweepreport"
)

func init() {
	register("demo", "sweep offered rates of a bundled workload on the embedded simulated engine", runDemo)
}

// runDemo starts the simulated engine in-process, sweeps a few offered rates
// of a bundled workload, and prints each point, the knee and the report of
// the highest passing point. It needs no GPU and no Docker.
func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rates := fs.String("rates", "", "offered rates to sweep (requests/s, Poisson); default: 0.3 to 1.5 times the engine's computed capacity")
	window := fs.Duration("duration", 5*time.Second, "arrival window per rate")
	output := fs.String("output", "", "directory for the run directories (default: a new temporary directory)")
	ttft := fs.Duration("ttft-slo", 250*time.Millisecond, "TTFT objective")
	tpot := fs.Duration("tpot-slo", 10*time.Millisecond, "TPOT objective")
	alpha := fs.Float64("attainment", 0.95, "required attainment at a passing rate")
	timeScale := fs.Float64("time-scale", 0.25, "the simulated engine's time scale (0.25: steps four times faster than the model's)")
	form := fs.String("report", reportSummary, "the knee's report: summary (one screen) or full (every section, as in its report.txt)")
	overwrite := fs.Bool("overwrite", false, "remove what servebench wrote in --output before (what its manifest.json names) instead of refusing a directory that is not empty")
	if code, done := parseCommandLine(fs, args, stderr); done {
		return code
	}
	err := checkDemoFlags(*window, *ttft, *tpot, *alpha, *timeScale, *form)
	var out *outputdir.Dir
	if err == nil {
		out, err = prepareOutput(*output, *overwrite)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", err)
		return 1
	}
	defer func() { finishOutput(out, "demo", stderr) }()
	ctx, stop := interruptContext(stderr)
	defer stop()

	w, err := samples.Workload(demoWorkloadName)
	if err != nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", err)
		return 1
	}
	engineCfg := simengine.DefaultConfig()
	engineCfg.TimeScale = *timeScale
	engineCfg.MaxModelLen = 8192 // the longest retrieval prompts exceed 4096 tokens
	computed := demoCapacity(engineCfg, w)
	points, err := demoRates(*rates, computed)
	if err != nil {
		fmt.Fprintf(stderr, "servebench demo: --rates: %v\n", err)
		return 1
	}
	engine, err := simengine.Start(ctx, engineCfg)
	if err != nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", err)
		return 1
	}
	defer engine.Close()
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: schedule.ProcessPoisson, RateRPS: points[0], Seed: 1})
	cfg := servebench.RunConfig{
		Workload: w, Arrival: arrival, Duration: *window, Warmup: 4, OutputDir: *output,
		Client:        &openai.Client{BaseURL: engine.BaseURL(), Model: engineCfg.Model, Endpoint: record.EndpointCompletions, TotalTimeout: 30 * time.Second, IdleTimeout: 10 * time.Second},
		Score:         score.Options{SLO: report.SLO{TTFT: *ttft, TPOT: *tpot}},
		EngineControl: servebench.EngineControl{Engine: &report.EngineInfo{Kind: "simengine", Model: engineCfg.Model, Version: "in-process"}},
		EngineMetrics: servebench.EngineMetricsConfig{URL: engine.BaseURL() + "/metrics"},
	}
	if cfg.OutputDir == "" {
		if cfg.OutputDir, err = os.MkdirTemp("", "servebench-demo-"); err != nil {
			fmt.Fprintf(stderr, "servebench demo: %v\n", err)
			return 1
		}
		out, _ = prepareOutput(cfg.OutputDir, false) // a new, empty directory
	}
	fmt.Fprintf(stdout, "servebench demo: the simulated engine at %s (continuous batching, time scale %g: %v step + %v per running sequence + %v per prompt token; computed capacity for this workload about %.1f req/s)\n",
		engine.BaseURL(), engineCfg.TimeScale, scaled(engineCfg.StepBase, engineCfg.TimeScale), scaled(engineCfg.DecodePerSequence, engineCfg.TimeScale),
		scaled(engineCfg.PrefillPerToken, engineCfg.TimeScale), computed)
	fmt.Fprintf(stdout, "workload %s (%d rows, sha256 %s…), Poisson arrivals, %v window per rate\n",
		w.Name, len(w.Requests), w.SHA256[:12], *window)
	fmt.Fprintf(stdout, "SLO: TTFT <= %v and TPOT <= %v; a rate passes at attainment >= %.2f with the load delivered and no backlog growth\n\n", *ttft, *tpot, *alpha)

	rule := capacity.Rule{MinAttainment: *alpha, RequireNoBacklogGrowth: true}
	sweep, err := capacity.RunSweep(ctx, cfg, capacity.Plan{Rates: points, Rule: rule})
	if sweep == nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", err)
		return 1
	}
	printSweep(stdout, sweep)
	if note := demoStarvationNote(sweep); note != "" {
		fmt.Fprintf(stdout, "\n%s\n", note)
	}
	if werr := sweepreport.FromSweep(sweep, cfg.OutputDir).WriteFiles(cfg.OutputDir); werr != nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", werr)
	}
	if code, interrupted := interruptExit(ctx, "servebench demo", stderr); interrupted {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench demo: %v\n", err)
		return 1
	}
	printKneeReport(stdout, sweep, *form)
	fmt.Fprintf(stdout, "\nsweep.json, sweep.html and the run directories (schedule.json, outcomes.jsonl, report.txt, report.json and report.html per rate): %s\n", cfg.OutputDir)
	return 0
}

// printKneeReport prints the report of the knee's run, when a rate
// passed: its summary, or with --report full every section.
func printKneeReport(w io.Writer, sweep *capacity.Sweep, form string) {
	sel := sweep.Selection
	if sel.RPS == nil {
		return
	}
	for _, p := range sweep.Points {
		if p.OfferedRPS != *sel.RPS {
			continue
		}
		fmt.Fprintf(w, "\nreport at %g req/s:\n", p.OfferedRPS)
		if form == reportFull {
			_ = render.Text(w, p.Report)
			continue
		}
		_ = render.Summary(w, p.Report, render.SummaryNotes{Full: []string{fullReportFiles(p.RunDir)}})
	}
}

// printSweep writes one line per tested rate, then the knee.
func printSweep(w io.Writer, s *capacity.Sweep) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "offered rps\tqualified/offered\tattainment\tWilson 95%\tp50 TTFT ms\tp99 TTFT ms\tp99 TPOT ms\tmax lag ms\tbacklog mid→end\tverdict\t")
	var failures []string
	for i, p := range s.Points {
		r := p.Report
		v := s.Selection.Verdicts[i]
		verdict := "pass"
		if !v.Pass {
			verdict = strings.ToUpper(v.Verdict)
			failures = append(failures, fmt.Sprintf("%g req/s %s: %s", p.OfferedRPS, v.Verdict, strings.Join(v.Reasons, "; ")))
		}
		backlog := numfmt.Undefined
		if r.Backlog != nil {
			backlog = fmt.Sprintf("%d→%d", r.Backlog.AtWindowMid, r.Backlog.AtWindowEnd)
		}
		fmt.Fprintf(tw, "%g\t%d/%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.OfferedRPS, r.Qualified, r.Offered,
			numfmt.OptFixed(r.Attainment, 3), numfmt.OptFixed(r.WilsonLower, 3),
			numfmt.OptFixed(r.Percentiles[record.MetricTTFT].P50, 1), numfmt.OptFixed(r.Percentiles[record.MetricTTFT].P99, 1),
			numfmt.OptFixed(r.Percentiles[record.MetricTPOT].P99, 1), numfmt.OptFixed(r.MaxScheduleLagMS, 1), backlog, verdict)
	}
	_ = tw.Flush()
	for _, f := range failures {
		fmt.Fprintf(w, "  %s\n", f)
	}
	printSweepEnergy(w, s)
	fmt.Fprintln(w)
	for _, l := range kneeLines(s.Selection) {
		fmt.Fprintln(w, l)
	}
}

// kneeLines say which tested rate is the knee and which next rate does not
// pass, or why there is none, then the selection's notes.
func kneeLines(sel capacity.Selection) []string {
	var knee string
	switch {
	case sel.RPS != nil:
		knee = fmt.Sprintf("knee: %g req/s is the %s", *sel.RPS, sel.Label)
		if sel.FailingNeighborRPS != nil {
			knee += fmt.Sprintf("; %g req/s does not pass", *sel.FailingNeighborRPS)
		}
	case sel.AllGeneratorBound():
		knee = "knee: not measured: the client was the limit at every tested rate (generator_bound)"
	default:
		knee = "knee: no tested rate passed"
	}
	lines := []string{knee}
	for _, n := range sel.Notes {
		lines = append(lines, fmt.Sprintf("  (%s)", n))
	}
	return lines
}

// demoStarvationNote says when the client, sharing this process's CPUs
// with the embedded engine, could not keep its schedule at some rate: the
// knee is then partly a fact about this machine, not the engine. Empty when
// every rate's load was delivered.
func demoStarvationNote(s *capacity.Sweep) string {
	var late []string
	worst := 0.0
	for i, v := range s.Selection.Verdicts {
		if v.Valid {
			continue
		}
		late = append(late, numfmt.Shortest(s.Points[i].OfferedRPS))
		if v.MaxScheduleLagMS != nil {
			worst = max(worst, *v.MaxScheduleLagMS)
		}
	}
	if len(late) == 0 {
		return ""
	}
	return fmt.Sprintf("note: the embedded engine shares this process's %d CPUs with the client, and at %s req/s the client could not send on schedule "+
		"(max schedule lag %s ms): those rates measure this machine, not the engine. On a quiet machine or with more cores they may pass; "+
		"to measure the engine alone, run it as its own process (go run ./cmd/simengine) and sweep it (servebench sweep).",
		runtime.GOMAXPROCS(0), strings.Join(late, ", "), numfmt.Fixed(worst, 1))
}

// scaled is a model duration in wall-clock time.
func scaled(d time.Duration, scale float64) time.Duration {
	return time.Duration(float64(d) * scale)
}

// demoRates parses --rates, or spreads five rates from 0.3 to 1.5 times the
// computed capacity, so that the knee falls inside the sweep.
func demoRates(s string, computed float64) ([]float64, error) {
	if s != "" {
		return parseRates(s)
	}
	var out []float64
	for _, f := range []float64{0.3, 0.6, 0.9, 1.2, 1.5} {
		out = append(out, math.Round(f*computed*10)/10)
	}
	return out, nil
}

// parseRates reads a comma-separated list of positive finite rates.
func parseRates(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("%q is not a positive rate", f)
		}
		out = append(out, v)
	}
	return out, nil
}
