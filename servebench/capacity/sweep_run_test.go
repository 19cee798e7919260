package capacity_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

func TestSweepRepeatsEachRateWithTheNextSeedAndCanRunDownward(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 1, Seed: 5})
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"prompt":"ok?","max_tokens":2,"ignore_eos":true}`))
	if err != nil {
		t.Fatal(err)
	}
	client := &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 20 * time.Second}
	dir := t.TempDir()
	sw, err := capacity.RunSweep(context.Background(), servebench.RunConfig{
		Workload: w,
		Arrival:  a, Count: 4, Client: client, OutputDir: dir,
		LagTolerance: time.Second, // the test checks the sweep's order and seeds, not this machine's timing
	}, capacity.Plan{Rates: []float64{20, 40}, Repeat: 2, Descending: true,
		Rule: capacity.Rule{MinAttainment: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	// Highest rate first, each rate twice, the second run with seed + 1.
	var got []float64
	var seeds []int64
	for _, p := range sw.Points {
		got = append(got, p.OfferedRPS)
		seeds = append(seeds, p.Report.Experiment.Arrival.Seed)
	}
	if len(got) != 4 || got[0] != 40 || got[1] != 40 || got[2] != 20 || got[3] != 20 ||
		seeds[0] != 5 || seeds[1] != 6 || seeds[2] != 5 || seeds[3] != 6 {
		t.Fatalf("rates %v seeds %v; want [40 40 20 20] and [5 6 5 6]", got, seeds)
	}
	for _, d := range []string{"rate-40/run-1", "rate-40/run-2", "rate-20/run-1", "rate-20/run-2"} {
		if _, err := os.Stat(filepath.Join(dir, d, record.ReportFile)); err != nil {
			t.Errorf("missing %s: %v", d, err)
		}
	}
	if sw.Selection.RPS == nil || *sw.Selection.RPS != 40 {
		t.Fatalf("selection %+v, want 40 req/s", sw.Selection)
	}
}
