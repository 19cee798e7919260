package main

import (
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/report"
)

// objectiveRows alternate a critical and a sheddable (batch) objective.
const objectiveRows = `{"id":"c","prompt":"page the on-call","max_tokens":16,"ignore_eos":true,"headers":{"x-llm-d-inference-objective":"critical"}}
{"id":"b","prompt":"summarize last week","max_tokens":16,"ignore_eos":true,"headers":{"x-llm-d-inference-objective":"batch"}}
`

// shedRun runs 40 requests at 50/s against a simulated engine that runs
// one request at a time (about 16 steps of 8 ms each) and sheds the
// objectives outside engineCritical once a request waits; servebench
// calls "critical" critical.
func shedRun(t *testing.T, engineCritical string) *report.ShedOrder {
	t.Helper()
	url := startSim(t, func(c *simengine.Config) {
		c.TimeScale, c.MaxRunningSequences, c.ShedLimit, c.CriticalObjectives = 1, 1, 1, []string{engineCritical}
	})
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", writeWorkload(t, objectiveRows), "--arrival", "constant", "--rate", "50", "--count", "40",
		"--schedule-lag-tolerance", "5s", "--no-progress", "--output", out, "--critical-objectives", "critical")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	r, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.ShedOrder == nil {
		t.Fatal("report.json has no shed_order")
	}
	s := r.ShedOrder
	if s.CriticalSent != 20 || s.SheddableSent != 20 || s.Windows == 0 {
		t.Fatalf("shed_order %+v: want 20 sent of each and a judged window", *s)
	}
	return s
}

// TestShedOrderAgainstASheddingEngine: an engine that sheds batch first
// rejects batch requests and no critical one, so no window is in
// violation; one that sheds critical first (the wrong order) rejects
// critical requests while batch ones are admitted, and the check says so.
func TestShedOrderAgainstASheddingEngine(t *testing.T) {
	right := shedRun(t, "critical")
	if right.Violations != 0 || right.CriticalRejected != 0 || right.SheddableRejected == 0 {
		t.Errorf("shedding batch first: %+v, want batch shed, no critical one, no violation", *right)
	}
	wrong := shedRun(t, "batch")
	if wrong.Violations == 0 || wrong.CriticalRejected == 0 || wrong.SheddableRejected != 0 || wrong.FirstViolationMS == nil {
		t.Errorf("shedding critical first: %+v, want violations", *wrong)
	}
}
