package score

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// sessionTally judges the conversations whole. It keeps state only for
// the sessions that are open: a session opens at its first scored turn and
// closes when all its schedule entries were scored. A session whose turns
// are not all scored (a later turn outside the window) stays open until
// finish. Records may come in any order (the streamed scorer reads them in
// outcomes.jsonl order, where sessions interleave), so the state is
// bounded by the sessions open at once, not by the run. The truncated turns
// of a closed loop bounded by time lie outside the window (never due inside
// it, so not offered); the scorers hand them over apart (markTruncated).
type sessionTally struct {
	// length counts the schedule entries of the session whose first turn
	// is entry first; nil when the schedule has no conversation.
	length func(first int) int
	open   map[int]*openSession
	result report.Sessions
}

// openSession is what is known of a session while its turns are scored.
type openSession struct {
	length, scored      int
	first, ended        bool
	qualified, truncate bool
}

// newSessionTally starts a tally; length nil means no conversation.
func newSessionTally(length func(first int) int) sessionTally {
	return sessionTally{length: length, open: map[int]*openSession{}}
}

// add scores one turn: session is the index of its session's first turn
// (-1 for none), qualified its verdict.
func (t *sessionTally) add(rec *scoreRecord, qualified bool) {
	if t.length == nil || rec.session < 0 {
		return
	}
	if rec.truncated {
		t.markTruncated(rec.session) // offered all the same: inside the window
		return
	}
	s := t.open[rec.session]
	if s == nil {
		s = &openSession{length: t.length(rec.session), ended: true, qualified: true}
		t.open[rec.session] = s
	}
	s.first = s.first || rec.turn == "1"
	s.qualified = s.qualified && qualified
	s.ended = s.ended && rec.hasTerminal && rec.status != record.StatusNotSent
	s.scored++
	if s.scored >= s.length {
		t.close(s, true)
		delete(t.open, rec.session)
	}
}

// markTruncated counts a turn outside the window that was not sent
// because a closed loop's deadline came (record.ReasonSessionTruncated):
// not offered, but it truncates its session.
func (t *sessionTally) markTruncated(first int) {
	if t.length == nil || first < 0 {
		return
	}
	s := t.open[first]
	if s == nil {
		s = &openSession{length: t.length(first), ended: true, qualified: true}
		t.open[first] = s
	}
	s.scored++
	s.truncate = true
	if s.scored >= s.length {
		t.close(s, true)
		delete(t.open, first)
	}
}

// close counts a session; whole says every one of its turns was scored.
func (t *sessionTally) close(s *openSession, whole bool) {
	if !s.first {
		return // its first turn was not offered
	}
	r := &t.result
	r.Offered++
	switch {
	case s.truncate:
		r.Truncated++
		return
	case s.ended && whole:
		r.Completed++
	}
	if s.qualified {
		r.Qualified++
	}
}

// report closes the sessions still open and returns the verdict; nil when
// the schedule has no conversation.
func (t *sessionTally) report(confidence float64) *report.Sessions {
	if t.length == nil {
		return nil
	}
	for _, s := range t.open {
		t.close(s, false)
	}
	clear(t.open)
	r := t.result
	if n := r.Judged(); n > 0 {
		r.Attainment = new(float64(r.Qualified) / float64(n))
		if lo, ok := stats.WilsonLower(r.Qualified, n, confidence); ok {
			r.WilsonLower = new(lo)
		}
	}
	return &r
}
