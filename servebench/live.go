package servebench

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// LiveRun is a run in progress. Its schedule is realized and saved before
// Start returns; warmup, dispatch and scoring go on in the background.
// Snapshot scores the records written so far, so a test can poll a run
// with Gomega's Eventually; Wait returns the finished result.
type LiveRun struct {
	cfg   RunConfig
	sched *schedule.Schedule
	dir   string
	sum   string

	mu sync.Mutex
	w  *record.Writer // nil until warmup has ended

	done chan struct{}
	res  *RunResult
	err  error
	// unload are the adapter loads Start did itself, undone when the run
	// is over.
	unload []report.AdapterLoad
	// cacheResetRoute is the route that emptied the engine's prefix
	// cache before the warmup; empty when the run did not reset it.
	cacheResetRoute string
}

// Start validates cfg, realizes and saves the schedule, and starts the run
// in the background. Errors in the configuration come back here; errors of
// the run itself come back from Wait.
func Start(ctx context.Context, cfg RunConfig) (*LiveRun, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	var loadedHere []report.AdapterLoad
	if len(cfg.LoRA.Load) > 0 && cfg.LoRA.Loaded == nil {
		loads, err := LoadAdapters(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		cfg.LoRA.Loaded, loadedHere = loads, loads
	}
	resetRoute, err := resetPrefixCache(ctx, cfg)
	if err != nil {
		return nil, errors.Join(err, unloadAfter(ctx, cfg, loadedHere))
	}
	dir, prepared, err := prepareSchedule(&cfg)
	if err != nil {
		return nil, errors.Join(err, unloadAfter(ctx, cfg, loadedHere))
	}
	l := &LiveRun{cfg: cfg, sched: prepared.sched, dir: dir, sum: prepared.sha256, done: make(chan struct{}), unload: loadedHere, cacheResetRoute: resetRoute}
	go l.background(ctx, prepared.plan)
	return l, nil
}

// background runs the run and closes done. The plan holds only counts:
// the dispatcher reads the entries back from schedule.json as it sends.
func (l *LiveRun) background(ctx context.Context, plan *dispatchPlan) {
	defer close(l.done)
	l.res, l.err = l.run(ctx, plan)
	l.err = errors.Join(l.err, unloadAfter(ctx, l.cfg, l.unload))
}

// unloadAfter unloads the adapters a run loaded itself, once it is over;
// the error says so.
func unloadAfter(ctx context.Context, cfg RunConfig, loads []report.AdapterLoad) error {
	if len(loads) == 0 {
		return nil
	}
	if err := UnloadAdapters(ctx, cfg, loads); err != nil {
		return fmt.Errorf("run: unloading the adapters it loaded: %w", err)
	}
	return nil
}

// Schedule is the run's realized schedule.
func (l *LiveRun) Schedule() *schedule.Schedule { return l.sched }

// Dir is the run directory.
func (l *LiveRun) Dir() string { return l.dir }

// Done is closed when the run has finished and been scored.
func (l *LiveRun) Done() <-chan struct{} { return l.done }

// Finished reports whether the run has finished and been scored.
func (l *LiveRun) Finished() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// Wait blocks until the run has finished and returns its result.
func (l *LiveRun) Wait() (*RunResult, error) {
	<-l.done
	return l.res, l.err
}

// Snapshot scores the records written so far, from the run directory, as
// the final scoring does. Requests with no terminal record yet (in flight
// or not yet due) count as offered and unqualified, and Report.Pending
// counts them, so the snapshot's attainment and Wilson bound can only rise
// as the run goes on. Once the run has finished, Snapshot returns the
// final report.
func (l *LiveRun) Snapshot() (*report.Report, error) {
	if l.Finished() {
		if l.res == nil || l.res.Report == nil {
			return nil, l.err
		}
		return l.res.Report, nil
	}
	l.mu.Lock()
	w := l.w
	l.mu.Unlock()
	var written int64
	lastTerminal := 0.0
	if w != nil {
		written, lastTerminal = w.Written(), w.LastTerminalMS()
	}
	return snapshotRunDir(l.dir, written, scoreOptionsFor(l.cfg, l.sched, lastTerminal))
}
