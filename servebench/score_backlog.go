package servebench

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
	margin := max(2, 0.1*float64(secondHalf))
	b.Growing = float64(b.AtWindowEnd-b.AtWindowMid) > margin
	return &b
}

// outstandingAt reports whether a sent request was in flight at time t. A
// request with no terminal record is in flight from its send on.
func outstandingAt(rec *scoreRecord, t float64) bool {
	return *rec.sent <= t && (!rec.hasTerminal || rec.terminal > t)
}
