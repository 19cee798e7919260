package servebench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/servebench/servebench/servebench/enginemetrics"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
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
}

// Start validates cfg, realizes and saves the schedule, and starts the run
// in the background. Errors in the configuration come back here; errors of
// the run itself come back from Wait.
func Start(ctx context.Context, cfg RunConfig) (*LiveRun, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	var loadedHere []report.AdapterLoad
	if len(cfg.LoadAdapters) > 0 && cfg.AdapterLoads == nil {
		loads, err := LoadAdapters(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		cfg.AdapterLoads, loadedHere = loads, loads
	}
	dir, prepared, err := prepareSchedule(&cfg)
	if err != nil {
		return nil, errors.Join(err, unloadAfter(ctx, cfg, loadedHere))
	}
	l := &LiveRun{cfg: cfg, sched: prepared.sched, dir: dir, sum: prepared.sha256, done: make(chan struct{}), unload: loadedHere}
	go l.background(ctx, prepared.plan)
	return l, nil
}

// background runs the run and closes done. Nothing but the dispatcher
// keeps the plan, so it is garbage before the run is scored.
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

// run is the background part of a run: warmup, dispatch of plan, scoring.
func (l *LiveRun) run(ctx context.Context, plan *dispatchPlan) (*RunResult, error) {
	res := &RunResult{Dir: l.dir, Schedule: l.sched, ScheduleSHA256: l.sum}
	wallStart := time.Now()
	var err error
	if l.cfg.Warmup > 0 {
		res.Warmup, err = warmup(ctx, l.cfg, l.sched.RunID, filepath.Join(l.dir, record.WarmupFile))
		switch {
		case ctx.Err() != nil:
			// Interrupted in warmup: go on, so that every scheduled
			// request is recorded as not sent and the run still scores.
		case err != nil:
			return nil, fmt.Errorf("run: warmup: %w", err)
		default:
			if err := checkWarmup(res.Warmup); err != nil {
				return nil, fmt.Errorf("run: warmup: %w", err)
			}
		}
	}
	w, err := record.CreateWriter(filepath.Join(l.dir, record.OutcomesFile), l.cfg.outcomeSink)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	l.mu.Lock()
	l.w = w
	l.mu.Unlock()
	if err := waitForStart(ctx, l.cfg.StartAt); err != nil {
		_ = w.Close()
		return nil, err
	}
	before := l.scrape(ctx)
	backendsBefore := enginemetrics.ScrapeEach(ctx, l.cfg.BackendMetricsURLs)
	sampler := l.startSampler(ctx)
	backendSamplers := l.startBackendSamplers(ctx)
	stopGPU := startGPUSampling(ctx, l.cfg.GPUSampler)
	d := newDispatcher(l.cfg, l.sched, plan, w)
	d.run(ctx)
	gpu := stopGPU()
	series := sampler.StopIfStarted()
	backendSeries := enginemetrics.StopSamplers(backendSamplers)
	after := l.scrape(context.WithoutCancel(ctx))
	backendsAfter := enginemetrics.ScrapeEach(context.WithoutCancel(ctx), l.cfg.BackendMetricsURLs)
	writeErr := w.Close()
	gen := d.report()
	gen.Shard = shardTiming(l.sched, l.cfg.StartAt, d.start)
	rep, err := scoreRun(l.cfg, l.sched, res, gen, w.LastTerminalMS(), wallStart)
	if err != nil {
		return res, fmt.Errorf("run: score: %w", err)
	}
	if t := gen.Shard; t != nil {
		t.Sent, t.MaxScheduleLagMS, t.LateCount = gen.Sent, rep.MaxScheduleLagMS, rep.LateCount
	}
	rep.EngineMetrics = l.engineMetrics(before, after)
	rep.SetEnginePrefixCacheHitRate(rep.EngineMetrics.PrefixCacheHitRate())
	rep.BackendMetrics = enginemetrics.Backends(l.cfg.BackendMetricsURLs, backendsBefore, backendsAfter, backendSeries)
	rep.AttachEngineSeries(series)
	if rep.Experiment != nil && !d.start.IsZero() {
		rep.Experiment.ClockOrigin = d.start.UTC().Format(time.RFC3339Nano)
	}
	gpu.AttributeWork(rep)
	rep.GPUTelemetry = gpu
	rep.SetAdapterLoads(l.cfg.AdapterLoads)
	if writeErr != nil {
		markOutcomeWriteFailure(rep, writeErr)
	}
	res.Report = rep
	reportErr := render.HTMLFile(filepath.Join(l.dir, record.ReportHTMLFile), rep)
	if reportErr == nil && l.cfg.KeepRequests {
		reportErr = rep.LoadRequests()
	}
	if reportErr == nil {
		reportErr = writeJSONFile(filepath.Join(l.dir, record.ReportFile), rep)
	}
	if reportErr == nil {
		reportErr = writeArtifacts(l.cfg.Artifacts, res)
	}
	if writeErr != nil {
		return res, errors.Join(fmt.Errorf("run stopped at once: the outcome file could not be written: %w", writeErr), reportErr)
	}
	if reportErr != nil {
		return res, fmt.Errorf("run: %w", reportErr)
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("run cancelled, every request recorded: %w", ctx.Err())
	}
	return res, nil
}

// scrape reads the engine's metrics when the run declares where they are.
func (l *LiveRun) scrape(ctx context.Context) enginemetrics.Scrape {
	if l.cfg.MetricsURL == "" {
		return enginemetrics.Scrape{}
	}
	return enginemetrics.ScrapeOnce(ctx, l.cfg.MetricsURL)
}

// engineMetrics compares the scrapes taken around the measurement.
func (l *LiveRun) engineMetrics(before, after enginemetrics.Scrape) *report.EngineMetrics {
	if l.cfg.MetricsURL == "" {
		return nil
	}
	return enginemetrics.Between(l.cfg.MetricsURL, before, after)
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
