package sleep

import (
	"syscall"
	"time"
)

// fine sleeps in the kernel until at. nanosleep measures CLOCK_MONOTONIC,
// the clock Go's monotonic readings come from, and is interrupted by the
// runtime's own signals, so it is repeated until at has passed.
func fine(at time.Time) {
	for {
		wait := time.Until(at)
		if wait <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(wait))
		_ = syscall.Nanosleep(&ts, nil)
	}
}
