package schedule

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// MaxTimedClosedLoopUnits bounds the arrival units (single requests or
// sessions) a closed loop bounded by time realizes when it declares no
// count: its users stop taking new ones when they run out, before the
// deadline if the server answers faster than one request per user per
// millisecond on average.
const MaxTimedClosedLoopUnits = 1 << 18

// timedClosedLoopUnits is how many arrival units a closed loop bounded by
// time realizes: count when given, else one per user per millisecond of
// the duration, at most MaxTimedClosedLoopUnits.
func timedClosedLoopUnits(users, count int, d time.Duration) int {
	if count > 0 {
		return count
	}
	perUser := int64((d + time.Millisecond - 1) / time.Millisecond)
	if n := int64(users) * perUser; n < MaxTimedClosedLoopUnits {
		return int(max(n, 1))
	}
	return MaxTimedClosedLoopUnits
}

// realizeClosedLoop fixes a closed loop's header and arrivals. Every
// arrival's scheduled time is a placeholder that the run replaces: zero
// for a loop bounded by its count, the deadline for one bounded by time,
// so that the sessions its users never took lie outside its window.
func realizeClosedLoop(p Plan, s *Schedule, r *Realization) error {
	c := p.ClosedLoop
	switch {
	case c.Users < 1:
		return fmt.Errorf("schedule: a closed loop needs at least one user")
	case c.ThinkTime < 0:
		return fmt.Errorf("schedule: think time must not be negative")
	case p.Count < 1 && p.Duration <= 0:
		return fmt.Errorf("schedule: a closed loop needs a request count or a duration")
	}
	s.Mode = ModeClosed
	s.Arrival = ArrivalSpec{Process: ProcessClosed, Users: c.Users, ThinkTimeMS: record.Millis(c.ThinkTime)}
	if p.Duration <= 0 {
		r.offsets = make([]time.Duration, p.Count)
		s.Notes = append(s.Notes, "closed loop: each request is scheduled when its user is free again (previous end plus think time); the window closes at the last terminal outcome, and the offered rate is the users' realized rate, not an external arrival rate")
		return nil
	}
	r.offsets = make([]time.Duration, timedClosedLoopUnits(c.Users, p.Count, p.Duration))
	for i := range r.offsets {
		r.offsets[i] = p.Duration
	}
	s.Notes = append(s.Notes, fmt.Sprintf("closed loop bounded by time: each request is scheduled when its user is free again (previous end plus think time); at %s the users stop starting requests, the requests in flight finish, and the turns of a session still running are not sent (%s); the window is [0, %s), and the offered rate is the users' realized rate, not an external arrival rate",
		p.Duration, record.ReasonSessionTruncated, p.Duration))
	return nil
}
