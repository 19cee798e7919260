package score_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// driftRun sends 30 req/s for 6 s to a simulated engine (8 ms steps) with the given slowdown and scores drift in 500 ms intervals: twelve
// intervals of fifteen requests.
func driftRun(t *testing.T, slowdown float64) *report.Report {
	t.Helper()
	cfg := simengine.DefaultConfig()
	cfg.Slowdown = slowdown
	srv, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"check the pager and summarize the outage","max_tokens":16,"ignore_eos":true}
`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 30})
	if err != nil {
		t.Fatal(err)
	}
	client := &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 30 * time.Second}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 180, Client: client, OutputDir: t.TempDir(),
		LagTolerance: 5 * time.Second, // drift is judged, not this machine's punctuality
		Score:        score.Options{DriftInterval: 500 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Report.Drift
	if d == nil || !d.Judged {
		t.Fatalf("drift not judged: %+v", d)
	}
	return res.Report
}

// The drift test, calibrated on the simulated engine: a steady engine
// shows no p99 TTFT growth beyond 50% over 6 s (its interval holds zero or
// its estimate is small), while an engine whose steps slow by 50% a second
// (four times slower by the end) shows TTFT growth well beyond it. The
// threshold sits far from both, so a loaded machine's noise does not flip
// the verdict. Measured on a loaded 2-core machine: steady +18% TTFT
// (interval −56% to +84%) and +10% TPOT (−2% to +21%); slowing +430% TTFT
// (+333% to +543%) and +439% TPOT.
func TestDriftCalibratedOnSimulatedEngine(t *testing.T) {
	if os.Getenv("SERVEBENCH_CALIBRATE") == "" {
		t.Skip("calibration: two 6 s loads against the simulated engine; set SERVEBENCH_CALIBRATE=1 to run it")
	}
	for _, steady := range driftRun(t, 0).Drift.Trends {
		t.Logf("steady: %s", steady.Finding)
		if steady.Drifting(0.5) {
			t.Errorf("steady engine drifts: %s", steady.Finding)
		}
	}
	for _, slowing := range driftRun(t, 0.5).Drift.Trends {
		t.Logf("slowing: %s", slowing.Finding)
		if !slowing.Drifting(0.5) {
			t.Errorf("slowing engine does not drift: %s", slowing.Finding)
		}
	}
}
