package compare

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"

	"gonum.org/v1/gonum/stat/distuv"
)

// bounds are the one-sided levels of an interval's two ends.
type bounds struct{ lower, upper float64 }

// twoSided is the interval's two-sided level.
func (b bounds) twoSided() float64 { return b.lower + b.upper - 1 }

// compareOne computes one statistic's change, interval and verdict. The
// interval's lower end is a one-sided bound at lv.lower, its upper end at
// lv.upper: each is the end of a symmetric interval, two-sided at
// 2·level − 1, of the method that fits the statistic.
func (c *Comparison) compareOne(s statistic, tol float64, lv bounds) (MetricComparison, error) {
	mc := MetricComparison{Name: s.name, Kind: s.kind, Tolerance: tol, Unit: "ms"}
	switch s.base {
	case "attainment", "error_rate":
		mc.Unit = "fraction"
	case "qualified_rps":
		mc.Unit = "rps"
	}
	bv, err := values(s, c.baseline)
	if err != nil {
		return mc, fmt.Errorf("baseline %w", err)
	}
	cv, err := values(s, c.candidate)
	if err != nil {
		return mc, fmt.Errorf("candidate %w", err)
	}
	mc.Baseline, mc.Candidate = mean(bv), mean(cv)
	mc.SuccessOnly = c.successOnly(s)
	if c.insufficientData(s, &mc) || unboundedComparison(s, &mc, bv, cv) {
		return mc, nil
	}
	if s.kind == KindRelative {
		for _, v := range append(append([]float64{}, bv...), cv...) {
			if !(v > 0) {
				return mc, fmt.Errorf("%s: a relative comparison needs positive values on every run, got %v", s.name, v)
			}
		}
	}
	est, err := c.estimate(s, bv, cv, 2*lv.lower-1)
	if err != nil {
		return mc, err
	}
	if lv.upper != lv.lower {
		up, err := c.estimate(s, bv, cv, 2*lv.upper-1)
		if err != nil {
			return mc, err
		}
		est.hi = up.hi
	}
	threshold := tol
	if s.kind == KindRelative {
		threshold = math.Log1p(tol)
	}
	if err := c.checkNoise(s, &mc, bv, cv, threshold); err != nil {
		return mc, err
	}
	mc.Change, mc.CILow, mc.CIHigh = toChange(s, est.mean), toChange(s, est.lo), toChange(s, est.hi)
	mc.MinDetectableEffect = toChange(s, threshold+(est.mean-est.lo))
	if !finite(mc.Baseline, mc.Candidate, mc.Change, mc.CILow, mc.CIHigh) {
		return mc, fmt.Errorf("%s: the change or its interval is not a finite number", s.name)
	}
	switch {
	case est.lo > threshold:
		mc.Verdict = Regression
	case est.hi <= threshold:
		mc.Verdict = NoRegression
	default:
		mc.Verdict = Inconclusive
		mc.Decide = c.decideHint(s, est, threshold)
	}
	return mc, nil
}

// estimate is the change on the working scale with its interval: from the
// requests of one round per side; for a proportion over rounds, the
// score interval of proportionScore; for paired rounds whose requests give each
// round's sampling variance, the Hartung–Knapp random-effects interval;
// else the paired t-interval on per-round differences, or Welch's with
// unequal round counts.
func (c *Comparison) estimate(s statistic, bv, cv []float64, level float64) (estimate, error) {
	switch {
	case len(bv) == 1:
		return c.requestLevel(s, bv[0], cv[0], level)
	case s.base == "attainment" || s.base == "error_rate":
		b, err := proportionCounts(s, c.baseline)
		if err != nil {
			return estimate{}, fmt.Errorf("baseline %w", err)
		}
		cand, err := proportionCounts(s, c.candidate)
		if err != nil {
			return estimate{}, fmt.Errorf("candidate %w", err)
		}
		return proportionScore(b, cand, s.lessIsWorse, level), nil
	case len(bv) == len(cv):
		if est, ok := c.pairedRandomEffects(s, bv, cv, level); ok {
			return est, nil
		}
		d := make([]float64, len(bv))
		for i := range d {
			d[i] = worse(s, bv[i], cv[i])
		}
		return pairedT(d, level), nil
	}
	return welchT(scaled(s, bv), scaled(s, cv), level), nil
}

// successOnly is a latency percentile's figure over the successful
// requests alone, each side's mean over its rounds; nil when a side has a
// round without successes, or for another statistic.
func (c *Comparison) successOnly(s statistic) *SuccessOnly {
	side := func(reports []*report.Report) (float64, bool) {
		var sum float64
		for _, r := range reports {
			v, ok := s.successOnly(r)
			if !ok {
				return 0, false
			}
			sum += v
		}
		return sum / float64(len(reports)), true
	}
	b, okb := side(c.baseline)
	cand, okc := side(c.candidate)
	if !okb || !okc || !(b > 0) {
		return nil
	}
	return &SuccessOnly{Baseline: b, Candidate: cand, Change: cand/b - 1}
}

// toChange maps a value on the working scale (a log ratio for a relative
// comparison) to the Change scale.
func toChange(s statistic, v float64) float64 {
	if s.kind == KindRelative {
		return math.Expm1(v)
	}
	return v
}

// values computes the statistic on every run of one side.
func values(s statistic, reports []*report.Report) ([]float64, error) {
	out := make([]float64, len(reports))
	for i, r := range reports {
		v, err := s.value(r)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

// worse is one round's difference on the working scale, positive when the
// candidate is worse.
func worse(s statistic, b, c float64) float64 {
	switch {
	case s.kind == KindRelative && s.lessIsWorse:
		return math.Log(b / c)
	case s.kind == KindRelative:
		return math.Log(c / b)
	case s.lessIsWorse:
		return b - c
	}
	return c - b
}

// scaled maps one side's values to the working scale with the sign of
// worse, for the unpaired interval (candidate minus baseline).
func scaled(s statistic, v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		switch {
		case s.kind == KindRelative && s.lessIsWorse:
			out[i] = -math.Log(x)
		case s.kind == KindRelative:
			out[i] = math.Log(x)
		case s.lessIsWorse:
			out[i] = -x
		default:
			out[i] = x
		}
	}
	return out
}

// requestLevel is the one-round interval, from the requests of the single
// run on each side.
func (c *Comparison) requestLevel(s statistic, bValue, cValue, level float64) (estimate, error) {
	b, cand := c.baseline[0], c.candidate[0]
	switch s.base {
	case "attainment", "error_rate":
		bt, err := s.tally(b)
		if err != nil {
			return estimate{}, fmt.Errorf("baseline %w", err)
		}
		ct, err := s.tally(cand)
		if err != nil {
			return estimate{}, fmt.Errorf("candidate %w", err)
		}
		bx, bn := bt.proportion(s)
		cx, cn := ct.proportion(s)
		if s.lessIsWorse {
			// drop = baseline − candidate attainment
			return newcombe(bx, bn, cx, cn, level), nil
		}
		// increase = candidate − baseline error rate
		return newcombe(cx, cn, bx, bn, level), nil
	case "qualified_rps":
		if b.Qualified == 0 || cand.Qualified == 0 || !(b.HorizonMS > 0) || !(cand.HorizonMS > 0) {
			return estimate{}, fmt.Errorf("%s: one round per side needs qualified requests and a horizon on both sides", s.name)
		}
		return poissonLogRatio(b.Qualified, b.HorizonMS, cand.Qualified, cand.HorizonMS, level), nil
	}
	if !requestMetrics[s.metric] {
		return estimate{}, fmt.Errorf("%s: %s pools gaps across requests, so one round cannot give it an interval; run two or more rounds", s.name, s.metric)
	}
	bs, err := s.samples(b, true)
	if err != nil {
		return estimate{}, fmt.Errorf("baseline %w", err)
	}
	cs, err := s.samples(cand, true)
	if err != nil {
		return estimate{}, fmt.Errorf("candidate %w", err)
	}
	return bootstrapLogRatio(s.name, bs, cs, s.p, b.PercentileMethod, bValue, cValue, level), nil
}

// decideHint says roughly how much more evidence would likely decide an
// inconclusive comparison, if the estimate and the spread stayed as they
// are.
func (c *Comparison) decideHint(s statistic, est estimate, threshold float64) string {
	gap := math.Abs(est.mean - threshold)
	if gap < 1e-12 || est.halfWidthAt == nil {
		return "the estimate sits on the tolerance: more evidence is unlikely to decide it"
	}
	if c.BlindToRunVariance {
		h := est.halfWidthAt(1)
		f := math.Ceil(h * h / (gap * gap))
		if f > 1000 {
			return "the estimate is too close to the tolerance for more requests to decide it"
		}
		return fmt.Sprintf("about %v× the requests per run would likely decide it; better, run 2 or more rounds, since request-level intervals are blind to run-to-run variance", f)
	}
	if s.base == "attainment" || s.base == "error_rate" {
		return c.requestsHint(est, threshold)
	}
	if extra, ok := roundsToDecide(est, threshold, float64(c.Rounds.Baseline), maxAdvisedRounds); ok {
		return fmt.Sprintf("about %d more %s would decide it with probability %.0f%%, allowing for the uncertainty of the change and the noise measured so far",
			extra, plural(extra, "round", "rounds"), 100*decidePower)
	}
	return fmt.Sprintf("more than %d more rounds would be needed: the estimate is too close to the tolerance", maxAdvisedRounds)
}

// requestsHint advises a proportion's cheaper lever: its interval pools
// every request, so more requests a round narrow it as more rounds do,
// at no cost in rounds; it names the requests a round that would decide
// it with probability decidePower at these rounds.
func (c *Comparison) requestsHint(est estimate, threshold float64) string {
	n := offered(c.baseline) / max(c.Rounds.Baseline, 1)
	for f := 1.05; f <= 1000; f *= 1.05 {
		if decideProbabilityPredictive(est, threshold, f) >= decidePower {
			return fmt.Sprintf("about %d requests a round (these rounds have %d) would decide it with probability %.0f%% at %d rounds: for a proportion more requests a round are the cheaper lever, not more rounds",
				int(math.Ceil(float64(n)*f)), n, 100*decidePower, c.Rounds.Baseline)
		}
	}
	return "the estimate is too close to the tolerance for more requests to decide it"
}

// maxAdvisedRounds is the most extra rounds the advice names.
const maxAdvisedRounds = 200

// roundsToDecide is the fewest extra rounds, at most limit, after n rounds
// a side, that decide the comparison with probability decidePower.
func roundsToDecide(est estimate, threshold, n float64, limit int) (int, bool) {
	for extra := 1; extra <= limit; extra++ {
		p := 0.0
		if est.rounds != nil {
			p = decideProbabilityContinued(est.rounds, threshold, extra, continuedNoiseBound)
		} else {
			p = decideProbabilityPredictive(est, threshold, (n+float64(extra))/n)
		}
		if p >= decidePower {
			return extra, true
		}
	}
	return 0, false
}

// decidePower is the probability with which the "more rounds" advice
// expects the added rounds to decide the comparison.
const decidePower = 0.8

// decideProbability is the chance that the interval, with the evidence
// scaled by factor, lies wholly on one side of the threshold, if the true
// change is the current estimate and the noise stays as measured: the new
// estimate is normal around est.mean with the standard error se_f there,
// and decides when it lies beyond threshold ± crit_f·se_f.
func decideProbability(est estimate, threshold, factor float64) float64 {
	if est.critAt == nil {
		if est.halfWidthAt(factor) < math.Abs(est.mean-threshold) {
			return 1
		}
		return 0
	}
	crit := est.critAt(factor)
	if crit == 0 {
		return 1
	}
	se := est.halfWidthAt(factor) / crit
	gap := math.Abs(est.mean - threshold)
	return stdNormalCDF((gap-crit*se)/se) + stdNormalCDF((-gap-crit*se)/se)
}

// stdNormalCDF is Φ.
func stdNormalCDF(x float64) float64 { return distuv.UnitNormal.CDF(x) }

// plural picks the word for n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mean is the arithmetic mean.
func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
