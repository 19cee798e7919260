package servebench_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// Re-scoring the directory a real run wrote (the simulated engine over
// loopback HTTP) reads every file strictly and reproduces the run's own
// accounting; a new SLO changes only the verdicts.
func TestScoreRunDirReproducesTheRunsReport(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	w := workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":6,"ignore_eos":true}
{"id":"b","prompt":"summarize the outage for the incident channel","max_tokens":4,"ignore_eos":true}
`)
	arrival, client := constant(t, 40), clientFor(srv)
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 12, Client: client, OutputDir: dir,
		LagTolerance: time.Second, // the test checks accounting, not this machine's timing
		Score:        score.Options{SLO: report.SLO{E2E: 10 * time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	again, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatalf("re-scoring the runner's own files: %v", err)
	}
	run := res.Report
	if again.Offered != run.Offered || again.ProtocolSuccesses != run.ProtocolSuccesses || again.Qualified != run.Qualified ||
		again.HorizonMS != run.HorizonMS || again.Valid != run.Valid || again.SLO != run.SLO {
		t.Fatalf("re-scored %s\nrun %s", again.GomegaString(), run.GomegaString())
	}
	for _, m := range []record.Metric{record.MetricTTFT, record.MetricTPOT, record.MetricE2E, record.MetricScheduleLag} {
		a, b := again.Percentiles[m], run.Percentiles[m]
		if a.N != b.N || (a.P99 == nil) != (b.P99 == nil) || (a.P99 != nil && *a.P99 != *b.P99) {
			t.Fatalf("%s: re-scored %+v, run %+v", m, a, b)
		}
	}
	if again.Inputs.OutcomesSHA256 != run.Inputs.OutcomesSHA256 || again.Inputs.ScheduleSHA256 != run.Inputs.ScheduleSHA256 {
		t.Fatalf("inputs: re-scored %+v, run %+v", again.Inputs, run.Inputs)
	}
	if again.Offered != 12 || again.ProtocolSuccesses != 12 {
		t.Fatalf("offered %d successes %d", again.Offered, again.ProtocolSuccesses)
	}
	// An impossible TTFT bound: nothing qualifies, the accounting stands.
	strict, err := score.RunDir(dir, score.Options{SLO: report.SLO{TTFT: time.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	if strict.Qualified != 0 || strict.Offered != 12 || strict.ReasonCounts[report.ReasonTTFT] != 12 {
		t.Fatalf("strict SLO: %s", strict.GomegaString())
	}
}
