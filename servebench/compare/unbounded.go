package compare

import (
	"fmt"
	"math"
)

// unboundedComparison judges a relative statistic that is unbounded in
// some round on either side: a latency percentile beyond which failures
// reach (+Inf) or a qualified rate of zero. A candidate unbounded where the
// baseline is not is a regression; the reverse is none; both is
// inconclusive, left to the error-rate and attainment comparisons. It
// reports false, changing nothing, when every value is bounded.
func unboundedComparison(s statistic, mc *MetricComparison, bv, cv []float64) bool {
	if s.kind != KindRelative {
		return false
	}
	unbounded := func(vs []float64) int {
		n := 0
		for i, v := range vs {
			if math.IsInf(v, 1) || (s.lessIsWorse && v == 0) {
				n++
				if s.lessIsWorse {
					vs[i] = math.Inf(1) // a zero rate is an unbounded slowdown
				}
			}
		}
		return n
	}
	nb, nc := unbounded(bv), unbounded(cv)
	if nb+nc == 0 {
		return false
	}
	mc.MinDetectableEffect = math.NaN()
	what := fmt.Sprintf("failures reach beyond p%g", s.p)
	if s.lessIsWorse {
		what = "nothing qualified"
	}
	switch {
	case nb == 0:
		mc.Unbounded, mc.Verdict = "candidate", Regression
		mc.Change, mc.CILow, mc.CIHigh = math.Inf(1), math.Inf(1), math.Inf(1)
		mc.Decide = fmt.Sprintf("in %d of %d candidate rounds %s, in no baseline round", nc, len(cv), what)
	case nc == 0:
		mc.Unbounded, mc.Verdict = "baseline", NoRegression
		mc.Change, mc.CILow, mc.CIHigh = math.Inf(-1), math.Inf(-1), math.Inf(-1)
		mc.Decide = fmt.Sprintf("in %d of %d baseline rounds %s, in no candidate round", nb, len(bv), what)
	default:
		mc.Unbounded, mc.Verdict = "both", Inconclusive
		mc.Change, mc.CILow, mc.CIHigh = math.NaN(), math.NaN(), math.NaN()
		mc.Decide = fmt.Sprintf("%s in %d of %d baseline and %d of %d candidate rounds: the error-rate and attainment comparisons judge the failures", what, nb, len(bv), nc, len(cv))
	}
	return true
}
