package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A redirected stderr (a file, a pipe, a buffer) gets no progress frames:
// only the run's closing lines, without a carriage return.
func TestRunCommandWritesNoProgressFramesToAStderrThatIsNotATerminal(t *testing.T) {
	url := startSim(t, nil)
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	var stdout bytes.Buffer
	code := dispatch([]string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "6",
		"--schedule-lag-tolerance", "2s", "--output", filepath.Join(t.TempDir(), "run")}, &stdout, errFile)
	stderr, err := os.ReadFile(errFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if bytes.ContainsRune(stderr, '\r') || bytes.Contains(stderr, []byte("requests")) {
		t.Fatalf("stderr holds progress frames:\n%q", stderr)
	}
	if !strings.HasPrefix(string(stderr), "run directory: ") {
		t.Fatalf("stderr %q; want only the run directory line", stderr)
	}
}

func TestProgressIsShownOnlyOnATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if newProgress(&bytes.Buffer{}) != nil || newProgress(f) != nil {
		t.Fatal("a buffer or a regular file got a progress bar")
	}
}

// The bar itself, drawn into a buffer standing in for a terminal, counts
// every ended request.
func TestProgressBarCountsEndedRequests(t *testing.T) {
	var term bytes.Buffer
	p := &progressBar{w: &term}
	p.Started(3)
	for range 3 {
		p.Ended(nil)
	}
	if p.bar.State().CurrentNum != 3 {
		t.Fatalf("bar at %d of 3", p.bar.State().CurrentNum)
	}
	p.Finished()
	if !strings.Contains(term.String(), "requests") {
		t.Fatalf("the bar drew nothing: %q", term.String())
	}
}
