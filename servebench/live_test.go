package servebench_test

import (
	"context"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
)

func TestLiveRunSnapshotsOnlyRise(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	live, err := servebench.Start(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"prompt":"status report","max_tokens":8,"ignore_eos":true}`),
		Arrival:  constant(t, 40), Count: 30, Client: clientFor(srv), OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	prevQualified, prevPending, snapshots := -1, 31, 0
	for !live.Finished() {
		rep, err := live.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		snapshots++
		if rep.Offered != 30 || rep.Qualified < prevQualified || rep.Pending > prevPending || rep.Qualified+rep.Pending > 30 {
			t.Fatalf("snapshot %d: offered %d qualified %d pending %d after qualified %d pending %d",
				snapshots, rep.Offered, rep.Qualified, rep.Pending, prevQualified, prevPending)
		}
		prevQualified, prevPending = rep.Qualified, rep.Pending
		time.Sleep(20 * time.Millisecond)
	}
	res, err := live.Wait()
	if err != nil {
		t.Fatal(err)
	}
	final, _ := live.Snapshot()
	if final != res.Report || final.Pending != 0 || final.Qualified != 30 {
		t.Fatalf("final snapshot %+v is not the finished report", final)
	}
	if snapshots < 5 {
		t.Fatalf("only %d snapshots over a 750 ms run", snapshots)
	}
}
