package servebench

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
// delivered.
func tokenDeadlines(rule FluidityRule, sentMS float64, events []float64, tokensAt func(int) int) fluidityResult {
	first := Millis(rule.FirstTokenDeadline)
	cadence := Millis(rule.Cadence)
	var res fluidityResult
	due := sentMS + first
	for i, t := range events {
		for k := tokensAt(i); k > 0; k-- {
			if t <= due {
				res.deadlines++
				due += cadence
				continue
			}
			// The token crossed the deadline it was due at and every
			// cadence step after it up to its arrival.
			missed := 1 + int(math.Floor((t-due)/cadence))
			res.missed += missed
			res.deadlines += missed
			due = t + cadence
		}
	}
	return res
}

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
