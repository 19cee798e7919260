package servebench_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// fixedGPUSampler reports the same energy for every measurement and counts
// how often it was started and stopped.
type fixedGPUSampler struct {
	energyJ          float64
	started, stopped atomic.Int32
}

func (s *fixedGPUSampler) StartGPUSampling(context.Context) func() *report.GPUTelemetry {
	s.started.Add(1)
	return func() *report.GPUTelemetry {
		s.stopped.Add(1)
		e := s.energyJ
		return &report.GPUTelemetry{Status: report.GPUTelemetrySampled, Source: "fixed", SampleIntervalMS: 1000,
			GPUs:    []report.GPUStats{{Index: 0, Samples: 2, EnergyJ: &e, EnergyMethod: report.EnergyFromCounter}},
			EnergyJ: &e, EnergyMethod: report.EnergyFromCounter}
	}
}

func TestEnergyIsAttributedToQualifiedRequestsAndOutputTokens(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	dir := t.TempDir()
	gpu := &fixedGPUSampler{energyJ: 400}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":8,"ignore_eos":true}
`),
		Arrival: constant(t, 50), Count: 10, Warmup: 1, Client: clientFor(srv), OutputDir: dir, GPUSampler: gpu,
		LagTolerance: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if gpu.started.Load() != 1 || gpu.stopped.Load() != 1 {
		t.Fatalf("sampler started %d and stopped %d times, want once each (the warmup is not sampled)", gpu.started.Load(), gpu.stopped.Load())
	}
	g := res.Report.GPUTelemetry
	if res.Report.Qualified != 10 || g == nil {
		t.Fatalf("qualified %d, telemetry %v", res.Report.Qualified, g)
	}
	// 400 J over 10 qualified requests of 8 tokens each: 40 J per
	// qualified request, 400 / 80 = 5 J per output token.
	if g.Qualified != 10 || g.OutputTokens != 80 || g.SuccessesWithoutTokenCount != 0 ||
		*g.JoulesPerQualifiedRequest != 40 || *g.JoulesPerOutputToken != 5 {
		t.Fatalf("attribution %+v", g)
	}
	var onDisk report.Report
	data, err := os.ReadFile(filepath.Join(dir, record.ReportFile))
	if err != nil || json.Unmarshal(data, &onDisk) != nil || onDisk.GPUTelemetry == nil || *onDisk.GPUTelemetry.JoulesPerOutputToken != 5 {
		t.Fatalf("report.json lacks the telemetry: %v", err)
	}
	// Re-scored with an impossible TTFT bound, no request qualifies: the
	// energy stays (the run observed it), the joules per qualified request
	// become undefined, and the joules per token do not move.
	again, err := score.RunDir(dir, score.Options{SLO: report.SLO{TTFT: time.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	g = again.GPUTelemetry
	if again.Qualified != 0 || g == nil || *g.EnergyJ != 400 || g.JoulesPerQualifiedRequest != nil || *g.JoulesPerOutputToken != 5 {
		t.Fatalf("re-scored: qualified %d, telemetry %+v", again.Qualified, g)
	}
}

func TestUnavailableTelemetryKeepsTheRunAndSaysWhy(t *testing.T) {
	g := &report.GPUTelemetry{Status: "unavailable: nvml: libnvidia-ml.so.1 not found"}
	if g.Available() || g.UnavailableReason() != "nvml: libnvidia-ml.so.1 not found" {
		t.Fatalf("available %v, reason %q", g.Available(), g.UnavailableReason())
	}
	var none *report.GPUTelemetry
	if none.Available() || none.UnavailableReason() == "" {
		t.Fatal("a nil telemetry must say it was not configured")
	}
}
