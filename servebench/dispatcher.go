package servebench

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/servebench/servebench/internal/sleep"
	"github.com/servebench/servebench/servebench/quality"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// dispatcher sends a schedule's requests at their scheduled times on the
// monotonic clock, independently of completions (open loop), or as a fixed
// population of users (closed loop). It guarantees one terminal record per
// scheduled entry.
type dispatcher struct {
	cfg   RunConfig
	sched *schedule.Schedule // the header: mode, run ID, closed-loop users
	plan  *dispatchPlan
	units *planReader
	w     *record.Writer
	start time.Time

	recorded onceBits
	slots    chan struct{}
	// load is cfg.Observer when it is a LoadObserver.
	load        LoadObserver
	outstanding atomic.Int64
	peak        atomic.Int64
	sent        atomic.Int64
	// sentInWindow counts the requests sent before windowEndMS, the end of
	// the window the run is scored over, for the delivered rate.
	sentInWindow atomic.Int64
	windowEndMS  float64
	// deadline is when the users of a closed loop bounded by time stop
	// starting requests (zero otherwise); the arrival units its users
	// took (units.taken) are the only ones the run sends or records.
	deadline   time.Time
	capWaitMax atomic.Int64 // nanoseconds
	// planErr is what stopped the plan being read back from its file.
	planErr error
	// promptTokens totals the prompt tokens the engine reported for the
	// requests sent.
	promptTokens promptTokenTotal
	schedBefore  *metrics.Float64Histogram
	schedAfter   *metrics.Float64Histogram
	wg           sync.WaitGroup
}

// newDispatcher sends plan, the entries of the schedule whose header is s.
func newDispatcher(cfg RunConfig, s *schedule.Schedule, plan *dispatchPlan, w *record.Writer) *dispatcher {
	d := &dispatcher{cfg: cfg, sched: s, plan: plan, w: w, windowEndMS: s.WindowMS[1]}
	if cfg.Score.WindowMS != nil {
		d.windowEndMS = cfg.Score.WindowMS[1]
	} else if s.WindowCoversSessions {
		d.windowEndMS = math.Inf(1) // the window closes after the last round
	}
	d.load, _ = cfg.Observer.(LoadObserver)
	d.recorded = newOnceBits(plan.Len())
	if cfg.MaxConcurrency > 0 {
		d.slots = make(chan struct{}, cfg.MaxConcurrency)
	}
	return d
}

// run dispatches the whole schedule and returns when every entry has a
// terminal record, or, when the outcome file cannot be written, once the
// dispatch has stopped and the requests in flight have ended. The run's
// side channels (the Observer's Started and Finished among them) start
// right before it and stop right after it.
func (d *dispatcher) run(ctx context.Context) {
	ctx, stop := d.stopOnWriteError(ctx)
	defer stop()
	d.units = d.plan.read()
	d.units.ready()
	d.schedBefore = schedLatencySnapshot()
	d.start = time.Now()
	if d.timed() {
		d.deadline = d.start.Add(record.FromMillis(d.sched.WindowMS[1]))
	}
	if d.sched.Mode == schedule.ModeClosed {
		d.runClosed(ctx)
	} else {
		d.runOpen(ctx)
	}
	d.wg.Wait()
	d.units.close()
	d.planErr = d.units.Err()
	d.schedAfter = schedLatencySnapshot()
	d.recordUnsent()
}

// stopOnWriteError derives the dispatch's context: it is cancelled the
// moment a record cannot be written (a full disk), so that nothing more is
// sent and the requests in flight end at once. stop releases it.
func (d *dispatcher) stopOnWriteError(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		select {
		case <-d.w.Failed():
			cancel(fmt.Errorf("the outcome file could not be written, the run was stopped: %w", d.w.Err()))
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// runOpen sends each unit's first request at its scheduled time, on
// goroutines kept between units (unitWorkers). It returns when the last
// unit has ended.
func (d *dispatcher) runOpen(ctx context.Context) {
	workers := newUnitWorkers(func(u planUnit, at time.Time) { d.runUnit(ctx, u, at) })
	defer workers.close()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		u, ok := d.units.next()
		if !ok {
			return
		}
		at := d.start.Add(record.FromMillis(u.entries[0].scheduledMS))
		if !sleep.Until(ctx, timer, at) {
			return
		}
		workers.start(u, at)
	}
}

// runClosed runs the users: each takes the next unit when it is free again
// and sends it a think time after its previous request ended. In a loop
// bounded by time a user takes no unit due at or after the deadline.
func (d *dispatcher) runClosed(ctx context.Context) {
	think := record.FromMillis(d.sched.Arrival.ThinkTimeMS)
	for range d.sched.Arrival.Users {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			free, first := d.start, true
			for {
				at := free
				if !first {
					at = free.Add(think)
				}
				if d.pastDeadline(at) || ctx.Err() != nil {
					return
				}
				u, ok := d.units.next()
				if !ok {
					return
				}
				first = false
				free = d.runUnit(ctx, u, at)
			}
		}()
	}
}

// timed says whether the schedule is a closed loop bounded by time.
func (d *dispatcher) timed() bool {
	return d.sched.Mode == schedule.ModeClosed && d.sched.WindowMS[1] > 0
}

// pastDeadline says whether a request due at at comes at or after the
// deadline of a closed loop bounded by time.
func (d *dispatcher) pastDeadline(at time.Time) bool {
	return !d.deadline.IsZero() && !at.Before(d.deadline)
}

// runUnit sends the requests of a unit in turn: the first at at, each
// later turn its think time after the previous one ended. It returns when
// the last request ended.
//
// A conversation whose turn did not succeed goes no further: its later
// turns are recorded as not_sent with that cause. Under engine history each
// later turn carries the engine's answers to the earlier ones.
func (d *dispatcher) runUnit(ctx context.Context, u planUnit, at time.Time) time.Time {
	var timer *time.Timer
	conv := conversation{engine: d.cfg.engineHistory() && len(u.entries) > 1}
	for k := range u.entries {
		e, idx := &u.entries[k], u.first+k
		if why := conv.stopped(); why != "" {
			d.turnNotSent(idx, e, why)
			continue
		}
		if k > 0 {
			at = at.Add(record.FromMillis(e.thinkMS))
			if d.pastDeadline(at) {
				d.truncate(u, k, at)
				return at
			}
		}
		if time.Until(at) > 0 {
			if timer == nil {
				timer = time.NewTimer(time.Hour)
				defer timer.Stop()
			}
			if !sleep.Until(ctx, timer, at) {
				return at
			}
		}
		if ctx.Err() != nil {
			return at
		}
		at = d.send(ctx, idx, e, at, &conv, k+1 < len(u.entries))
	}
	return at
}

// turnNotSent records a later turn of a conversation that stopped.
func (d *dispatcher) turnNotSent(idx int, e *planEntry, why string) {
	if d.load != nil {
		tellDue(d.load, e.class, e.adapter)
	}
	d.notSent(idx, e, &record.Outcome{ID: e.id, Attempt: 1, Class: e.class, Adapter: e.adapter, ScheduledMS: record.Millis(time.Since(d.start)),
		Reason: record.ReasonConversationStopped}, why)
}

// truncate records the turns of unit u from its k-th on, a session still
// running at the deadline of a closed loop bounded by time, as not sent:
// never due inside the window, scheduled at due (the first of them) or the
// deadline.
func (d *dispatcher) truncate(u planUnit, k int, due time.Time) {
	for ; k < len(u.entries); k++ {
		e := &u.entries[k]
		d.notSent(u.first+k, e, &record.Outcome{ID: e.id, Attempt: 1, Class: e.class, Adapter: e.adapter, ScheduledMS: record.Millis(due.Sub(d.start)),
			Reason: record.ReasonSessionTruncated}, "never sent: its session was still running at the closed loop's deadline")
		due = d.deadline
	}
}

// send makes one attempt at entry idx (e), scheduled at at, a turn of
// conv (later: another turn follows it), records it, and returns its
// terminal instant.
func (d *dispatcher) send(ctx context.Context, idx int, e *planEntry, at time.Time, conv *conversation, later bool) time.Time {
	row := d.cfg.Workload.EntryRequest(e.id, e.row)
	req := conv.request(row, later)
	out := &record.Outcome{ID: e.id, Attempt: 1, Class: e.class, Adapter: e.adapter, ScheduledMS: record.Millis(at.Sub(d.start))}
	if out.Adapter != "" {
		if req == row {
			sent := *req
			req = &sent
		}
		req.Adapter = out.Adapter
	}
	if d.load != nil {
		tellDue(d.load, out.Class, out.Adapter)
	}
	if d.slots != nil {
		select {
		case d.slots <- struct{}{}:
			defer func() { <-d.slots }()
		case <-ctx.Done():
			return d.notSent(idx, e, out, "run cancelled while waiting for a client concurrency slot")
		}
	}
	slot := time.Now()
	out.SlotMS = new(record.Millis(slot.Sub(d.start)))
	if wait := int64(slot.Sub(at)); d.slots != nil {
		atomicMax(&d.capWaitMax, wait)
	}
	atomicMax(&d.peak, d.outstanding.Add(1))
	d.cfg.sender().Do(ctx, d.start, req, d.requestID(out.ID), out)
	d.outstanding.Add(-1)
	if out.SentMS != nil {
		d.sent.Add(1)
		if *out.SentMS < d.windowEndMS {
			d.sentInWindow.Add(1)
		}
		d.promptTokens.add(out.PromptTokens)
	}
	conv.ended(out.ID, req.KeepText, d.cfg.keepsText() || row.Expect != nil, out)
	if exp := e.expect; exp != nil && out.Status == record.StatusSuccess {
		out.Quality = quality.Judge(exp, quality.Response{
			Text: deref(out.Text), ToolCalls: out.ToolCalls, FinishReason: out.FinishReason, OutputTokens: out.OutputTokens,
		})
	}
	d.record(idx, out)
	return d.start.Add(record.FromMillis(out.TerminalMS))
}

// requestID is the X-Request-Id that joins engine logs to outcome records.
func (d *dispatcher) requestID(id string) string {
	return d.sched.RunID + "/" + id + "/1"
}

// notSent records entry idx (e) as never sent, with the media its request
// would have sent (so the breakdown counts it under its modality).
func (d *dispatcher) notSent(idx int, e *planEntry, out *record.Outcome, why string) time.Time {
	now := time.Now()
	out.Status, out.Error = record.StatusNotSent, why
	row := d.cfg.Workload.EntryRequest(out.ID, e.row)
	out.SetMedia(record.MediaOf(row))
	out.ReusablePromptTokens = row.ReusablePromptTokens
	out.TerminalMS = record.Millis(now.Sub(d.start))
	d.record(idx, out)
	return now
}

// record writes entry idx's terminal record, once.
func (d *dispatcher) record(idx int, out *record.Outcome) {
	if !d.recorded.set(idx) {
		return
	}
	_ = d.w.Write(out) // the writer keeps its first error for Close
	if d.cfg.Observer != nil {
		d.cfg.Observer.Ended(out)
	}
}

// recordUnsent gives every entry that never got a record a not_sent one:
// no scheduled request disappears, whatever stopped the run. The entries
// are read from the plan's file once more.
func (d *dispatcher) recordUnsent() {
	owned := d.entriesOwned()
	r := d.plan.read()
	defer r.close()
	for {
		u, ok := r.next()
		if !ok || u.first >= owned {
			break
		}
		for k := range u.entries {
			e, i := &u.entries[k], u.first+k
			if d.recorded.has(i) {
				continue
			}
			if d.load != nil {
				tellDue(d.load, e.class, e.adapter)
			}
			d.notSent(i, e, &record.Outcome{ID: e.id, Attempt: 1, Class: e.class, Adapter: e.adapter, ScheduledMS: e.scheduledMS},
				"never sent: the run ended (cancelled or a previous turn could not proceed) before its time")
		}
	}
	if err := r.Err(); err != nil && d.planErr == nil {
		d.planErr = err
	}
}

// entriesOwned is the number of entries the run owes a record: all of
// them, except in a closed loop bounded by time, where the units its users
// never took (they come first in order) are not part of the run.
func (d *dispatcher) entriesOwned() int {
	if !d.timed() || d.allTaken() {
		return d.plan.Len()
	}
	return int(d.units.takenEntries.Load())
}

// allTaken says whether every arrival unit was handed out.
func (d *dispatcher) allTaken() bool { return int(d.units.taken.Load()) >= d.plan.units }

// report describes how the generator kept its schedule; the scorer adds
// the lag statistics.
func (d *dispatcher) report() *report.GeneratorReport {
	g := &report.GeneratorReport{
		Mode:             d.sched.Mode,
		Scheduled:        d.entriesOwned(),
		Sent:             int(d.sent.Load()),
		MaxConcurrency:   d.cfg.MaxConcurrency,
		PeakOutstanding:  int(d.peak.Load()),
		History:          d.cfg.TurnHistory.OrDefault(),
		PromptTokensSent: d.promptTokens.report(),
	}
	tol := record.FromMillis(d.sched.ScheduleLagToleranceMS)
	if d.slots != nil && time.Duration(d.capWaitMax.Load()) > tol {
		g.CapBound = true
		g.Notes = append(g.Notes, "the client concurrency cap bound: requests waited up to "+
			strconv.FormatFloat(record.Millis(time.Duration(d.capWaitMax.Load())), 'f', 1, 64)+" ms for a slot")
	}
	if d.timed() && d.allTaken() {
		g.Notes = append(g.Notes, "the users took all "+strconv.Itoa(d.plan.units)+
			" arrivals the closed loop's schedule holds: some users stopped before the deadline")
	}
	if p99, ok := schedLatencyQuantile(d.schedBefore, d.schedAfter, 0.99); ok {
		g.SchedulerLatencyP99MS = &p99
	}
	return g
}

// atomicMax raises a to v if v is larger.
func atomicMax(a *atomic.Int64, v int64) {
	for {
		cur := a.Load()
		if v <= cur || a.CompareAndSwap(cur, v) {
			return
		}
	}
}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
