package score

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// backlogTally counts outstanding cohort requests (sent at or before t, not
// yet terminal at t) at the window's midpoint and at its end, and calls the
// backlog growing when the end count exceeds the midpoint count by more
// than max(2, 10% of the requests scheduled in the second half of the
// window).
//
// The margin comes from what growth means: with arrivals at rate λ and
// completions at rate μ < λ, outstanding work grows by about (λ − μ)·T/2
// over the second half of a window of length T, so the 10% rule flags a
// server that completes less than about 90% of what arrives. The floor of
// two keeps one or two slow requests at a low rate from reading as a
// growing queue. Requests the generator never sent are not the server's
// backlog and do not count (the report's validity covers them).
//
// The comparison assumes outstanding work had settled by the midpoint. It
// settles after about one request duration, so when the window's first half
// is shorter than the p90 duration (e - d) of the requests scheduled in the
// window's first quarter, a growing count is only the ramp-up of a short
// window: growth is then not judged, and the report says why. The first
// quarter's requests measure service time before any queue could build, so
// an overloaded server's ever longer requests do not hide its growth. It
// takes the records one at a time (add) and judges at the end (report).
type backlogTally struct {
	window     [2]float64
	mid, end   float64
	quarter    float64
	secondHalf int
	b          report.Backlog
}

func (t *backlogTally) start(window [2]float64) {
	t.window = window
	t.mid = (window[0] + window[1]) / 2
	t.end = window[1]
	t.quarter = window[0] + (window[1]-window[0])/4
}

// add counts one record; early collects the first quarter's durations.
func (t *backlogTally) add(rec *scoreRecord, early *population) {
	if rec.scheduled >= t.mid && rec.scheduled < t.end {
		t.secondHalf++
	}
	if rec.sent == nil {
		return
	}
	if outstandingAt(rec, t.mid) {
		t.b.AtWindowMid++
	}
	if outstandingAt(rec, t.end) {
		t.b.AtWindowEnd++
	}
	if rec.hasTerminal && rec.scheduled < t.quarter {
		early.add(rec.terminal - *rec.sent)
	}
}

// report judges growth once every record was counted.
func (t *backlogTally) report(early *population) (*report.Backlog, error) {
	b := t.b
	b.SecondHalfScheduled = t.secondHalf
	window, mid := t.window, t.mid
	p90, ok := 0.0, early.n > 0
	if ok {
		vs, err := early.selectRanks(percentileRanks(early.n, 90, stats.NearestRank))
		if err != nil {
			return nil, err
		}
		p90 = vs[0]
	}
	if !ok || mid-window[0] < p90 {
		b.Inconclusive = true
		b.Note = "not judged: no request scheduled in the window's first quarter ended, so service time is unknown"
		if ok {
			b.Note = fmt.Sprintf("not judged: the window's first half (%.0f ms) is shorter than the p90 request duration (%.0f ms), so outstanding work had not settled by the midpoint; lengthen the window", mid-window[0], p90)
		}
		return &b, nil
	}
	margin := max(2, 0.1*float64(t.secondHalf))
	b.Margin = &margin
	b.Growing = float64(b.AtWindowEnd-b.AtWindowMid) > margin
	return &b, nil
}

// outstandingAt reports whether a sent request was in flight at time t. A
// request with no terminal record is in flight from its send on.
func outstandingAt(rec *scoreRecord, t float64) bool {
	return *rec.sent <= t && (!rec.hasTerminal || rec.terminal > t)
}
