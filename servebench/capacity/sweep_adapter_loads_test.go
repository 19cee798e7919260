package capacity_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestSweepLoadsTheAdaptersOnce: two rates against one engine load sql
// once (a second load would be refused), and both points' reports carry
// that one load.
func TestSweepLoadsTheAdaptersOnce(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 1})
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"prompt":"ok?","max_tokens":2}`))
	if err != nil {
		t.Fatal(err)
	}
	mix, _ := schedule.ParseAdapterMix("sql=1")
	client := &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: openai.EndpointCompletions, Stream: true, TotalTimeout: 20 * time.Second}
	sw, err := capacity.RunSweep(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: a, Count: 2, Client: client, OutputDir: t.TempDir(), Adapters: mix, LagTolerance: time.Second,
		LoadAdapters: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}},
	}, capacity.Plan{Rates: []float64{20, 40}, Rule: capacity.Rule{MinAttainment: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Stats().RuntimeAdapterLoads; n != 1 {
		t.Errorf("the engine loaded %d adapters, want 1", n)
	}
	if len(sw.Points) != 2 {
		t.Fatalf("%d points, want 2", len(sw.Points))
	}
	first := sw.Points[0].Report.AdapterLoads
	for _, p := range sw.Points {
		got := p.Report.AdapterLoads
		if len(got) != 1 || got[0] != first[0] || got[0].Adapter != "sql" || p.Report.Offered != 2 || p.Report.ProtocolSuccesses != 2 {
			t.Errorf("rate %v: adapter_loads %+v, %d of %d succeeded", p.OfferedRPS, got, p.Report.ProtocolSuccesses, p.Report.Offered)
		}
	}
}
