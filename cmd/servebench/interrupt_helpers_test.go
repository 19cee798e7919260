package main

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
)

// waitFor polls cond every 10 ms until it holds or the deadline passes.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: still waiting for %s", limit, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// slowEngine starts a simulated engine at time scale 1 (8 ms decode
// steps): a 300-token answer takes about 2.4 s, long enough to be
// interrupted in.
func slowEngine(t *testing.T) (*simengine.Server, simengine.Config) {
	t.Helper()
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	return engine, cfg
}

// interruptCLI runs the command in its own process, sends sig once
// inFlight holds (what names that moment), and requires it to exit with
// want within a minute. It returns the command's stderr. The limits are
// generous: they bound a hang, they do not time the command.
func interruptCLI(t *testing.T, sig syscall.Signal, want int, what string, inFlight func() bool, args ...string) string {
	t.Helper()
	cmd := startCLI(context.Background(), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	waitFor(t, what, 60*time.Second, inFlight)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	select {
	case err := <-exited:
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != want {
			t.Fatalf("exit %v, want %d (interrupted by %v); stderr:\n%s", err, want, sig, stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 60 s after %v; stderr:\n%s", sig, stderr.String())
	}
	return stderr.String()
}
