package livemetrics_test

import (
	"context"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// gathered is m's series by family name.
func gathered(t *testing.T, m *livemetrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := m.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		byName[f.GetName()] = f
	}
	return byName
}

// labelNames are the label names of a family's first series.
func labelNames(f *dto.MetricFamily) []string {
	var names []string
	for _, l := range f.GetMetric()[0].GetLabel() {
		names = append(names, l.GetName())
	}
	return names
}

// TestAdapterLabelFollowsTheMix runs 8 requests dealt round-robin over
// sql=1, chat=1, base=2 (by hand: 2 sql, 2 chat, 4 base) through
// servebench.Observers, and wants each per-request series by adapter.
// Metrics from New keep the class label alone.
func TestAdapterLabelFollowsTheMix(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale, cfg.Adapters = 0.1, []string{"sql", "chat"}
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","class":"chat","prompt":"Hello","max_tokens":4,"ignore_eos":true}`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 40, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mix, err := schedule.ParseAdapterMix("sql=1,chat=1,base=2")
	if err != nil {
		t.Fatal(err)
	}
	if err := mix.SetAssignment(schedule.AssignRoundRobin); err != nil {
		t.Fatal(err)
	}
	m := livemetrics.NewWithAdapters()
	_, err = servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 8, OutputDir: t.TempDir(), Observer: servebench.Observers(m), LoRA: servebench.LoRAConfig{Mix: mix},
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions, TotalTimeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	fams := gathered(t, m)
	for adapter, want := range map[string]float64{"sql": 2, "chat": 2, "base": 4} {
		for _, name := range []string{"servebench_requests_offered_total", "servebench_requests_sent_total",
			"servebench_requests_completed_total", "servebench_ttft_seconds", "servebench_e2e_seconds"} {
			if got := value(fams, name, map[string]string{"class": "chat", "adapter": adapter}); got != want {
				t.Errorf("%s{adapter=%q} = %v, want %v", name, adapter, got, want)
			}
		}
	}
	if got := labelNames(fams["servebench_requests_offered_total"]); len(got) != 2 || got[0] != "adapter" || got[1] != "class" {
		t.Errorf("labels %v, want adapter and class", got)
	}

	plain := livemetrics.New()
	plain.Due("chat")
	if got := labelNames(gathered(t, plain)["servebench_requests_offered_total"]); len(got) != 1 || got[0] != "class" {
		t.Errorf("New: labels %v, want class alone", got)
	}
}
