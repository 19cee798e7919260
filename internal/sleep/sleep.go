// Package sleep waits until an instant on the monotonic clock, closer to it
// than a Go timer alone.
//
// A Go timer wakes its goroutine through the runtime's network poller, whose
// wait has a resolution of one millisecond on Linux: on an idle processor a
// timer fires up to about 1.1 ms late (0.6 ms at the median on a 2-core
// machine). For a load generator that lateness is schedule lag that the
// engine did not cause. A sleep in the kernel (nanosleep, on a
// high-resolution timer) ends within tens of microseconds of the instant,
// but the goroutine must then win a processor back: on a processor kept
// busy by a thousand stream readers it waits in the global run queue,
// milliseconds to tens of milliseconds, while a timer's goroutine is run
// next and a busy processor checks its timers at every switch.
//
// Until therefore waits on the timer until a margin before the instant and
// finishes the wait the way that has lately been the less late: each wait
// measures how late it ended, a moving average is kept for each way, and
// one wait in exploreEvery goes the other way so that both stay current.
// It never returns before the instant.
package sleep

import (
	"context"
	"sync/atomic"
	"time"
)

// margin is how long before the instant the timer hands over to the fine
// wait: more than the timer's lateness, so that the timer never overshoots.
const margin = 2 * time.Millisecond

// exploreEvery: one wait in this many finishes the other way than the
// less late one, to measure it again. It is rare enough that the waits it
// makes late stay under a percent.
const exploreEvery = 256

// fineSlots bounds how many goroutines sleep in the kernel at once (each
// holds an operating-system thread for at most margin); the others finish
// on their timer.
var fineSlots = make(chan struct{}, 8)

// finish names the two ways to end a wait.
const (
	finishTimer = iota
	finishKernel
)

// lateness holds, per way of finishing, a moving average of how late its
// waits ended (ns, an exponential average with weight 1/8). Both start at
// zero, and the kernel is tried first.
var (
	lateness [2]atomic.Int64
	waits    atomic.Uint64
)

// Until waits until at or until ctx is done, and reports whether ctx is
// still live. timer is the caller's, reused between calls; Until resets it,
// and whatever state it is left in does not matter to the next call.
func Until(ctx context.Context, timer *time.Timer, at time.Time) bool {
	wait := time.Until(at)
	if wait <= 0 {
		return ctx.Err() == nil
	}
	if wait > margin && !onTimer(ctx, timer, wait-margin) {
		return false
	}
	way := chooseFinish()
	if way == finishKernel {
		select {
		case fineSlots <- struct{}{}:
			fine(at)
			<-fineSlots
			observe(finishKernel, time.Since(at))
			return ctx.Err() == nil
		default:
		}
	}
	if wait := time.Until(at); wait > 0 {
		if !onTimer(ctx, timer, wait) {
			return false
		}
		observe(finishTimer, time.Since(at))
	}
	return ctx.Err() == nil
}

// chooseFinish picks the way to end this wait: the less late lately,
// except once in exploreEvery waits.
func chooseFinish() int {
	best := finishKernel
	if lateness[finishTimer].Load() < lateness[finishKernel].Load() {
		best = finishTimer
	}
	if waits.Add(1)%exploreEvery == 0 {
		return 1 - best
	}
	return best
}

// observe adds a wait that ended late after the instant to way's average.
func observe(way int, late time.Duration) {
	avg := &lateness[way]
	old := avg.Load()
	avg.Store(old + (int64(late)-old)/8)
}

// onTimer waits wait on timer, or until ctx is done; it reports whether
// the wait ran out (not cancelled).
func onTimer(ctx context.Context, timer *time.Timer, wait time.Duration) bool {
	timer.Reset(wait)
	select {
	case <-ctx.Done():
		timer.Stop()
		return false
	case <-timer.C:
		return true
	}
}
