package servebench_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// A run with a metrics endpoint scrapes it through the measurement: the
// simulated engine's vLLM names map to queue, running and KV usage, and
// the drift intervals carry the KV usage beside the client's figures.
func TestRunScrapesEngineMetricsOverTime(t *testing.T) {
	srv, err := simengine.Start(context.Background(), simengine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"check the pager","max_tokens":8,"ignore_eos":true}
`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20})
	if err != nil {
		t.Fatal(err)
	}
	client := &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 20 * time.Second}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 30, Client: client, OutputDir: t.TempDir(),
		LagTolerance: 5 * time.Second, EngineMetrics: servebench.EngineMetricsConfig{URL: srv.BaseURL() + "/metrics", Interval: 100 * time.Millisecond},
		Score: score.Options{DriftInterval: 250 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	es := res.Report.EngineSeries
	if es == nil || es.Engine != "vllm" || len(es.Samples) < 3 || es.FailedScrapes != 0 {
		t.Fatalf("engine series %+v", es)
	}
	s := es.Samples[len(es.Samples)-1]
	if s.QueueLength == nil || s.Running == nil || s.KVCacheUsage == nil || s.Preemptions == nil {
		t.Fatalf("last sample %+v", s)
	}
	withKV := 0
	for _, iv := range res.Report.Drift.Intervals {
		if iv.KVCacheUsage != nil {
			withKV++
		}
	}
	if withKV == 0 {
		t.Fatalf("no drift interval carries KV usage: %+v", res.Report.Drift.Intervals)
	}
	// Re-scoring keeps the series and puts it beside the new intervals.
	again, err := score.RunDir(res.Dir, score.Options{DriftInterval: 250 * time.Millisecond})
	if err != nil || again.EngineSeries == nil || len(again.EngineSeries.Samples) != len(es.Samples) {
		t.Fatalf("re-scored: %v %+v", err, again.EngineSeries)
	}
}
