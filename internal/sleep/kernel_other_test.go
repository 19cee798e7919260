//go:build !linux

package sleep

import "time"

// kernelSleep is time.Sleep outside Linux, where the benchmarks' kernel
// sleep has no nanosleep of its own.
func kernelSleep(at time.Time) {
	for wait := time.Until(at); wait > 0; wait = time.Until(at) {
		time.Sleep(wait)
	}
}
