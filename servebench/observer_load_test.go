package servebench_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// loadLog is a callLog that is also a LoadObserver.
type loadLog struct{ callLog }

func (l *loadLog) LoadPoint(a schedule.ArrivalSpec) {
	l.add(fmt.Sprintf("load %s %g", a.Process, a.RateRPS))
}
func (l *loadLog) Due(class string) { l.add("due " + class) }

// count counts the calls that start with prefix.
func (c *callLog) count(prefix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, s := range c.calls {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}

// A run cancelled half-way still calls Due once per scheduled request
// before its Ended, so due minus ended (the outstanding work) ends at 0;
// Observers passes LoadPoint and Due to the observers that take them.
func TestLoadObserverBalancesDueAndEndedInACancelledRun(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	load, plain := &loadLog{}, &callLog{}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, _ := servebench.Run(ctx, servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","class":"chat","prompt":"check the pager","max_tokens":4,"ignore_eos":true}
`),
		Arrival: constant(t, 10), Count: 20, Client: clientFor(srv), OutputDir: t.TempDir(),
		Observer: servebench.Observers(plain, nil, load),
	})
	if res == nil || res.Report == nil {
		t.Fatal("no result")
	}
	if res.Report.StatusCounts[record.StatusNotSent] == 0 {
		t.Fatalf("the run was not cut short: %v", res.Report.StatusCounts)
	}
	if got := load.calls[0]; got != "load constant 10" {
		t.Errorf("first call %q, want the load point", got)
	}
	if due, ended := load.count("due chat"), load.count("ended "); due != 20 || ended != 20 {
		t.Errorf("due %d, ended %d; want 20 each", due, ended)
	}
	if plain.count("ended ") != 20 || plain.count("due") != 0 {
		t.Errorf("the plain observer: %d ends, %d dues; want 20 and none", plain.count("ended "), plain.count("due"))
	}
}
