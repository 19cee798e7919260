package score

import (
	"math"
	"time"
)

// FluidityRule declares Etalon-style deadline fluidity: the first token is
// due FirstTokenDeadline after the request was sent and each later token one
// Cadence after the previous deadline. A token at or before its deadline
// meets it and banks the slack for the next one. A late token misses its
// deadline and every later deadline it crossed (1 + floor((t − D)/cadence)
// for a token at t due at D), and the deadlines restart from it: the next
// token is due one cadence after the late one.
//
// Fluidity needs per-token arrival times, so it covers successful requests
// whose events are proven to hold a known number of tokens (every request
// of the normalized trace format; runner outcomes with event_tokens). A
// multi-token event delivers all its tokens at once. Other requests have no
// fluidity figure.
type FluidityRule struct {
	FirstTokenDeadline time.Duration
	Cadence            time.Duration
}

// fluidityResult is one request's deadline accounting.
type fluidityResult struct {
	deadlines, missed int
}

// tokenDeadlines scores token arrival times (ms, ascending) of a request
// sent at sentMS against the rule. tokensAt(i) says how many tokens event i
// delivered. It counts in whole microseconds, the records' resolution, with
// the rule rounded to it as the report states it: adding the cadence in
// floating point would drift, and a token recorded exactly on its deadline
// would miss it (300 + 33.333 is 333.33299999999997, below 333.333).
func tokenDeadlines(rule FluidityRule, sentMS float64, events []float64, tokensAt func(int) int) fluidityResult {
	cadence := rule.Cadence.Round(time.Microsecond).Microseconds()
	var res fluidityResult
	due := recordMicros(sentMS) + rule.FirstTokenDeadline.Round(time.Microsecond).Microseconds()
	for i, ms := range events {
		k := int64(tokensAt(i))
		if k <= 0 {
			continue
		}
		t := recordMicros(ms)
		if t <= due {
			res.deadlines++
		} else {
			// The token crossed the deadline it was due at and every
			// cadence step after it up to its arrival; the deadlines
			// restart from it.
			missed := 1 + (t-due)/cadence
			res.missed += int(missed)
			res.deadlines += int(missed)
			due = t
		}
		// The event's other tokens arrived with the first, before their
		// deadlines, which follow one cadence apart. The deadline is capped
		// far beyond any record's time (2^53 µs), so that no count of
		// tokens can overflow it.
		res.deadlines += int(k - 1)
		if k > (1<<62-due)/cadence {
			due = 1 << 62
		} else {
			due += k * cadence
		}
	}
	return res
}

// recordMicros is a record's time in whole microseconds.
func recordMicros(ms float64) int64 { return int64(math.Round(ms * 1000)) }

// fluidityIndex is the fraction of deadlines met; ok is false without any.
func (f fluidityResult) fluidityIndex() (float64, bool) {
	if f.deadlines == 0 {
		return 0, false
	}
	return float64(f.deadlines-f.missed) / float64(f.deadlines), true
}

// fluidityOf scores one successful record, or reports that its token
// timing is not known well enough.
func fluidityOf(rule FluidityRule, rec *scoreRecord) (fluidityResult, bool) {
	if rec.sent == nil || len(rec.content) == 0 {
		return fluidityResult{}, false
	}
	switch {
	case rec.tokenLevel:
		return tokenDeadlines(rule, *rec.sent, rec.content, func(int) int { return 1 }), true
	case rec.eventTokens != nil && len(rec.eventTokens) == len(rec.content):
		return tokenDeadlines(rule, *rec.sent, rec.content, func(i int) int { return rec.eventTokens[i] }), true
	}
	return fluidityResult{}, false
}
