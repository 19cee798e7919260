package score

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// steadyFraction is the share of the peak in flight that the steady window
// keeps (SGLang's 0.95).
const steadyFraction = 0.95

// steadyLimitMS bounds the in-flight count's array (1 GiB).
const steadyLimitMS = 1 << 28

// steadyTally counts the requests in flight at 1 ms resolution: each sent
// request adds one at the millisecond of its send and removes it at the
// millisecond of its terminal time. Memory is 4 bytes per millisecond of
// the run (about 14 MB an hour), whatever the number of requests; a run
// whose clock passes steadyLimitMS (about 3 days) has no steady state.
type steadyTally struct {
	// enabled is set for closed-loop and session runs; closed for the
	// former, whose short windows are flagged.
	enabled, closed bool
	delta           []int32
}

// add counts a record's time in flight.
func (t *steadyTally) add(rec *scoreRecord) {
	if !t.enabled || rec.sent == nil || !rec.hasTerminal {
		return
	}
	from, to := int(*rec.sent), int(rec.terminal)
	if from == to {
		return // in flight less than a millisecond at this resolution
	}
	if to >= steadyLimitMS {
		t.enabled, t.delta = false, nil
		return
	}
	for len(t.delta) <= to {
		t.delta = append(t.delta, 0)
	}
	t.delta[from]++
	t.delta[to]--
}

// steadyWindow is the window the tally found.
type steadyWindow struct {
	start, end   float64
	peak, floor  int
	closed       bool
	ttft, tpot   *population
	e2e          *population
	requests     int
	successes    int
	outputTokens int
}

// window finds the longest run of milliseconds with at least
// ceil(0.95 × peak) requests in flight (the first of equal ones); nil when
// the tally is off or nothing was in flight.
func (t *steadyTally) window() *steadyWindow {
	if !t.enabled {
		return nil
	}
	peak, n := 0, 0
	for _, d := range t.delta {
		n += int(d)
		peak = max(peak, n)
	}
	if peak == 0 {
		return nil
	}
	floor := int(math.Ceil(steadyFraction * float64(peak)))
	best, bestStart, start := 0, 0, -1
	n = 0
	for k, d := range t.delta {
		n += int(d)
		switch {
		case n >= floor && start < 0:
			start = k
		case n < floor && start >= 0:
			if k-start > best {
				best, bestStart = k-start, start
			}
			start = -1
		}
	}
	t.delta = nil
	return &steadyWindow{start: float64(bestStart), end: float64(bestStart + best), peak: peak, floor: floor, closed: t.closed,
		ttft: newPopulation(false), tpot: newPopulation(false), e2e: newPopulation(false)}
}

// add measures a record when it was sent and ended within the window.
func (w *steadyWindow) add(rec *scoreRecord) {
	if rec.sent == nil || !rec.hasTerminal || *rec.sent < w.start || rec.terminal > w.end {
		return
	}
	w.requests++
	if rec.status != record.StatusSuccess {
		return
	}
	w.successes++
	if rec.outputTokens != nil {
		w.outputTokens += *rec.outputTokens
	}
	m := measureRecord(rec)
	if m.hasContent {
		w.ttft.add(m.ttft)
	}
	if m.hasTPOT {
		w.tpot.add(m.tpot)
	}
	if m.hasE2E {
		w.e2e.add(m.e2e)
	}
}

// report states the window; horizonMS is the whole run's, against which a
// closed loop's window is judged short.
func (w *steadyWindow) report(method stats.PercentileMethod, horizonMS float64) (*report.SteadyState, error) {
	defer func() { w.ttft.close(); w.tpot.close(); w.e2e.close() }()
	s := &report.SteadyState{StartMS: w.start, EndMS: w.end, PeakInFlight: w.peak, InFlightFloor: w.floor,
		Requests: w.requests, Successes: w.successes}
	if seconds := s.DurationMS() / 1000; seconds > 0 {
		s.RequestsPerSecond = new(float64(w.successes) / seconds)
		s.OutputTokensPerSecond = new(float64(w.outputTokens) / seconds)
	}
	for _, l := range []struct {
		pop *population
		out *report.SteadyLatency
	}{{w.ttft, &s.TTFT}, {w.tpot, &s.TPOT}, {w.e2e, &s.E2E}} {
		d, err := distributionOfPopulation(l.pop, method, nil)
		if err != nil {
			return nil, err
		}
		l.out.P50, l.out.P99 = d.P50, d.P99
	}
	if least := max(10_000, horizonMS/10); w.closed && s.DurationMS() < least {
		s.Short = true
		s.ShortReason = fmt.Sprintf("the steady window lasts %s ms, less than max(10 s, 10%% of the %s ms run) = %s ms",
			numfmt.Compact(s.DurationMS()), numfmt.Compact(horizonMS), numfmt.Compact(least))
	}
	return s, nil
}
