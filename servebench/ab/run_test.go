package ab_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// engineCounter starts in-process simulated engines for StartEngine and
// counts the engines alive at once.
type engineCounter struct {
	mu                 sync.Mutex
	starts, live, peak int
}

func (e *engineCounter) start(ctx context.Context, side compare.Side, cfg *servebench.RunConfig) (func(), error) {
	ec := simengine.DefaultConfig()
	ec.TimeScale = 0.05
	srv, err := simengine.Start(ctx, ec)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.starts++
	e.live++
	e.peak = max(e.peak, e.live)
	e.mu.Unlock()
	client := *cfg.Client
	client.BaseURL = srv.BaseURL()
	cfg.Client = &client
	return func() {
		srv.Close()
		e.mu.Lock()
		e.live--
		e.mu.Unlock()
	}, nil
}

// abConfig is a small A/B qualification: three requests per run.
func abConfig(t *testing.T, rounds int) ab.Config {
	t.Helper()
	var buf bytes.Buffer
	if _, err := (fixtures.FixedShape{Seed: 1, Requests: 3, PromptTokens: 16, MaxTokens: 4}).Generate(&buf); err != nil {
		t.Fatal(err)
	}
	w, err := schedule.ParseWorkload("w.jsonl", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 20, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	side := servebench.RunConfig{Workload: w, Arrival: arrival, Count: 3, LagTolerance: 5 * time.Second,
		Client: &openai.Client{Endpoint: record.EndpointCompletions, Model: "simengine-tiny", TotalTimeout: time.Minute}}
	return ab.Config{Baseline: side, Candidate: side, Rounds: rounds, OutputDir: t.TempDir(),
		Options: compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.5}}}}
}

// By default every run starts its own engine and stops it when the run
// ends, so at most one engine is alive; with ReuseEngines each side's
// engine starts once and both stop at the end. compare.json says which.
func TestRunStartsFreshEnginesUnlessReused(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		var n engineCounter
		cfg := abConfig(t, 2)
		cfg.StartEngine, cfg.ReuseEngines = n.start, reuse
		res, err := ab.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("reuse %v: %v", reuse, err)
		}
		wantStarts, wantPeak, wantEngines := 4, 1, ab.EnginesFresh
		if reuse {
			wantStarts, wantPeak, wantEngines = 2, 2, ab.EnginesReusedStarted
		}
		if n.starts != wantStarts || n.peak != wantPeak || n.live != 0 || res.Comparison.Engines != wantEngines {
			t.Errorf("reuse %v: %d starts, peak %d alive, %d left alive, engines %q; want %d starts, peak %d, none left, %q",
				reuse, n.starts, n.peak, n.live, res.Comparison.Engines, wantStarts, wantPeak, wantEngines)
		}
	}
}

// An interruption before the last run keeps the finished runs on disk and
// writes no comparison from the unbalanced set.
func TestRunInterruptedWritesNoVerdict(t *testing.T) {
	var n engineCounter
	cfg := abConfig(t, 2)
	cfg.StartEngine = n.start
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.BeforeRun = func(side compare.Side, round int, _ *servebench.RunConfig) (func(), error) {
		if round == 2 {
			cancel()
		}
		return nil, nil
	}
	res, err := ab.Run(ctx, cfg)
	if !errors.Is(err, ab.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if res.Comparison != nil || len(res.Order) != 2 {
		t.Errorf("comparison %v, finished runs %v; want none and the two runs of round 1", res.Comparison, res.Order)
	}
	for _, dir := range []string{"baseline/round-1", "candidate/round-1"} {
		if _, err := os.Stat(filepath.Join(cfg.OutputDir, dir, record.ReportFile)); err != nil {
			t.Errorf("finished run %s not kept: %v", dir, err)
		}
	}
	if _, err := os.Stat(filepath.Join(cfg.OutputDir, compare.ComparisonFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("compare.json written from an unbalanced set (stat: %v)", err)
	}
	if n.live != 0 {
		t.Errorf("%d engines left alive", n.live)
	}
}

// TestRunLoadsAdaptersOncePerEngine: both sides and both rounds run
// against one engine, which loads sql once; with a fresh engine per run,
// each run loads it into its own.
func TestRunLoadsAdaptersOncePerEngine(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	cfg := abConfig(t, 2)
	for _, side := range []*servebench.RunConfig{&cfg.Baseline, &cfg.Candidate} {
		c := *side.Client
		c.BaseURL = srv.BaseURL()
		side.Client = &c
		side.LoRA.Load = []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}
	}
	if _, err := ab.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if n := srv.Stats().RuntimeAdapterLoads; n != 1 {
		t.Errorf("one engine loaded %d adapters, want 1", n)
	}
	// The qualification unloaded sql at its end: the same one again loads it again.
	cfg.OutputDir = t.TempDir()
	if _, err := ab.Run(context.Background(), cfg); err != nil || srv.Stats().RuntimeAdapterLoads != 2 {
		t.Errorf("the same qualification again: %v, %d loads in all; want sql loaded a second time", err, srv.Stats().RuntimeAdapterLoads)
	}

	var n engineCounter
	cfg = abConfig(t, 2)
	cfg.StartEngine = n.start
	cfg.Baseline.LoRA.Load = []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}
	cfg.Candidate.LoRA.Load = cfg.Baseline.LoRA.Load
	if _, err := ab.Run(context.Background(), cfg); err != nil || n.starts != 4 {
		t.Errorf("fresh engines: %v after %d starts", err, n.starts)
	}
}
