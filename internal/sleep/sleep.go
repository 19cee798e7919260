// Package sleep waits until an instant on the monotonic clock, closer to it
// than a Go timer alone.
//
// A Go timer wakes its goroutine through the runtime's network poller, whose
// wait has a resolution of one millisecond on Linux: a timer fires up to
// about 1.1 ms late even on an idle machine (0.6 ms at the median on a
// 2-core machine). For a load generator that lateness is schedule lag that
// the engine did not cause. Until waits on the timer until a margin before
// the instant, then sleeps the rest in the kernel (nanosleep, on a
// high-resolution timer), where the platform has one; it never returns
// before the instant.
package sleep

import (
	"context"
	"time"
)

// margin is how long before the instant the timer hands over to the fine
// wait: more than the timer's lateness, so that the timer never overshoots.
const margin = 2 * time.Millisecond

// fineSlots bounds how many goroutines sleep in the kernel at once (each
// holds an operating-system thread for at most margin); the others finish
// on their timer.
var fineSlots = make(chan struct{}, 8)

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
	select {
	case fineSlots <- struct{}{}:
		fine(at)
		<-fineSlots
		return ctx.Err() == nil
	default:
		if wait := time.Until(at); wait > 0 {
			return onTimer(ctx, timer, wait)
		}
		return ctx.Err() == nil
	}
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
