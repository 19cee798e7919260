package capacity_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestSweepLoadsTheAdaptersOnce: two rates against one engine load sql
// once (a second load would be refused), and both points' reports carry
// that one load. The sweep unloads it at its end, so the same sweep again
// loads it again.
func TestSweepLoadsTheAdaptersOnce(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 1})
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"prompt":"ok?","max_tokens":2}`))
	if err != nil {
		t.Fatal(err)
	}
	mix, _ := schedule.ParseAdapterMix("sql=1")
	client := &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 20 * time.Second}
	cfg := servebench.RunConfig{
		Workload: w, Arrival: a, Count: 2, Client: client, OutputDir: t.TempDir(), LagTolerance: time.Second,
		LoRA: servebench.LoRAConfig{Mix: mix, Load: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}},
	}
	plan := capacity.Plan{Rates: []float64{20, 40}, Rule: capacity.Rule{MinAttainment: 0.5}}
	sw, err := capacity.RunSweep(context.Background(), cfg, plan)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cfg.OutputDir = t.TempDir()
		if _, err := capacity.RunSweep(context.Background(), cfg, plan); err != nil || srv.Stats().RuntimeAdapterLoads != 2 {
			t.Errorf("the same sweep again: %v, %d loads in all; want it to load sql a second time", err, srv.Stats().RuntimeAdapterLoads)
		}
	}()
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
