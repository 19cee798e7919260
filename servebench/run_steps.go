package servebench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/servebench/servebench/internal/fdtable"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// run is the background part of a run, step by step: warmup, the
// measurement (the dispatch of plan with the side channels around it),
// scoring, the report's completion, and its files.
func (l *LiveRun) run(ctx context.Context, plan *dispatchPlan) (*RunResult, error) {
	res := &RunResult{Dir: l.dir, Schedule: l.sched, ScheduleSHA256: l.sum}
	wallStart := time.Now()
	if err := l.warmUp(ctx, res); err != nil {
		return nil, err
	}
	w, err := l.openOutcomes()
	if err != nil {
		return nil, err
	}
	// Grown inside the window, the descriptor table would stall every
	// request due during each growth. Failing to grow it only leaves
	// that cost in place, which the schedule lag then reports.
	_, _ = fdtable.Reserve(fdtable.DefaultReserve)
	if err := waitForStart(ctx, l.cfg.StartAt); err != nil {
		_ = w.Close()
		return nil, err
	}
	side := l.channels(plan)
	d := l.measure(ctx, plan, w, side)
	writeErr := w.Close()
	if d.planErr != nil {
		// schedule.json, which the run wrote, could not be read back: what
		// was sent is recorded, but the run cannot be scored.
		return res, errors.Join(d.planErr, writeErr)
	}
	rep, err := l.score(res, d, w.LastTerminalMS(), wallStart)
	if err != nil {
		return res, fmt.Errorf("run: score: %w", err)
	}
	side.fill(rep)
	l.completeReport(rep, d, writeErr)
	res.Report = rep
	return res, runError(ctx, writeErr, l.writeReport(res))
}

// warmUp sends the warmup requests, when the run has any, into
// res.Warmup and checks them. A run interrupted in its warmup goes on, so
// that every scheduled request is recorded as not sent and the run still
// scores.
func (l *LiveRun) warmUp(ctx context.Context, res *RunResult) error {
	if l.cfg.Warmup <= 0 {
		return nil
	}
	var err error
	res.Warmup, err = warmup(ctx, l.cfg, l.sched.RunID, filepath.Join(l.dir, record.WarmupFile))
	switch {
	case ctx.Err() != nil:
		return nil
	case err != nil:
		return fmt.Errorf("run: warmup: %w", err)
	}
	if err := checkWarmup(res.Warmup); err != nil {
		return fmt.Errorf("run: warmup: %w", err)
	}
	return nil
}

// openOutcomes creates outcomes.jsonl's writer, which Snapshot reads from
// then on.
func (l *LiveRun) openOutcomes() (*record.Writer, error) {
	w, err := record.CreateWriter(filepath.Join(l.dir, record.OutcomesFile), l.cfg.outcomeSink)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	l.mu.Lock()
	l.w = w
	l.mu.Unlock()
	return w, nil
}

// measure is the measurement: plan dispatched to w, with the side
// channels started right before and stopped right after.
func (l *LiveRun) measure(ctx context.Context, plan *dispatchPlan, w *record.Writer, channels sideChannels) *dispatcher {
	d := newDispatcher(l.cfg, l.sched, plan, w)
	channels.start(ctx)
	d.run(ctx)
	channels.stop(context.WithoutCancel(ctx))
	return d
}

// score scores the measured run with the generator's self-observation,
// and completes a shard's timing with what the scorer found.
func (l *LiveRun) score(res *RunResult, d *dispatcher, lastTerminalMS float64, wallStart time.Time) (*report.Report, error) {
	gen := d.report()
	gen.Shard = shardTiming(l.sched, l.cfg.StartAt, d.start)
	// Every stream has ended: its buffers are garbage, in spans sized for
	// them that the scorer's allocations cannot reuse. Collect them and
	// give their pages back before scoring, so that the run's peak
	// resident set is the larger of the two phases', not their sum.
	debug.FreeOSMemory()
	rep, err := scoreRun(l.cfg, l.sched, res, gen, lastTerminalMS, int(d.sentInWindow.Load()), wallStart)
	if err != nil {
		return nil, err
	}
	if t := gen.Shard; t != nil {
		t.Sent, t.MaxScheduleLagMS, t.LateCount = gen.Sent, rep.MaxScheduleLagMS, rep.LateCount
	}
	return rep, nil
}

// completeReport adds what the run knows beside its side channels: the
// dispatch's clock origin, the adapter loads, and an outcome file that
// could not be written (writeErr), which makes the report not valid.
func (l *LiveRun) completeReport(rep *report.Report, d *dispatcher, writeErr error) {
	if rep.Experiment != nil && !d.start.IsZero() {
		rep.Experiment.ClockOrigin = d.start.UTC().Format(time.RFC3339Nano)
	}
	rep.SetAdapterLoads(l.cfg.LoRA.Loaded)
	setCacheState(rep, l.cfg, l.cacheResetRoute)
	if writeErr != nil {
		markOutcomeWriteFailure(rep, writeErr)
	}
}

// writeReport writes the run's report files in order, stopping at the
// first that fails: report.txt, report.html, report.json (with every
// request's entry when the run keeps them) and the artifacts, which read
// report.json.
func (l *LiveRun) writeReport(res *RunResult) error {
	rep := res.Report
	if err := render.TextFile(filepath.Join(l.dir, record.ReportTextFile), rep); err != nil {
		return err
	}
	if err := render.HTMLFile(filepath.Join(l.dir, record.ReportHTMLFile), rep); err != nil {
		return err
	}
	if l.cfg.KeepRequests {
		if err := rep.LoadRequests(); err != nil {
			return err
		}
	}
	if err := writeJSONFile(filepath.Join(l.dir, record.ReportFile), rep); err != nil {
		return err
	}
	return writeArtifacts(l.cfg.Artifacts, res)
}

// runError is a scored run's error: an outcome file that could not be
// written (writeErr, joined with reportErr), else a report file that
// could not be written, else a cancellation, after which the run is still
// complete and scored.
func runError(ctx context.Context, writeErr, reportErr error) error {
	switch {
	case writeErr != nil:
		return errors.Join(fmt.Errorf("run stopped at once: the outcome file could not be written: %w", writeErr), reportErr)
	case reportErr != nil:
		return fmt.Errorf("run: %w", reportErr)
	case ctx.Err() != nil:
		return fmt.Errorf("run cancelled, every request recorded: %w", ctx.Err())
	}
	return nil
}
