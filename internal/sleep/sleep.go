// Package sleep waits until an instant on the monotonic clock, closer to it
// than a Go timer alone, without holding a processor while it waits.
//
// A Go timer wakes its goroutine from the runtime's scheduler: on a busy
// processor, which checks its timers at every switch, within microseconds,
// and the woken goroutine runs next; on an idle one, whose network poller
// waits with a resolution of one millisecond on Linux, up to about 1.1 ms
// late. For a load generator that lateness is schedule lag that the engine
// did not cause.
//
// A sleep in the kernel (nanosleep) ends within tens of microseconds of the
// instant, but the goroutine holds its processor through the system call
// until the runtime's monitor takes it back (20 µs to 10 ms later): on a
// client pinned to one core that stalls every other goroutine, the request
// the dispatcher has just started and the stream readers alike, and the
// sleeper itself, back from the call without a processor, waits in the
// global run queue. Until therefore never sleeps in the kernel.
//
// Until finishes every wait on an alarm: on Linux a timerfd armed for the
// instant, read through the runtime's network poller with a read deadline
// at the same instant. The goroutine is parked, holding no processor; an
// idle processor's poller wakes when the timerfd fires, with the kernel
// timer's precision, and a busy processor fires the deadline as it fires
// any timer. A wait of up to alarmWithin goes to the alarm at once, so
// that it costs one wake; a longer one waits on the timer until a margin
// before the instant first, so that a cancelled context is seen within
// alarmWithin. Elsewhere, and when no alarm can be had, the timer finishes
// the wait. It never returns before the instant.
package sleep

import (
	"context"
	"time"
)

// margin is how long before the instant the timer hands over to the
// alarm: more than the timer's lateness, so that the timer never
// overshoots.
const margin = 2 * time.Millisecond

// alarmWithin is the longest wait that goes to the alarm without the
// timer first. Each stage of a wait is a park and a wake, and on an idle
// processor a wake is a thread's return from the kernel: at 300 requests
// a second, a dispatcher whose every wait had both stages spent about
// 0.07 ms more CPU per request than one whose waits had one (loadcheck
// pair -preset 300rps, docs/performance.md). An alarm's wait does not
// watch the context, so this is also how late a cancellation may be seen.
const alarmWithin = 20 * time.Millisecond

// alarmSlots bounds the alarms kept (one file descriptor each): a run's
// dispatcher needs one, and a closed loop's users or a conversation's later
// turns one each while they finish a wait; the others finish on their
// timer.
const alarmSlots = 8

// alarms holds the alarms not in use.
var alarms = make(chan *alarm, alarmSlots)

// Until waits until at or until ctx is done, and reports whether ctx is
// still live. timer is the caller's, reused between calls; Until resets it,
// and whatever state it is left in does not matter to the next call.
func Until(ctx context.Context, timer *time.Timer, at time.Time) bool {
	wait := time.Until(at)
	if wait <= 0 {
		return ctx.Err() == nil
	}
	if wait > alarmWithin {
		if !onTimer(ctx, timer, wait-margin) {
			return false
		}
	} else if ctx.Err() != nil {
		return false
	}
	if a := takeAlarm(); a != nil {
		err := a.wait(at)
		putAlarm(a)
		if err == nil {
			return ctx.Err() == nil
		}
	}
	if wait := time.Until(at); wait > 0 {
		if !onTimer(ctx, timer, wait) {
			return false
		}
	}
	return ctx.Err() == nil
}

// takeAlarm takes a free alarm, or makes one while fewer than alarmSlots
// exist; nil when none can be had.
func takeAlarm() *alarm {
	select {
	case a := <-alarms:
		return a
	default:
	}
	return newAlarm()
}

// putAlarm gives a back for the next wait (or closes it when the free
// alarms are full).
func putAlarm(a *alarm) {
	select {
	case alarms <- a:
	default:
		a.close()
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
