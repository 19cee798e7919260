package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/sweepreport"
)

// TestInterruptedSweepClaimsNothingFromItsLastPoint: SIGTERM while the
// second rate runs exits 143, keeps the first rate's run and verdict, marks
// the second "interrupted" in sweep.json, and derives neither a knee nor a
// failing neighbour from it.
func TestInterruptedSweepClaimsNothingFromItsLastPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command against a slow simulated engine")
	}
	engine, cfg := slowEngine(t)
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":60,"ignore_eos":true}
{"id":"b","prompt":"list the pages","max_tokens":300,"ignore_eos":true}
`)
	dir := filepath.Join(t.TempDir(), "sweep")
	busy := engine.Stats().Submitted
	interruptCLI(t, syscall.SIGTERM, 143, "the second rate with a request in flight", func() bool {
		_, err := os.Stat(filepath.Join(dir, "rate-2", record.OutcomesFile))
		return err == nil && engine.Stats().Submitted > busy && engine.Stats().Running > 0
	}, "sweep", "--rates", "1,2", "--base-url", engine.BaseURL(), "--model", cfg.Model,
		"--endpoint", "completions", "--workload", wl, "--arrival", "constant", "--count", "1", "--skip-preflight",
		"--schedule-lag-tolerance", "1s", "--no-backlog-growth=false", "--output", dir, "--no-progress", "--format", "json")
	b, err := os.ReadFile(filepath.Join(dir, sweepreport.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res sweepreport.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rates) != 2 || res.Rates[0].RateRPS != 1 || res.Rates[0].Verdict != "pass" ||
		res.Rates[1].RateRPS != 2 || res.Rates[1].Verdict != capacity.VerdictInterrupted {
		t.Fatalf("rates %+v, want 1 rps pass and 2 rps interrupted", res.Rates)
	}
	if res.KneeRPS == nil || *res.KneeRPS != 1 || res.FailingNeighborRPS != nil {
		t.Errorf("knee %v, failing neighbour %v: want 1 and none", res.KneeRPS, res.FailingNeighborRPS)
	}
	if _, err := os.Stat(filepath.Join(dir, "rate-1", record.ReportFile)); err != nil {
		t.Errorf("the finished rate's report is gone: %v", err)
	}
	wantManifest(t, dir, "sweep", sweepreport.HTMLFile, sweepreport.JSONFile, sweepTextFile)
}

// TestInterruptedABWritesNoComparison: SIGINT during the candidate's
// first round exits 130, keeps the baseline's finished round, writes no
// comparison (no verdict from an unbalanced set of rounds) and says so,
// and the manifest lists what was written.
func TestInterruptedABWritesNoComparison(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command against a slow simulated engine")
	}
	engine, cfg := slowEngine(t)
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":300,"ignore_eos":true}
`)
	fast := startSim(t, nil)
	dir := filepath.Join(t.TempDir(), "ab")
	stderr := interruptCLI(t, syscall.SIGINT, 130, "the candidate's round with a request in flight", func() bool {
		_, err := os.Stat(filepath.Join(dir, "candidate", "round-1", record.OutcomesFile))
		return err == nil && engine.Stats().Running > 0
	}, "ab", "--baseline-url", fast, "--candidate-url", engine.BaseURL(), "--model", cfg.Model,
		"--endpoint", "completions", "--workload", wl, "--arrival", "constant", "--rate", "1", "--count", "1", "--rounds", "2",
		"--skip-preflight", "--schedule-lag-tolerance", "1s", "--tolerance", "e2e_p50=50%", "--output", dir)
	if !strings.Contains(stderr, "no verdict is written from an unbalanced set of rounds") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, f := range []string{compare.ComparisonFile, compare.ComparisonHTMLFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s written after the interruption (stat: %v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "baseline", "round-1", record.ReportFile)); err != nil {
		t.Errorf("the baseline's finished round is gone: %v", err)
	}
	wantManifest(t, dir, "ab")
}
