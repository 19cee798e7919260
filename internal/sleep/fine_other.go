//go:build !linux

package sleep

import "time"

// fine sleeps until at. Elsewhere than Linux it is time.Sleep, whose
// resolution the platform decides.
func fine(at time.Time) {
	for {
		wait := time.Until(at)
		if wait <= 0 {
			return
		}
		time.Sleep(wait)
	}
}
