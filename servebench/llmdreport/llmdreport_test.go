package llmdreport_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// runSim runs count requests of a fixed 8-token answer at 20 req/s against
// the in-process simulated engine, with the Benchmark Report writer set.
func runSim(t *testing.T, format llmdreport.Format, tune func(*simengine.Config), edit func(*servebench.RunConfig)) *servebench.RunResult {
	t.Helper()
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	if tune != nil {
		tune(&cfg)
	}
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	w, err := schedule.ParseWorkload("fixed.jsonl", []byte(
		`{"id":"a","prompt":"Is the pager storm over?","max_tokens":8,"ignore_eos":true}`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rc := servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 10, OutputDir: t.TempDir(),
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
		EngineControl: servebench.EngineControl{Engine: &report.EngineInfo{Kind: "simengine", Model: cfg.Model, Version: "test"}},
		Artifacts:     []servebench.ArtifactWriter{llmdreport.Writer{Format: format}},
	}
	if edit != nil {
		edit(&rc)
	}
	res, err := servebench.Run(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// get walks a decoded JSON document by keys.
func get(t *testing.T, doc map[string]any, keys ...string) any {
	t.Helper()
	var v any = doc
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v: %q is not under an object", keys, k)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("%v: no %q", keys, k)
		}
	}
	return v
}

func TestRunWritesAValidBenchmarkReport(t *testing.T) {
	res := runSim(t, llmdreport.JSON, nil, nil)
	doc := validateFile(t, filepath.Join(res.Dir, llmdreport.FileJSON))
	rep := res.Report

	if got := get(t, doc, "run", "uid"); got != rep.Experiment.RunID {
		t.Errorf("run.uid = %v, want the run ID %s", got, rep.Experiment.RunID)
	}
	if got := get(t, doc, "version"); got != "0.2.1" {
		t.Errorf("version = %v", got)
	}
	agg := get(t, doc, "results", "request_performance", "aggregate").(map[string]any)
	// Ten requests, all answered with exactly 8 tokens (ignore_eos).
	for path, want := range map[string]float64{
		"requests/total": 10, "requests/failures": 0, "requests/incomplete": 0,
		"requests/output_length/mean": 8, "requests/output_length/min": 8, "requests/output_length/p99p9": 8,
	} {
		if got := get(t, agg, splitPath(path)...); got != want {
			t.Errorf("aggregate %s = %v, want %v", path, got, want)
		}
	}
	// Exactly the schema's unit strings, per figure.
	for path, want := range map[string]string{
		"latency/time_to_first_token/units":   "ms",
		"latency/time_per_output_token/units": "ms/token",
		"latency/request_latency/units":       "ms",
		"throughput/output_token_rate/units":  "tokens/s",
		"throughput/request_rate/units":       "queries/s",
		"requests/output_length/units":        "count",
		"requests/input_length/units":         "count",
	} {
		if got := get(t, agg, splitPath(path)...); got != want {
			t.Errorf("aggregate %s = %v, want %q", path, got, want)
		}
	}
	// The percentiles are the report's own, p0.1 to p99.9.
	ttft := get(t, agg, "latency", "time_to_first_token").(map[string]any)
	for field, p := range map[string]float64{"min": 0, "p0p1": 0.1, "p25": 25, "p50": 50, "p99p9": 99.9, "max": 100} {
		want, _, _, err := rep.Percentile(record.MetricTTFT, p)
		if err != nil {
			t.Fatal(err)
		}
		if ttft[field] != want {
			t.Errorf("time_to_first_token.%s = %v, want the report's p%v %v", field, ttft[field], p, want)
		}
	}
	// 10 successes x 8 tokens over the horizon.
	wantRate := 80 / (rep.HorizonMS / 1000)
	if got := get(t, agg, "throughput", "output_token_rate", "mean").(float64); math.Abs(got-wantRate) > 1e-9*wantRate {
		t.Errorf("output_token_rate = %v, want 80 tokens / %v ms = %v", got, rep.HorizonMS, wantRate)
	}
	std := get(t, doc, "scenario", "load", "standardized").(map[string]any)
	if std["tool"] != "servebench" || std["rate_qps"] != 20.0 || std["source"] != "sampled" {
		t.Errorf("scenario.load.standardized = %v", std)
	}
	if got := get(t, std, "output_seq_len", "distribution"); got != "fixed" {
		t.Errorf("output_seq_len.distribution = %v, want fixed", got)
	}
	if got := get(t, std, "output_seq_len", "value"); got != 8.0 {
		t.Errorf("output_seq_len.value = %v, want 8", got)
	}
	engine := get(t, doc, "scenario", "stack").([]any)[0].(map[string]any)
	if got := get(t, engine, "standardized", "model", "name"); got != "simengine-tiny" {
		t.Errorf("engine model = %v", got)
	}
	if got := get(t, engine, "standardized", "tool"); got != "simengine" {
		t.Errorf("engine tool = %v", got)
	}
	if d, _ := get(t, doc, "scenario", "load", "metadata", "description").(string); d != llmdreport.Definitions {
		t.Errorf("the load's metadata does not say how TPOT and ITL are defined: %q", d)
	}
}

// splitPath splits "a/b/c" into its keys.
func splitPath(p string) []string { return strings.Split(p, "/") }

func TestFailedRequestsAreCountedAndTheirLatenciesLeftOut(t *testing.T) {
	res := runSim(t, llmdreport.JSON, func(c *simengine.Config) { c.ErrorRate = 1 }, nil)
	doc := validateFile(t, filepath.Join(res.Dir, llmdreport.FileJSON))
	agg := get(t, doc, "results", "request_performance", "aggregate").(map[string]any)
	if got := get(t, agg, "requests", "failures"); got != 10.0 {
		t.Errorf("failures = %v, want 10 (every request got HTTP 500)", got)
	}
	lat := get(t, agg, "latency").(map[string]any)
	for _, k := range []string{"time_to_first_token", "time_per_output_token", "request_latency"} {
		if v, ok := lat[k]; ok {
			t.Errorf("latency.%s = %v, want it absent: no request succeeded", k, v)
		}
	}
	if got := get(t, doc, "scenario", "load", "standardized", "input_seq_len", "distribution"); got != "other" {
		t.Errorf("input_seq_len.distribution = %v, want other (unknown)", got)
	}
}

func TestYAMLReportAndEngineSeries(t *testing.T) {
	res := runSim(t, llmdreport.YAML, nil, func(rc *servebench.RunConfig) {
		rc.EngineMetrics.URL = rc.Client.BaseURL + "/metrics"
		rc.EngineMetrics.Interval = 50 * time.Millisecond
		rc.Count = 20
		rc.Warmup = 2
	})
	if _, err := os.Stat(filepath.Join(res.Dir, llmdreport.FileJSON)); !os.IsNotExist(err) {
		t.Errorf("a YAML run also wrote %s (err %v)", llmdreport.FileJSON, err)
	}
	doc := validateFile(t, filepath.Join(res.Dir, llmdreport.FileYAML))
	if res.Report.EngineSeries == nil || len(res.Report.EngineSeries.Samples) == 0 {
		t.Fatal("the run scraped no engine series")
	}
	comp := get(t, doc, "results", "observability", "components").([]any)[0].(map[string]any)
	if comp["component_label"] != "simengine" {
		t.Errorf("component_label = %v", comp["component_label"])
	}
	running := get(t, comp, "time_series", "num_requests_running").(map[string]any)
	n := 0
	for _, s := range res.Report.EngineSeries.Samples {
		if s.Running != nil {
			n++
		}
	}
	if got := len(running["series"].([]any)); got != n || running["units"] != "count" {
		t.Errorf("num_requests_running has %d points in %v, want %d in count", got, running["units"], n)
	}
	// A sample's instant is the run clock's origin (after the warmup) plus
	// its time on that clock, not the experiment's start before warmup.
	x := res.Report.Experiment
	origin, err := time.Parse(time.RFC3339Nano, x.ClockOrigin)
	if err != nil {
		t.Fatalf("clock_origin %q: %v", x.ClockOrigin, err)
	}
	if start, _ := time.Parse(time.RFC3339Nano, x.StartTime); !origin.After(start) {
		t.Errorf("clock origin %s is not after the start %s, before a warmup of 2", x.ClockOrigin, x.StartTime)
	}
	for _, s := range res.Report.EngineSeries.Samples {
		if s.Running == nil {
			continue
		}
		want := origin.Add(time.Duration(s.AtMS * float64(time.Millisecond))).UTC().Format(time.RFC3339Nano)
		if got := running["series"].([]any)[0].(map[string]any)["ts"]; got != want {
			t.Errorf("first point at %v, want %s (clock origin + %v ms)", got, want, s.AtMS)
		}
		break
	}
}

// A run's report keeps no raw samples, yet the writer asks the scorer for
// the schema's percentiles: each equals the one picked from the TTFTs
// recomputed from outcomes.jsonl.
func TestRunKeepsTheSchemaPercentilesWithoutSamples(t *testing.T) {
	res := runSim(t, llmdreport.JSON, nil, nil)
	if len(res.Report.Samples) != 0 {
		t.Fatal("the run's report kept its raw samples")
	}
	doc := validateFile(t, filepath.Join(res.Dir, llmdreport.FileJSON))
	ttft := get(t, doc, "results", "request_performance", "aggregate", "latency", "time_to_first_token").(map[string]any)
	var xs []float64
	for o, err := range res.Outcomes() {
		if err != nil {
			t.Fatal(err)
		}
		if o.Status == record.StatusSuccess {
			xs = append(xs, *o.FirstContentMS-*o.SentMS)
		}
	}
	slices.Sort(xs)
	for field, p := range map[string]float64{"min": 0, "p0p1": 0.1, "p1": 1, "p25": 25, "p75": 75, "p99p9": 99.9, "max": 100} {
		want, _ := stats.Percentile(xs, p, res.Report.PercentileMethod)
		if got, ok := ttft[field].(float64); !ok || math.Abs(got-want) > 1e-9 {
			t.Errorf("time_to_first_token.%s = %v, want %v from the outcomes", field, ttft[field], want)
		}
	}
}
