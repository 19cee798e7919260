package servebench_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report/render"
)

func TestRunRecordsTheEnginesOwnViewOfTheMeasurement(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		// "one two three" is three prompt tokens to the simulated engine.
		Workload: workloadOf(t, `{"prompt":"one two three","max_tokens":8,"ignore_eos":true}`),
		Arrival:  constant(t, 50), Count: 10, Warmup: 3,
		Client: clientFor(srv), OutputDir: t.TempDir(), EngineMetrics: servebench.EngineMetricsConfig{URL: srv.BaseURL() + "/metrics"},
	})
	if err != nil {
		t.Fatal(err)
	}
	em := res.Report.EngineMetrics
	if em == nil || len(em.Errors) != 0 {
		t.Fatalf("engine metrics %+v", em)
	}
	// The warmup's three requests happened before the first scrape: only
	// the window's ten count, 8 generated and 3 prompt tokens each.
	const m = `{model_name="simengine-tiny"}`
	for series, want := range map[string]float64{
		"vllm:generation_tokens_total" + m: 80,
		"vllm:prompt_tokens_total" + m:     30,
		`vllm:request_success_total{finished_reason="length",model_name="simengine-tiny"}`: 10,
		"vllm:num_preemptions_total" + m: 0,
	} {
		if got, ok := em.Counters[series]; !ok || got != want {
			t.Errorf("%s increased by %v (present %v), want %v", series, got, ok, want)
		}
	}
	ttft := em.Histograms["vllm:time_to_first_token_seconds"+m]
	if ttft.Count != 10 || ttft.Mean == nil || math.IsNaN(*ttft.Mean) || *ttft.Mean <= 0 {
		t.Errorf("server TTFT histogram %+v, want 10 observations with a mean", ttft)
	}
	// The server's mean TTFT cannot exceed the client's: the client's
	// clock starts earlier and stops later.
	if client := res.Report.Percentiles[record.MetricTTFT].Mean; client == nil || *ttft.Mean*1000 > *client {
		t.Errorf("server mean TTFT %.3f ms exceeds the client's %v ms", *ttft.Mean*1000, client)
	}
	if got := em.Gauges["vllm:num_requests_running"+m]; got != 0 {
		t.Errorf("running requests at the end: %v, want 0", got)
	}
	var text strings.Builder
	if err := render.Text(&text, res.Report); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Engine metrics (the engine's own view, " + srv.BaseURL() + "/metrics)",
		"vllm:generation_tokens_total" + m + ": +80", "vllm:time_to_first_token_seconds" + m + ": 10 observations, mean "} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}

func TestEngineMetricsScrapeFailureIsReportedNotFatal(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"prompt":"x","max_tokens":2}`),
		Arrival:  constant(t, 50), Count: 2, Client: clientFor(srv), OutputDir: t.TempDir(),
		EngineMetrics: servebench.EngineMetricsConfig{URL: srv.BaseURL() + "/no-such-metrics"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if em := res.Report.EngineMetrics; em == nil || len(em.Errors) != 2 || em.Counters != nil {
		t.Fatalf("engine metrics %+v, want both scrapes' errors and no figures", em)
	}
}
