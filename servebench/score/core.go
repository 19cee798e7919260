package score

import (
	"fmt"
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// scoreRecords scores the cohort's records (one per offered request, in
// schedule order) in memory: every request entry and raw sample is kept in
// the Report. It cannot fail; the inputs were checked by the caller.
func scoreRecords(set scoreSetup, recs []scoreRecord, shape runShape) *report.Report {
	t := newScoreTally(set, true)
	t.shape(shape)
	requests := make([]report.RequestScore, len(recs))
	for i := range recs {
		t.add(&recs[i], &requests[i])
	}
	r, err := t.finish()
	if w := t.steadyWindow; err == nil && w != nil {
		for i := range recs {
			w.add(&recs[i])
		}
		r.SteadyState, err = w.report(set.method, r.HorizonMS)
	}
	if err != nil {
		// Only a population's temporary file can fail, and with every
		// sample kept in memory the counts stay below the spill cap...
		// unless they do not: say so rather than report a wrong value.
		panic(fmt.Sprintf("score: %v", err))
	}
	r.Requests = requests
	return r
}

// attainmentKind says what attainment measures: performance alone when no
// successful response was judged for quality, performance and quality when
// every one was, and partial quality otherwise. (Only a successful response
// can qualify, so the judgments of failed requests do not change the kind.)
func attainmentKind(judgedSuccesses, successes int) string {
	switch {
	case judgedSuccesses == 0:
		return "performance"
	case judgedSuccesses == successes:
		return "performance+quality"
	}
	return "performance+partial-quality"
}

// sloLimits are the declared bounds in milliseconds; 0 is not declared.
type sloLimits struct {
	ttft, tpot, e2e float64
	fromScheduled   bool
}

// requestMeasures are one request's derived times; a has-flag is false when
// the measure is undefined.
type requestMeasures struct {
	lag, clientQueue                   float64
	hasContent                         bool
	ttft, ttftFromScheduled, lastToken float64
	hasTPOT                            bool
	tpot, tpotSpan                     float64 // tpotSpan is l − f, which TPOT divides by n − 1
	hasE2E                             bool
	e2e                                float64
	hasMaxGap                          bool
	maxGap                             float64
}

// measure derives a request's times from its clocks.
func measureRecord(rec *scoreRecord) requestMeasures {
	var m requestMeasures
	if rec.slot != nil {
		m.clientQueue = msBetween(rec.scheduled, *rec.slot)
	}
	if rec.sent == nil {
		return m
	}
	d := *rec.sent
	m.lag = msBetween(rec.scheduled, d)
	if rec.firstSent != nil {
		m.lag = msBetween(rec.scheduled, *rec.firstSent)
	}
	if rec.hasTerminal {
		m.hasE2E = true
		m.e2e = msBetween(d, rec.terminal)
	}
	k := len(rec.content)
	if k == 0 {
		return m
	}
	f, l := rec.content[0], rec.content[k-1]
	m.hasContent = true
	m.ttft = msBetween(d, f)
	m.ttftFromScheduled = msBetween(rec.scheduled, f)
	m.lastToken = msBetween(d, l)
	if k >= 2 {
		m.hasMaxGap = true
		for j := 1; j < k; j++ {
			m.maxGap = max(m.maxGap, msBetween(rec.content[j-1], rec.content[j]))
		}
		if rec.outputTokens != nil && *rec.outputTokens > 1 {
			m.hasTPOT = true
			m.tpotSpan = msBetween(f, l)
			m.tpot = m.tpotSpan / float64(*rec.outputTokens-1)
		}
	}
	return m
}

// judge lists the criteria a request failed; none means it qualified. A
// request that did not succeed fails on its status alone: its latencies
// are not judged. A successful one fails quality on a failed judgment (an
// unscored one passes, and the report's attainment kind says so) and each
// declared latency bound its value exceeds. The TPOT bound does not apply
// to a single-token response, and an undefined TPOT on a longer response
// (or one of unknown length) fails it. The second result marks the
// latency criteria that failed because their value was not measurable
// rather than above the bound.
func judgeRecord(rec *scoreRecord, m *requestMeasures, lim sloLimits, arena *reasonArena) ([]report.Reason, unmeasured) {
	if rec.status != record.StatusSuccess {
		return arena.list(report.ReasonStatus), 0
	}
	var buf [4]report.Reason // quality, ttft, tpot, e2e at most
	out := buf[:0]
	var none unmeasured
	if rec.quality == qualityFail {
		out = append(out, report.ReasonQuality)
	}
	if lim.ttft > 0 {
		v := m.ttft
		if lim.fromScheduled {
			v = m.ttftFromScheduled
		}
		if !m.hasContent {
			none |= unmeasuredTTFT
		}
		if !m.hasContent || v > lim.ttft {
			out = append(out, report.ReasonTTFT)
		}
	}
	if lim.tpot > 0 && !singleToken(rec) {
		// (l − f)/(n − 1) > bound is judged as l − f > bound·(n − 1): the
		// quotient is inexact (240.3 / 3 is 80.10000000000001), while the
		// product of a microsecond bound and a count rounds back exactly.
		if !m.hasTPOT {
			none |= unmeasuredTPOT
			out = append(out, report.ReasonTPOT)
		} else if m.tpotSpan > record.RoundMS(lim.tpot*float64(*rec.outputTokens-1)) {
			out = append(out, report.ReasonTPOT)
		}
	}
	if lim.e2e > 0 && (!m.hasE2E || m.e2e > lim.e2e) {
		if !m.hasE2E {
			none |= unmeasuredE2E
		}
		out = append(out, report.ReasonE2E)
	}
	if len(out) == 0 {
		return reasonsNone, 0
	}
	return arena.list(out...), none
}

// singleToken reports whether a record's response is known to hold one
// token, to which the TPOT bound does not apply.
func singleToken(rec *scoreRecord) bool {
	return rec.outputTokens != nil && *rec.outputTokens == 1
}

// unmeasured marks the latency criteria a request failed because their
// value was undefined, one bit per criterion.
type unmeasured uint8

const (
	unmeasuredTTFT unmeasured = 1 << iota
	unmeasuredTPOT
	unmeasuredE2E
)

// has reports whether reason failed as not measurable.
func (u unmeasured) has(reason report.Reason) bool {
	switch reason {
	case report.ReasonTTFT:
		return u&unmeasuredTTFT != 0
	case report.ReasonTPOT:
		return u&unmeasuredTPOT != 0
	case report.ReasonE2E:
		return u&unmeasuredE2E != 0
	}
	return false
}

// reasonsNone is every qualified request's reason list, so that JSON shows
// [] rather than null without an allocation per request. It has no
// capacity, so appending to it never writes into it.
var reasonsNone = []report.Reason{}

// reasonArena carves the reason lists of failed requests out of shared
// chunks: a million failed requests cost a few hundred allocations rather
// than a million. Each list is capped at its own length, so appending to
// one never writes into another.
type reasonArena struct{ free []report.Reason }

// list returns a copy of rs from the arena.
func (a *reasonArena) list(rs ...report.Reason) []report.Reason {
	if cap(a.free)-len(a.free) < len(rs) {
		a.free = make([]report.Reason, 0, 4096)
	}
	start := len(a.free)
	a.free = append(a.free, rs...)
	return a.free[start:len(a.free):len(a.free)]
}

// msBetween is to − from in milliseconds, rounded to the nanosecond so that
// the difference of two microsecond-resolution times compares exactly
// against a bound (1050.1 − 750.1 is 300, not 300.00000000000006).
func msBetween(from, to float64) float64 {
	return record.RoundMS(to - from)
}

// fluidityTally sums fluidity over requests.
type fluidityTally struct {
	deadlines, missed, requests int
	indexSum                    exactSum
}

func (t *fluidityTally) add(f fluidityResult) {
	t.deadlines += f.deadlines
	t.missed += f.missed
	if idx, ok := f.fluidityIndex(); ok {
		t.indexSum.add(idx)
		t.requests++
	}
}

func (t *fluidityTally) report(rule FluidityRule) *report.FluidityReport {
	fr := &report.FluidityReport{
		FirstTokenDeadlineMS: record.Millis(rule.FirstTokenDeadline),
		CadenceMS:            record.Millis(rule.Cadence),
		MissedDeadlines:      t.missed,
		Deadlines:            t.deadlines,
	}
	if t.requests > 0 {
		fr.Index = new(t.indexSum.value() / float64(t.requests))
	}
	return fr
}

// sortFloat64s sorts a population once, in place.
func sortFloat64s(xs []float64) { slices.Sort(xs) }
