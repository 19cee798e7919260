package compare

import (
	"math"

	"github.com/servebench/servebench/servebench/report"
)

// orderStatisticSpan is how many binomial standard deviations of the rank
// the order-statistic interval of a percentile spans on each side.
const orderStatisticSpan = 2

// percentileLogVariance is the sampling variance of ln of the p-th
// percentile of one round's ascending population, from its order
// statistics: the percentile's rank among n requests is binomial with
// standard deviation √(n·p(1 − p)), so the values at the ranks
// orderStatisticSpan standard deviations either side bound a
// distribution-free interval of the percentile (Conover, Practical
// Nonparametric Statistics, §3.2), and its log width divided by the
// standard normal span it covers is the standard error. Failed requests
// (+Inf) at the top cut the interval to its lower half. It reports false
// when the population cannot give one: too few values, a value that is
// not positive, an interval of no width, or ranks that would reach
// beyond the sample. The last is a tail percentile of a small round (p99
// of 150 requests: rank 148.5 ± 2.4, past the 150th); clipped at the
// largest value, the interval would rest on the one or two requests
// beyond the percentile and understate its spread, so the caller takes
// the per-round values' own spread instead.
func percentileLogVariance(sorted []float64, p float64) (float64, bool) {
	n := float64(len(sorted))
	q := p / 100
	sd := math.Sqrt(n * q * (1 - q))
	if len(sorted) < 2 || !(sd > 0) {
		return 0, false
	}
	center := q * n
	lo := math.Floor(center - orderStatisticSpan*sd)
	hi := math.Ceil(center + orderStatisticSpan*sd)
	if lo < 1 || hi > n {
		return 0, false
	}
	at := func(rank float64) float64 { return sorted[int(rank)-1] }
	mid := at(min(max(math.Ceil(center), 1), n))
	if !(at(lo) > 0) || math.IsInf(mid, 1) {
		return 0, false
	}
	zLo, zHi := (center-lo)/sd, (hi-center)/sd
	width, span := math.Log(at(hi))-math.Log(at(lo)), zLo+zHi
	if math.IsInf(at(hi), 1) {
		width, span = math.Log(mid)-math.Log(at(lo)), zLo
	}
	if !(width > 0) || !(span > 0) {
		return 0, false
	}
	se := width / span
	return se * se, true
}

// withinRoundVariance is the sampling variance of one round's statistic
// on the working scale, from that round's own requests: the
// order-statistic variance for a per-request latency percentile, 1/q for
// qualified_rps (q qualified requests, a Poisson count). It reports false
// for a statistic or round that cannot give one.
func (s statistic) withinRoundVariance(r *report.Report) (float64, bool) {
	if s.base == "qualified_rps" {
		if r.Qualified == 0 {
			return 0, false
		}
		return 1 / float64(r.Qualified), true
	}
	if !requestMetrics[s.metric] {
		return 0, false
	}
	xs, err := s.samples(r, true)
	if err != nil {
		return 0, false
	}
	return percentileLogVariance(xs, s.p)
}

// hartungKnapp is the random-effects interval of the mean of the paired
// per-round differences d (on the working scale), whose within-round
// sampling variances are v, two-sided at level. The between-round
// variance τ² is DerSimonian and Laird's moment estimate; each round
// weighs w = 1/(v + τ²); the variance of the weighted mean is
// Hartung and Knapp's q/Σw with q = Σw(d − μ)²/(k − 1), never below 1 (the
// modification of Knapp and Hartung 2003, so that rounds agreeing better
// than their requests predict do not narrow the interval below what the
// pooled requests allow), with Student's t on k − 1 degrees of freedom.
// Hartung & Knapp, Statistics in Medicine 20:3875 (2001); Röver, Knapp &
// Friede, BMC Med Res Methodol 15:99 (2015).
func hartungKnapp(d, v []float64, level float64) estimate {
	k := float64(len(d))
	tau2 := derSimonianLaird(d, v)
	var sw, swd float64
	for i := range d {
		w := 1 / (v[i] + tau2)
		sw, swd = sw+w, swd+w*d[i]
	}
	mu := swd / sw
	var q float64
	for i := range d {
		q += (d[i] - mu) * (d[i] - mu) / (v[i] + tau2)
	}
	q = math.Max(q/(k-1), 1)
	se := math.Sqrt(q / sw)
	p := 1 - (1-level)/2
	crit := func(f float64) float64 { return tQuantile(p, math.Max(math.Round(k*f), 2)-1) }
	half := crit(1) * se
	return estimate{mean: mu, lo: mu - half, hi: mu + half, df: k - 1, critAt: crit,
		halfWidthAt: func(f float64) float64 { return crit(f) * se / math.Sqrt(f) }}
}

// derSimonianLaird is the moment estimate of the between-round variance
// of d given the within-round variances v: (Q − (k − 1)) / (Σw − Σw²/Σw)
// with fixed-effect weights w = 1/v and Cochran's Q, at least 0.
func derSimonianLaird(d, v []float64) float64 {
	var sw, sw2, swd float64
	for i := range d {
		w := 1 / v[i]
		sw, sw2, swd = sw+w, sw2+w*w, swd+w*d[i]
	}
	mu := swd / sw
	var q float64
	for i := range d {
		q += (d[i] - mu) * (d[i] - mu) / v[i]
	}
	return math.Max(0, (q-float64(len(d)-1))/(sw-sw2/sw))
}

// pairedRandomEffects is the Hartung–Knapp interval over paired rounds
// when every round on both sides gives its within-round variance; ok is
// false otherwise (the caller falls back to the paired t-interval).
func (c *Comparison) pairedRandomEffects(s statistic, bv, cv []float64, level float64) (estimate, bool) {
	d, v := make([]float64, len(bv)), make([]float64, len(bv))
	for i := range bv {
		vb, okb := s.withinRoundVariance(c.baseline[i])
		vc, okc := s.withinRoundVariance(c.candidate[i])
		if !okb || !okc || !(vb+vc > 0) {
			return estimate{}, false
		}
		d[i], v[i] = worse(s, bv[i], cv[i]), vb+vc
	}
	return hartungKnapp(d, v, level), true
}
