package servebench_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

func TestClosedLoopBoundedByTimeStopsAtTheDeadline(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload:   workloadOf(t, `{"prompt":"status?","max_tokens":4,"ignore_eos":true}`),
		ClosedLoop: &schedule.ClosedLoop{Users: 3, ThinkTime: 20 * time.Millisecond}, Duration: 300 * time.Millisecond,
		// The test judges the deadline, not a busy machine's punctuality.
		LagTolerance: time.Second,
		Client:       clientFor(srv), OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	rep, outs := res.Report, outcomesOf(t, res)
	if rep.WindowMS != [2]float64{0, 300} || !rep.Valid || rep.Offered != len(outs) || rep.ProtocolSuccesses != len(outs) {
		t.Fatalf("window %v, valid %v (%v), offered %d, successes %d, records %d; want [0, 300), valid, every record offered and answered",
			rep.WindowMS, rep.Valid, rep.InvalidReasons, rep.Offered, rep.ProtocolSuccesses, len(outs))
	}
	starts := 0
	for _, o := range outs {
		if o.Status != record.StatusSuccess || o.ScheduledMS >= 300 || o.SentMS == nil || *o.SentMS < o.ScheduledMS {
			t.Errorf("%s: %s scheduled at %v ms, sent at %v: want success, scheduled before the deadline", o.ID, o.Status, o.ScheduledMS, o.SentMS)
		}
		if o.ScheduledMS == 0 {
			starts++
		}
	}
	if starts != 3 || len(outs) <= 3 || rep.Generator.PeakOutstanding > 3 {
		t.Fatalf("%d users started at 0 ms, %d records, peak %d; want 3 users, more than one round, at most 3 in flight",
			starts, len(outs), rep.Generator.PeakOutstanding)
	}
}
