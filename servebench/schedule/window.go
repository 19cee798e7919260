package schedule

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// checkWindowEnd refuses an arrival window that rounds to zero (a rate so
// high that every arrival falls on the same nanosecond) or that overflows
// the latest time a schedule holds (a rate so low that one gap outlasts
// it), before anything is sent.
func checkWindowEnd(end time.Duration, offsets []time.Duration) error {
	arrivals := len(offsets)
	for _, at := range offsets {
		if at < 0 {
			return fmt.Errorf("schedule: an arrival time overflows; raise the rate or bound the count")
		}
	}
	switch {
	case end <= 0:
		return fmt.Errorf("schedule: the arrival window of %d arrivals rounds to zero at nanosecond resolution; lower the rate", arrivals)
	case record.Millis(end) > record.MaxTimeMS:
		return fmt.Errorf("schedule: the arrival window ends past %s; raise the rate or bound the duration", record.MaxTimeText)
	}
	return nil
}
