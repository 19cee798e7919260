package main

import (
	"context"
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
	"github.com/servebench/servebench/servebench/compare"
)

// SIGINT while round 1's candidate run is in flight: the finished baseline
// run stays on disk, and no verdict is written from the unbalanced round.
func TestABInterruptedKeepsFinishedRunsAndWritesNoVerdict(t *testing.T) {
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
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":100,"ignore_eos":true}
`)
	out := filepath.Join(t.TempDir(), "ab")
	cmd := startCLI(context.Background(), "ab", "--baseline-url", engine.BaseURL(), "--candidate-url", engine.BaseURL(),
		"--model", cfg.Model, "--endpoint", "completions", "--workload", wl, "--arrival", "constant", "--rate", "2",
		"--count", "2", "--rounds", "2", "--schedule-lag-tolerance", "1s", "--tolerance", "e2e_p50=50%", "--output", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	waitFor(t, "round 1's candidate run in flight", 60*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(out, "candidate", "round-1", servebench.OutcomesFile))
		return err == nil
	})
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	select {
	case err := <-exited:
		if !errors.As(err, &exitErr) || exitErr.ExitCode() == 0 || exitErr.ExitCode() == 5 || exitErr.ExitCode() == 6 {
			t.Fatalf("exit %v, want an interruption, not a verdict; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 60 s after SIGINT; stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "no verdict is written from an unbalanced set of rounds") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "baseline", "round-1", servebench.ReportFile)); err != nil {
		t.Errorf("the finished baseline run was not kept: %v", err)
	}
	for _, f := range []string{compare.ComparisonFile, compare.ComparisonHTMLFile} {
		if _, err := os.Stat(filepath.Join(out, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s written after the interruption (stat: %v)", f, err)
		}
	}
}
