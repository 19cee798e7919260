package servebench_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// endCounter is an Observer that counts ended requests; a display would
// draw them instead.
type endCounter struct {
	scheduled int
	ended     atomic.Int64
}

func (c *endCounter) Started(n int)           { c.scheduled = n }
func (c *endCounter) Ended(o *record.Outcome) { c.ended.Add(1) }
func (c *endCounter) Finished() {
	fmt.Printf("%d of %d scheduled requests ended\n", c.ended.Load(), c.scheduled)
}

// An Observer watches a run as it goes: the core draws nothing itself.
func ExampleObserver() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":2}`))
	dir, _ := os.MkdirTemp("", "example-observer-")
	defer os.RemoveAll(dir)

	_, err = servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: servebench.Constant(50), Count: 4, OutputDir: dir, Observer: &endCounter{},
		Client: servebench.NewClient(engine.BaseURL(), cfg.Model),
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 4 of 4 scheduled requests ended
}

// Observers tells several observers of one run in turn; nil ones are
// skipped.
func ExampleObservers() {
	var log callLog
	obs := servebench.Observers(nil, &log)
	obs.Started(2)
	obs.Finished()
	fmt.Println(log.calls)
	// Output:
	// [started 2 finished]
}
