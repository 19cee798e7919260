package servebench_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunCancelledDuringWarmupLeavesAScorableDirectory: Ctrl-C while the
// warmup requests are still in flight ends the run with a scored, not
// valid report, and outcomes.jsonl beside schedule.json records every
// scheduled request as not_sent, so `score --run` works on the directory.
func TestRunCancelledDuringWarmupLeavesAScorableDirectory(t *testing.T) {
	arrived := make(chan struct{}, 4)
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		arrived <- struct{}{}
		w.StreamHeader()
		w.Sleep(5 * time.Second) // until the client goes away
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived // a warmup request is in flight
		cancel()
	}()
	res, err := servebench.Run(ctx, servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"p","max_tokens":4}
`),
		Arrival: constant(t, 10), Count: 5, Warmup: 2, OutputDir: t.TempDir(),
		Client: &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointCompletions},
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run error %v, want the cancellation", err)
	}
	if res == nil || res.Report == nil {
		t.Fatal("no report from a run cancelled during warmup")
	}
	if res.Report.Valid || res.Report.StatusCounts[record.StatusNotSent] != 5 {
		t.Errorf("valid %v, status counts %v, want all 5 not_sent", res.Report.Valid, res.Report.StatusCounts)
	}
	if len(res.Warmup) != 2 || res.Warmup[0].Status != record.StatusCancelled && res.Warmup[0].Status != record.StatusNotSent {
		t.Errorf("warmup records %+v", res.Warmup)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, record.OutcomesFile)); err != nil {
		t.Fatal(err)
	}
	rep, err := score.RunDir(res.Dir, score.Options{})
	if err != nil {
		t.Fatalf("score --run on the directory: %v", err)
	}
	if rep.Valid || !strings.Contains(strings.Join(rep.InvalidReasons, "; "), "5 of 5 offered requests were not sent") {
		t.Errorf("re-scored: valid %v, reasons %q", rep.Valid, rep.InvalidReasons)
	}
}
