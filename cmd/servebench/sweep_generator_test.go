package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/sweepreport"
)

// With a lag tolerance of 1 µs no client delivers the load, while the
// generous objectives hold: every point is generator_bound and the sweep
// exits 2, as a run whose load was not delivered does.
func TestASweepBoundByTheClientExitsTwo(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rates", "40,80", "--count", "8",
		"--schedule-lag-tolerance", "1us", "--no-backlog-growth=false", "--ttft-slo", "30s", "--output", out, "--no-progress")
	if code != 2 || !strings.Contains(stderr, "the client was the limit") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"GENERATOR_BOUND", "knee: not measured: the client was the limit at every tested rate",
		"the client was the limit at 40, 80 rps (generator_bound)", "give the client more cores"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, stdout)
		}
	}
	res, err := sweepreport.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if res.KneeRPS != nil || len(res.GeneratorBoundRPS) != 2 || res.Rates[0].Verdict != capacity.VerdictGeneratorBound ||
		!strings.Contains(string(raw), `"verdict":"generator_bound"`) {
		t.Fatalf("sweep.json %s", raw)
	}
}

func TestDemoSaysWhenItsClientWasStarved(t *testing.T) {
	ok := &report.Report{Valid: true, Offered: 10, Qualified: 10}
	late := &report.Report{Valid: false, Offered: 10, Qualified: 10, MaxScheduleLagMS: ptrTo(63.25)}
	quiet := capacity.NewSweep([]capacity.Point{{OfferedRPS: 5, Report: ok}}, capacity.Rule{})
	if note := demoStarvationNote(quiet); note != "" {
		t.Fatalf("a delivered sweep got a note: %q", note)
	}
	busy := capacity.NewSweep([]capacity.Point{{OfferedRPS: 5, Report: ok}, {OfferedRPS: 10, Report: late}, {OfferedRPS: 20, Report: late}},
		capacity.Rule{})
	note := demoStarvationNote(busy)
	if !strings.Contains(note, "at 10, 20 req/s the client could not send on schedule (max schedule lag 63.2 ms)") ||
		!strings.Contains(note, "go run ./cmd/simengine") {
		t.Fatalf("note %q", note)
	}
}

func ptrTo(v float64) *float64 { return &v }
