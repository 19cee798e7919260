package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
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
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":60,"ignore_eos":true}
{"id":"b","prompt":"list the pages","max_tokens":300,"ignore_eos":true}
`)
	dir := filepath.Join(t.TempDir(), "sweep")
	cmd := startCLI(context.Background(), "sweep", "--rates", "1,2", "--base-url", engine.BaseURL(), "--model", cfg.Model,
		"--endpoint", "completions", "--workload", wl, "--arrival", "constant", "--count", "1", "--skip-preflight",
		"--schedule-lag-tolerance", "1s", "--no-backlog-growth=false", "--output", dir, "--no-progress", "--format", "json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	busy := engine.Stats().Submitted
	waitFor(t, "the second rate with a request in flight", 60*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, "rate-2", servebench.OutcomesFile))
		return err == nil && engine.Stats().Submitted > busy && engine.Stats().Running > 0
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	select {
	case err := <-exited:
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != 143 {
			t.Fatalf("exit %v, want 143; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 60 s after SIGTERM; stderr:\n%s", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, sweepreport.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res sweepreport.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rates) != 2 || res.Rates[0].RateRPS != 1 || res.Rates[0].Verdict != "pass" ||
		res.Rates[1].RateRPS != 2 || res.Rates[1].Verdict != servebench.VerdictInterrupted {
		t.Fatalf("rates %+v, want 1 rps pass and 2 rps interrupted", res.Rates)
	}
	if res.KneeRPS == nil || *res.KneeRPS != 1 || res.FailingNeighborRPS != nil {
		t.Errorf("knee %v, failing neighbour %v: want 1 and none", res.KneeRPS, res.FailingNeighborRPS)
	}
	if _, err := os.Stat(filepath.Join(dir, "rate-1", servebench.ReportFile)); err != nil {
		t.Errorf("the finished rate's report is gone: %v", err)
	}
	wantManifest(t, dir, "sweep", sweepreport.HTMLFile, sweepreport.JSONFile)
}

// TestInterruptedABWritesNoComparison: SIGINT during the candidate's
// first round exits 130, keeps the baseline's finished round and writes
// no comparison (no verdict from an interrupted round), and the manifest
// lists what was written.
func TestInterruptedABWritesNoComparison(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command against a slow simulated engine")
	}
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":300,"ignore_eos":true}
`)
	fast := startSim(t, nil)
	dir := filepath.Join(t.TempDir(), "ab")
	cmd := startCLI(context.Background(), "ab", "--baseline-url", fast, "--candidate-url", engine.BaseURL(), "--model", cfg.Model,
		"--endpoint", "completions", "--workload", wl, "--arrival", "constant", "--rate", "1", "--count", "1", "--rounds", "1",
		"--skip-preflight", "--schedule-lag-tolerance", "1s", "--output", dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	waitFor(t, "the candidate's round with a request in flight", 60*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, "candidate", "round-1", servebench.OutcomesFile))
		return err == nil && engine.Stats().Running > 0
	})
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	select {
	case err := <-exited:
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 {
			t.Fatalf("exit %v, want 130; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 60 s after SIGINT; stderr:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "compare.json")); !os.IsNotExist(err) {
		t.Errorf("compare.json was written from an interrupted round (stat: %v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "baseline", "round-1", servebench.ReportFile)); err != nil {
		t.Errorf("the baseline's finished round is gone: %v", err)
	}
	wantManifest(t, dir, "ab")
}
