package openai

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// deadlineKind names what a watchdog's timer ended.
type deadlineKind int32

const (
	deadlineNone deadlineKind = iota
	deadlineFirstToken
	deadlineIdle
	deadlineTotal
	// deadlineSettle bounds the reading that follows a decided outcome
	// (the rest of a body after [DONE], an error body); it never changes
	// the outcome.
	deadlineSettle
)

// timeoutKind maps a request deadline to the record's TimeoutKind.
func (k deadlineKind) timeoutKind() record.TimeoutKind {
	switch k {
	case deadlineFirstToken:
		return record.TimeoutFirstToken
	case deadlineIdle:
		return record.TimeoutIdle
	}
	return record.TimeoutTotal
}

// watchdog enforces one request's deadlines with a single lazily re-armed
// timer instead of a timer reset (or a goroutine) per event: the stream
// reader only stores the time of the latest line in an atomic, and when the
// timer fires it recomputes the earliest deadline from the current state,
// either cancelling the request or sleeping until that deadline. A stream
// that keeps arriving in time costs one timer wake-up per IdleTimeout, not
// one per event.
//
// Every instant is an offset from base, the moment the request was handed
// to the transport, stored plus one so that zero means "not yet".
type watchdog struct {
	base                    time.Time
	firstToken, idle, total time.Duration
	cancel                  context.CancelFunc

	sent     atomic.Int64 // d
	lastLine atomic.Int64 // the latest received stream line
	content  atomic.Bool  // first content has arrived
	settleBy atomic.Int64 // set once the outcome is decided
	fired    atomic.Int32 // the deadlineKind that cancelled the request
	firedAt  atomic.Int64 // when it did
	dueAt    atomic.Int64 // when that deadline was due

	mu      sync.Mutex // serializes arming the timer
	timer   *time.Timer
	stopped bool
}

// newWatchdog starts the deadlines of a request handed to the transport at
// base; cancel aborts the request.
func newWatchdog(base time.Time, firstToken, idle, total time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{base: base, firstToken: firstToken, idle: idle, total: total, cancel: cancel}
	w.mu.Lock()
	w.armLocked(0)
	w.mu.Unlock()
	return w
}

// now reads the monotonic clock alone, as base plus the time since it:
// time.Now reads the wall clock too, a second read that the stream's
// clock, stamping every read of the body, would pay for nothing. Every
// instant taken from now is used as a difference from another, which
// time.Time takes on the monotonic clock.
func (w *watchdog) now() time.Time { return w.base.Add(time.Since(w.base)) }

// offset is the time since base.
func (w *watchdog) offset(t time.Time) int64 { return int64(t.Sub(w.base)) }

// markSent records d.
func (w *watchdog) markSent(t time.Time) { w.sent.Store(w.offset(t) + 1) }

// markLine records that a stream line arrived at t.
func (w *watchdog) markLine(t time.Time) { w.lastLine.Store(w.offset(t) + 1) }

// markContent records that visible content has arrived.
func (w *watchdog) markContent() {
	if !w.content.Load() {
		w.content.Store(true)
	}
}

// settle declares the outcome decided at t: from now on only the settle
// deadline, within, applies.
func (w *watchdog) settle(t time.Time, within time.Duration) {
	w.settleBy.Store(w.offset(t) + int64(within) + 1)
	w.mu.Lock()
	w.armLocked(time.Since(w.base))
	w.mu.Unlock()
}

// stop ends the watchdog; the timer is not needed any more.
func (w *watchdog) stop() {
	w.mu.Lock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
}

// expired returns the request deadline that cancelled the request, when
// it fired and when it was due, or deadlineNone. A settle deadline is not
// reported.
func (w *watchdog) expired() (kind deadlineKind, firedAt, dueAt time.Time) {
	k := deadlineKind(w.fired.Load())
	if k == deadlineNone || k == deadlineSettle {
		return deadlineNone, time.Time{}, time.Time{}
	}
	return k, w.base.Add(time.Duration(w.firedAt.Load())), w.base.Add(time.Duration(w.dueAt.Load()))
}

// next returns the earliest pending deadline (offset from base).
func (w *watchdog) next() (deadlineKind, time.Duration) {
	if s := w.settleBy.Load(); s != 0 {
		return deadlineSettle, time.Duration(s - 1)
	}
	kind, at := deadlineNone, time.Duration(0)
	consider := func(k deadlineKind, t time.Duration) {
		if kind == deadlineNone || t < at {
			kind, at = k, t
		}
	}
	if w.total > 0 {
		consider(deadlineTotal, w.total)
	}
	if w.firstToken > 0 && !w.content.Load() {
		from := time.Duration(0)
		if s := w.sent.Load(); s != 0 {
			from = time.Duration(s - 1)
		}
		consider(deadlineFirstToken, from+w.firstToken)
	}
	if w.idle > 0 {
		if l := w.lastLine.Load(); l != 0 {
			consider(deadlineIdle, time.Duration(l-1)+w.idle)
		}
	}
	return kind, at
}

// check runs when the timer fires: it cancels the request if a deadline
// has passed, or re-arms the timer for the earliest one.
func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped || w.fired.Load() != 0 {
		return
	}
	w.armLocked(time.Since(w.base))
}

// armLocked fires or schedules the earliest deadline as seen at now.
func (w *watchdog) armLocked(now time.Duration) {
	if w.stopped || w.fired.Load() != 0 {
		return
	}
	kind, at := w.next()
	if kind != deadlineNone && at <= now {
		w.dueAt.Store(int64(at))
		w.firedAt.Store(int64(now))
		w.fired.Store(int32(kind))
		w.cancel()
		return
	}
	wake, ok := w.wakeAt(kind, at, now)
	if !ok {
		return // no deadline at all until settle arms one
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(wake-now, w.check)
	} else {
		w.timer.Reset(wake - now)
	}
}

// wakeAt is when the timer must look again, given the earliest pending
// deadline (kind at at) as seen at now; false when nothing is pending.
//
// The stream reader never re-arms the timer, so before the first line the
// idle deadline is not yet known: the timer then looks again at most one
// idle period later, whatever other deadline is pending. A line that
// arrives at l is therefore seen by a wake-up no later than l + idle, its
// deadline, and the idle deadline fires on time even beside a far longer
// total deadline.
func (w *watchdog) wakeAt(kind deadlineKind, at, now time.Duration) (time.Duration, bool) {
	if w.idle > 0 && w.settleBy.Load() == 0 && w.lastLine.Load() == 0 {
		poll := now + w.idle
		if kind == deadlineNone || poll < at {
			return poll, true
		}
	}
	return at, kind != deadlineNone
}
