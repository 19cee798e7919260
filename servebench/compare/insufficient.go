package compare

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"
)

// neededFor is the smallest population with report.MinObservationsBeyond
// observations beyond the p-th percentile; 0 when none has (the maximum).
func neededFor(p float64) int {
	if p >= 100 {
		return 0
	}
	return report.ObservationsNeeded(p)
}

// enoughBeyond reports whether report.MinObservationsBeyond of n
// observations lie beyond the p-th percentile. Unlike report.Judgeable it
// never holds for the maximum: a comparison of two maxima has no
// observation beyond either to give it an interval.
func enoughBeyond(n int, p float64) bool {
	return report.ObservationsBeyond(n, p) >= report.MinObservationsBeyond
}

// populationSize is a percentile's population on one run: the request
// entries with failures counted, else the scored population's size.
func (s statistic) populationSize(r *report.Report) int {
	if requestMetrics[s.metric] {
		if xs, err := s.samples(r, true); err == nil {
			return len(xs)
		}
	}
	d, _, _ := s.summarized(r, 0)
	return d.N
}

// insufficientData marks a percentile with fewer than
// report.MinObservationsBeyond observations beyond it, pooled over either
// side's rounds: no interval, not a verdict, and how many observations
// would make it judgeable. It reports false, changing nothing, otherwise.
func (c *Comparison) insufficientData(s statistic, mc *MetricComparison) bool {
	if s.metric == "" {
		return false
	}
	pooled := func(reports []*report.Report) int {
		n := 0
		for _, r := range reports {
			n += s.populationSize(r)
		}
		return n
	}
	nb, nc := pooled(c.baseline), pooled(c.candidate)
	if enoughBeyond(nb, s.p) && enoughBeyond(nc, s.p) {
		return false
	}
	mc.Verdict, mc.Needed = InsufficientData, neededFor(s.p)
	mc.Change, mc.CILow, mc.CIHigh, mc.MinDetectableEffect = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if mc.Needed == 0 {
		mc.Decide = fmt.Sprintf("p%g has no observation beyond it, whatever the number of requests: compare a lower percentile", s.p)
		return true
	}
	rounds := len(c.baseline)
	more := int(math.Ceil(float64(mc.Needed)/float64(min(nb, nc))*float64(rounds))) - rounds
	perRound := int(math.Ceil(float64(mc.Needed) / float64(rounds)))
	mc.Decide = fmt.Sprintf("p%g needs at least %d observations a side, pooled over the rounds, for %d to lie beyond it; the baseline has %d and the candidate %d: about %d requests a round at %d rounds, or about %d more %s of this size, would make it judgeable",
		s.p, mc.Needed, report.MinObservationsBeyond, nb, nc, perRound, rounds, more, plural(more, "round", "rounds"))
	return true
}
