package sleep

import (
	"syscall"
	"time"
)

// kernelSleep sleeps in the kernel until at (nanosleep, repeated when a
// signal interrupts it): the finish Until no longer uses, kept for the
// benchmarks' comparison.
func kernelSleep(at time.Time) {
	for {
		wait := time.Until(at)
		if wait <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(wait))
		_ = syscall.Nanosleep(&ts, nil)
	}
}
