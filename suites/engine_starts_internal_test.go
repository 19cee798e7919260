package suites

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/matchers"
)

// A contract whose simulated engine loads for 300 ms (it answers 503 on
// /health until then) and says engine.starts: 2 starts it twice: each
// start's ready_ms is at least the 300 ms of loading, its first token
// comes after readiness, the first engine is stopped, and the load
// point's report carries both starts, which objectives.startup judges:
// ready within 30 s passes, HaveStartupWithin(250ms) fails on both.
func TestEngineStartsAreRepeatedAndJudged(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(`{"id":"q","prompt":"wake up","max_tokens":4,"ignore_eos":true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	contract := strings.Join([]string{"name: startup", "engine:", "  kind: simengine", "  args: [--loading-duration=300ms, --time-scale=0.1]", "  starts: 2",
		"endpoint: completions", "workload:", "  file: workload.jsonl", "arrival:", "  process: constant", "  rate: 20", "count: 2",
		"schedule_lag_tolerance: 1s", "objectives:", "  valid_load: false", "  startup: {ready_within: 30s, first_token_within: 40s}", "artifacts: " + dir, ""}, "\n")
	c, err := Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	target, stop, err := c.startTarget(ctx, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stop(ctx) }()
	if len(target.Starts) != 2 {
		t.Fatalf("%d starts, want 2", len(target.Starts))
	}
	for i, s := range target.Starts {
		if s.ReadyMS == nil || *s.ReadyMS < 300 || s.FirstTokenMS == nil || *s.FirstTokenMS < *s.ReadyMS || s.PullMS != nil {
			t.Fatalf("start %d: %+v (ready %v, first token %v); want ready at 300 ms or later, the first token after it, no pull", i+1, s, s.ReadyMS, s.FirstTokenMS)
		}
	}
	res, err := c.RunPoint(ctx, c.Points()[0], target, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.EngineStarts) != 2 || *res.Report.EngineStarts[1].ReadyMS != *target.Starts[1].ReadyMS {
		t.Fatalf("the report's starts %+v, the target's %+v", res.Report.EngineStarts, target.Starts)
	}
	objectives := c.PointObjectives(c.Points()[0])
	last := objectives[len(objectives)-1]
	if last.Field != "objectives.startup" || last.Name != "engine ready within 30s, first token within 40s" {
		t.Fatalf("objective %q at %q", last.Name, last.Field)
	}
	if ok, err := last.Matcher.Match(res); !ok || err != nil {
		t.Fatalf("startup objective: %v %v", ok, err)
	}
	if ok, err := matchers.HaveStartupWithin(250*time.Millisecond, 0).Match(res); ok || err != nil {
		t.Fatalf("a 250 ms bound passed (%v %v)", ok, err)
	}
}

// A startup objective without an engine, with no bound, or an
// engine.starts below 1 is refused with its line and field.
func TestStartupObjectiveRefusals(t *testing.T) {
	base := "name: s\nbase_url: http://127.0.0.1:1\nmodel: m\nworkload:\n  file: workload.jsonl\narrival: {process: constant, rate: 1}\ncount: 1\n"
	for contract, want := range map[string]string{
		base + "objectives:\n  startup: {ready_within: 10s}\n": "testdata/inline.yaml:9:12: objectives.startup: needs an engine section",
		"name: s\nengine: {kind: simengine}\nworkload:\n  file: workload.jsonl\narrival: {process: constant, rate: 1}\ncount: 1\nobjectives:\n  startup: {}\n": "testdata/inline.yaml:8:12: objectives.startup: declare ready_within, first_token_within or both",
		"name: s\nengine: {kind: simengine, starts: 0}\nworkload:\n  file: workload.jsonl\narrival: {process: constant, rate: 1}\ncount: 1\n":                  "testdata/inline.yaml:2:35: engine.starts: want at least 1, got 0",
	} {
		_, err := Parse("testdata/inline.yaml", []byte(contract))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}
