package servebench_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
)

// callLog is an Observer that writes down every call in order.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (c *callLog) add(s string) { c.mu.Lock(); c.calls = append(c.calls, s); c.mu.Unlock() }

func (c *callLog) Started(n int)           { c.add(fmt.Sprintf("started %d", n)) }
func (c *callLog) Ended(o *record.Outcome) { c.add("ended " + o.ID + " " + string(o.Status)) }
func (c *callLog) Finished()               { c.add("finished") }

func TestObserverSeesEveryScheduledRequestEndOnceBetweenStartedAndFinished(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	log := &callLog{}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":4,"ignore_eos":true}
`),
		Arrival: constant(t, 50), Count: 5, Warmup: 1, Client: clientFor(srv), OutputDir: t.TempDir(),
		Observer: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Warmup requests are not scheduled entries: the observer sees the 5
	// measured requests only.
	if len(log.calls) != 7 || log.calls[0] != "started 5" || log.calls[6] != "finished" {
		t.Fatalf("calls %q; want started 5, five ends, finished", log.calls)
	}
	var want []string
	for _, o := range outcomesOf(t, res) {
		want = append(want, "ended "+o.ID+" "+string(o.Status))
	}
	got := slices.Clone(log.calls[1:6])
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("ended calls %q; want one per outcome %q", got, want)
	}
}
