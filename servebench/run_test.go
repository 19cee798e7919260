package servebench_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// startEngine starts the simulated engine on loopback for one test.

func workloadOf(t *testing.T, rows string) *schedule.Workload {
	t.Helper()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(rows))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func clientFor(srv *simengine.Server) *openai.Client {
	return &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 20 * time.Second}
}

func constant(t *testing.T, rate float64) schedule.Arrival {
	t.Helper()
	a, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: rate})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRunWritesTheRunDirectoryAndScoresEveryRequest(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":8,"ignore_eos":true}
{"id":"b","prompt":"summarize the outage","max_tokens":8,"ignore_eos":true}
`),
		Arrival: constant(t, 50), Count: 10, Warmup: 2, Client: clientFor(srv), OutputDir: dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{record.ScheduleFile, record.OutcomesFile, record.WarmupFile, record.ReportFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory lacks %s: %v", f, err)
		}
	}
	onDisk, err := record.ReadOutcomes(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if len(onDisk) != 10 || len(res.Warmup) != 2 || r.Offered != 10 || r.ProtocolSuccesses != 10 {
		t.Fatalf("records %d, warmup %d, offered %d, successes %d; want 10, 2, 10, 10", len(onDisk), len(res.Warmup), r.Offered, r.ProtocolSuccesses)
	}
	for _, o := range onDisk {
		if o.OutputTokens == nil || *o.OutputTokens != 8 || o.SentMS == nil || o.FirstContentMS == nil {
			t.Fatalf("record %+v: want 8 output tokens (ignore_eos) and send and content times", o)
		}
	}
	// Ten arrivals at 50/s span ten 20 ms gaps.
	if r.WindowMS != [2]float64{0, 200} || r.Inputs.ScheduleSHA256 != res.ScheduleSHA256 || r.Inputs.OutcomesSHA256 == "" {
		t.Fatalf("window %v, inputs %+v", r.WindowMS, r.Inputs)
	}
	if r.Generator == nil || r.Generator.Sent != 10 || r.Generator.Mode != schedule.ModeOpen || r.Experiment == nil || r.Experiment.RunID != res.Schedule.RunID {
		t.Fatalf("generator %+v experiment %+v", r.Generator, r.Experiment)
	}
	// Ideal: 10 scheduled in a 0.2 s window. Delivered counts the sends
	// inside the window: all of them unless the generator fell behind.
	inWindow := 0
	for _, o := range onDisk {
		if *o.SentMS < 200 {
			inWindow++
		}
	}
	if g := r.Generator; *g.IdealRPS != 50 || *g.DeliveredRPS != float64(inWindow)/0.2 {
		t.Fatalf("ideal %v delivered %v, want 50 and %d sends in the window / 0.2 s", *g.IdealRPS, *g.DeliveredRPS, inWindow)
	}
}

func TestCancelledRunLeavesOneTerminalRecordPerScheduledRequest(t *testing.T) {
	// Slow decode (8 ms steps) and 64-token outputs keep requests in flight
	// when the run is cancelled; 40 arrivals at 20/s span two seconds, so
	// cancelling at 500 ms leaves some in flight and most never sent.
	srv := simengine.StartTest(t, nil)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res, err := servebench.Run(ctx, servebench.RunConfig{
		Workload: workloadOf(t, `{"prompt":"write the postmortem","max_tokens":64,"ignore_eos":true}`),
		Arrival:  constant(t, 20), Count: 40, Client: clientFor(srv), OutputDir: dir,
	})
	if err == nil || !strings.Contains(err.Error(), "cancel") && !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("error %v, want the cancellation", err)
	}
	onDisk, rerr := record.ReadOutcomes(filepath.Join(dir, record.OutcomesFile))
	if rerr != nil {
		t.Fatal(rerr)
	}
	seen := map[string]int{}
	counts := map[record.Status]int{}
	for _, o := range onDisk {
		seen[o.ID]++
		counts[o.Status]++
	}
	if len(onDisk) != 40 || len(seen) != 40 {
		t.Fatalf("%d records for %d ids, want exactly one for each of the 40 scheduled requests", len(onDisk), len(seen))
	}
	for _, e := range res.Schedule.Entries {
		if seen[e.ID] != 1 {
			t.Fatalf("entry %s has %d records", e.ID, seen[e.ID])
		}
	}
	if counts[record.StatusNotSent] < 20 || counts[record.StatusCancelled] == 0 {
		t.Fatalf("status counts %v: want in-flight requests cancelled and at least 20 never sent", counts)
	}
	if res.Report == nil || res.Report.Valid || res.Report.Offered != 40 {
		t.Fatalf("report %+v: a cancelled run is scored, with everything offered, and not valid", res.Report)
	}
}

func TestClosedLoopUsersWaitTheirThinkTime(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload:   workloadOf(t, `{"prompt":"status?","max_tokens":4,"ignore_eos":true}`),
		ClosedLoop: &schedule.ClosedLoop{Users: 2, ThinkTime: 30 * time.Millisecond}, Count: 6,
		Client: clientFor(srv), OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(outcomesOf(t, res)) != 6 || res.Report.Generator.Mode != schedule.ModeClosed {
		t.Fatalf("%d outcomes, mode %s", len(outcomesOf(t, res)), res.Report.Generator.Mode)
	}
	// Each request after a user's first is scheduled exactly 30 ms after
	// some earlier request of the run ended.
	ends := map[float64]bool{}
	for _, o := range outcomesOf(t, res) {
		ends[o.TerminalMS] = true
	}
	late := 0
	for _, o := range outcomesOf(t, res) {
		if o.ScheduledMS == 0 {
			continue
		}
		found := false
		for e := range ends {
			if math.Abs(o.ScheduledMS-(e+30)) < 0.002 {
				found = true
			}
		}
		if !found {
			late++
		}
	}
	if late != 0 {
		t.Fatalf("%d requests were not scheduled at a previous end plus the think time: %+v", late, outcomesOf(t, res))
	}
	if peak := res.Report.Generator.PeakOutstanding; peak > 2 {
		t.Fatalf("peak outstanding %d with 2 users", peak)
	}
}

func TestConversationTurnsFollowThePreviousAnswer(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"t1","messages":[{"role":"user","content":"what broke?"}],"max_tokens":4,"conversation":"c","turn":1}
{"id":"t2","messages":[{"role":"user","content":"what broke?"},{"role":"assistant","content":"the cache"},{"role":"user","content":"why?"}],"max_tokens":4,"conversation":"c","turn":2,"think_ms":40}
`),
		// One conversation in a 2 s window: its second turn, due 40 ms after
		// the first one's answer, falls inside the window however slowly a
		// loaded machine answers (at 10 req/s the 100 ms window left the
		// second turn out whenever the first took over 60 ms).
		Arrival: constant(t, 0.5), Count: 1,
		Client: &openai.Client{BaseURL: srv.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointChat,
			TotalTimeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]record.Outcome{}
	for _, o := range outcomesOf(t, res) {
		by[o.ID] = o
	}
	t1, t2 := by["t1"], by["t2"]
	if t1.Status != record.StatusSuccess || t2.Status != record.StatusSuccess {
		t.Fatalf("statuses %s %s", t1.Status, t2.Status)
	}
	if math.Abs(t2.ScheduledMS-(t1.TerminalMS+40)) > 0.002 || *t2.SentMS < t2.ScheduledMS {
		t.Fatalf("turn 2 scheduled at %.3f, sent at %.3f; turn 1 ended at %.3f (+40 ms think)", t2.ScheduledMS, *t2.SentMS, t1.TerminalMS)
	}
	if res.Report.Offered != 2 {
		t.Fatalf("offered %d, want both turns", res.Report.Offered)
	}
}

func TestConcurrencyCapIsMeasuredAndReported(t *testing.T) {
	srv := simengine.StartTest(t, nil) // 8 ms steps: 16 tokens take about 130 ms
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"prompt":"long answer","max_tokens":16,"ignore_eos":true}`),
		Arrival:  constant(t, 100), Count: 6, MaxConcurrency: 1,
		Client: clientFor(srv), OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Report.Generator
	if !g.CapBound || g.PeakOutstanding != 1 || g.MaxConcurrency != 1 {
		t.Fatalf("generator %+v: a cap of 1 under 100 req/s of 130 ms requests must bind", g)
	}
	q := res.Report.Percentiles[record.MetricClientQueue]
	if q.N != 6 || q.Max == nil || *q.Max < 300 {
		t.Fatalf("client queue %+v: the sixth request waits for five others (over 300 ms)", q)
	}
}
