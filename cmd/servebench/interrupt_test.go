package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

func TestInterruptAtEveryPhaseLeavesAScorableRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command against a slow simulated engine")
	}
	engine, cfg := slowEngine(t)
	wl := writeWorkload(t, `{"id":"a","prompt":"write the incident summary","max_tokens":300,"ignore_eos":true}
{"id":"b","prompt":"list the pages","max_tokens":300,"ignore_eos":true}
`)
	for _, tc := range []struct {
		phase, file string
		warmup      string
		sig         syscall.Signal
		exit        int
	}{
		{"warmup", record.WarmupFile, "2", syscall.SIGINT, 130},
		{"measurement", record.OutcomesFile, "0", syscall.SIGTERM, 143},
	} {
		t.Run(tc.phase, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			busy := engine.Stats().Submitted
			stderr := interruptCLI(t, tc.sig, tc.exit, tc.phase+" with a request in flight", func() bool {
				_, err := os.Stat(filepath.Join(dir, tc.file))
				return err == nil && engine.Stats().Submitted > busy && engine.Stats().Running > 0
			}, "run", "--base-url", engine.BaseURL(), "--model", cfg.Model, "--endpoint", "completions",
				"--workload", wl, "--arrival", "constant", "--rate", "2", "--count", "6", "--warmup", tc.warmup,
				"--schedule-lag-tolerance", "1s", "--output", dir, "--no-progress", "--format", "json")
			if !strings.Contains(stderr, "ending the requests in flight") {
				t.Errorf("stderr does not acknowledge the signal:\n%s", stderr)
			}
			code, stdout, errOut := runCLI("score", "--format", "json", "--run", dir, "--requests", filepath.Join(t.TempDir(), "requests.jsonl"))
			if code != 2 {
				t.Fatalf("score --run: exit %d, want 2; stderr:\n%s", code, errOut)
			}
			var rep report.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			sent, entries := 0, 0
			err := rep.EachRequest(func(q *report.RequestScore) error {
				entries++
				if q.SentMS != nil {
					sent++
				}
				return nil
			})
			// Every one of the 6 offered requests is accounted for, and at
			// least the last was never sent.
			if err != nil || rep.Offered != 6 || rep.Valid || rep.StatusCounts[record.StatusNotSent] == 0 || entries != 6 {
				t.Fatalf("offered %d, valid %v, not_sent %d, %d requests (%d sent), %v", rep.Offered, rep.Valid,
					rep.StatusCounts[record.StatusNotSent], entries, sent, err)
			}
		})
	}
}

func TestInterruptDuringThePreflightWritesNothing(t *testing.T) {
	// An engine whose generation never answers: the probe hangs until the
	// client goes away.
	probing := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"m"}]}`))
			return
		}
		// Reading the body lets the server notice when the client goes.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case probing <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	}))
	t.Cleanup(srv.Close)
	dir := filepath.Join(t.TempDir(), "run")
	cmd := startCLI(context.Background(), "run", "--base-url", srv.URL, "--model", "m", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "2", "--count", "2", "--output", dir, "--no-progress")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-probing:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no probe request within 30 s; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted during the preflight: nothing was sent or written") {
		t.Fatalf("exit %v, stderr:\n%s", err, stderr.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the run directory exists (stat: %v)", err)
	}
}
