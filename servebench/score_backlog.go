package servebench

import (
	"fmt"
	"slices"

	"github.com/servebench/servebench/servebench/stats"
)

// backlogOf counts outstanding cohort requests (sent at or before t, not
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
// an overloaded server's ever longer requests do not hide its growth.
func backlogOf(window [2]float64, recs []scoreRecord) *Backlog {
	mid := (window[0] + window[1]) / 2
	end := window[1]
	var b Backlog
	secondHalf := 0
	for i := range recs {
		rec := &recs[i]
		if rec.scheduled >= mid && rec.scheduled < end {
			secondHalf++
		}
		if rec.sent == nil {
			continue
		}
		if outstandingAt(rec, mid) {
			b.AtWindowMid++
		}
		if outstandingAt(rec, end) {
			b.AtWindowEnd++
		}
	}
	p90, ok := earlyDurationP90(window, recs)
	if !ok || mid-window[0] < p90 {
		b.Inconclusive = true
		b.Note = "not judged: no request scheduled in the window's first quarter ended, so service time is unknown"
		if ok {
			b.Note = fmt.Sprintf("not judged: the window's first half (%.0f ms) is shorter than the p90 request duration (%.0f ms), so outstanding work had not settled by the midpoint; lengthen the window", mid-window[0], p90)
		}
		return &b
	}
	margin := max(2, 0.1*float64(secondHalf))
	b.Growing = float64(b.AtWindowEnd-b.AtWindowMid) > margin
	return &b
}

// earlyDurationP90 is the nearest-rank p90 of e - d over the sent requests
// scheduled in the window's first quarter.
func earlyDurationP90(window [2]float64, recs []scoreRecord) (float64, bool) {
	quarter := window[0] + (window[1]-window[0])/4
	var d []float64
	for i := range recs {
		if recs[i].sent != nil && recs[i].hasTerminal && recs[i].scheduled < quarter {
			d = append(d, recs[i].terminal-*recs[i].sent)
		}
	}
	slices.Sort(d)
	return stats.Percentile(d, 90, stats.NearestRank)
}

// outstandingAt reports whether a sent request was in flight at time t. A
// request with no terminal record is in flight from its send on.
func outstandingAt(rec *scoreRecord, t float64) bool {
	return *rec.sent <= t && (!rec.hasTerminal || rec.terminal > t)
}
