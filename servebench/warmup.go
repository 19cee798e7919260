package servebench

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// warmup sends cfg.Warmup requests (the workload's first rows, cycled) and
// waits for all of them, with at most MaxConcurrency in flight. Their
// records go to path on their own clock; they are never part of the cohort.
//
// A cancelled ctx ends the warmup early without an error: the run goes on
// to write outcomes.jsonl, where every scheduled request is recorded as
// not_sent, so that a run interrupted during its warmup leaves a scorable
// directory; the run reports the cancellation itself.
func warmup(ctx context.Context, cfg RunConfig, runID, path string) ([]record.Outcome, error) {
	w, err := record.CreateWriter(path, nil)
	if err != nil {
		return nil, err
	}
	w.Keep = true
	limit := cfg.MaxConcurrency
	if limit == 0 || limit > cfg.Warmup {
		limit = cfg.Warmup
	}
	slots := make(chan struct{}, limit)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range cfg.Warmup {
		req := &cfg.Workload.Requests[i%len(cfg.Workload.Requests)]
		id := "warmup-" + strconv.Itoa(i+1)
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return w.Outcomes(), w.Close()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			out := &record.Outcome{ID: id, Attempt: 1, Class: req.Class, ScheduledMS: record.Millis(time.Since(start))}
			out.SlotMS = new(out.ScheduledMS)
			cfg.sender().Do(ctx, start, req, runID+"/"+id+"/1", out)
			_ = w.Write(out)
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		return nil, err
	}
	return w.Outcomes(), nil
}
