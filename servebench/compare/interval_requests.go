package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/servebench/servebench/servebench/stats"
)

// bootstrapDraws is the number of bootstrap resamples per percentile
// comparison; at the default family of seven comparisons each tail of the
// interval then holds about 28 draws.
const bootstrapDraws = 4000

// orderStatisticCDF returns, for an ascending sample of n values, the
// probability that the nearest-rank p-th percentile of a bootstrap resample
// (n draws with replacement) is at most the value of rank j, for j = 1..n:
// P(at least r of n uniform draws fall among the first j) =
// P(Binomial(n, j/n) >= r), with r the nearest rank of p. It makes the
// bootstrap exact in distribution while each draw costs one binary search.
func orderStatisticCDF(n int, p float64) []float64 {
	r := min(max(int(math.Ceil(p*float64(n)/100)), 1), n)
	cdf := make([]float64, n)
	for j := 1; j <= n; j++ {
		if j == n {
			cdf[j-1] = 1
			continue
		}
		b := distuv.Binomial{N: float64(n), P: float64(j) / float64(n)}
		cdf[j-1] = 1 - b.CDF(float64(r-1))
	}
	return cdf
}

// drawPercentile draws one bootstrap percentile of sorted from its cdf.
func drawPercentile(sorted, cdf []float64, rng *rand.Rand) float64 {
	u := rng.Float64()
	j := sort.SearchFloat64s(cdf, u)
	return sorted[min(j, len(sorted)-1)]
}

// seedFor makes the bootstrap of one named comparison deterministic.
func seedFor(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("servebench/compare " + name))
	return h.Sum64()
}

// unboundedSentinel stands in a bootstrap for a failed request's +Inf:
// larger than any latency, and finite, so that log ratios stay numbers.
const unboundedSentinel = 1e300

// bootstrapLogRatio is the percentile-bootstrap interval of
// ln(worse/better) — ln(candidate/baseline) for a latency percentile —
// two-sided at level, resampling each side's requests independently and
// taking each resample's percentile by method (nearest rank, exactly in
// distribution, or linear interpolation). Failed requests (+Inf) resample
// as larger than any success. The point estimate is the log ratio of the
// observed percentiles.
func bootstrapLogRatio(name string, b, c []float64, p float64, method stats.PercentileMethod, bValue, cValue, level float64) estimate {
	b, c = bounded(b), bounded(c)
	rng := rand.New(rand.NewPCG(seedFor(name), 0x5e7e_bec4))
	drawB, drawC := resampler(b, p, method, rng), resampler(c, p, method, rng)
	d := make([]float64, bootstrapDraws)
	for i := range d {
		d[i] = math.Log(drawC() / drawB())
	}
	slices.Sort(d)
	tail := (1 - level) / 2
	at := func(q float64) float64 {
		k := min(max(int(math.Floor(q*float64(len(d)))), 0), len(d)-1)
		return d[k]
	}
	lo, hi := at(tail), at(1-tail)
	mean := math.Log(cValue / bValue)
	// The half-width of a percentile interval shrinks as 1/sqrt(requests).
	loHalf, hiHalf := mean-lo, hi-mean
	return estimate{mean: mean, lo: lo, hi: hi, halfWidthAt: func(f float64) float64 {
		return math.Max(loHalf, hiHalf) / math.Sqrt(f)
	}}
}

// bounded replaces +Inf by unboundedSentinel in a copy of xs.
func bounded(xs []float64) []float64 {
	out := slices.Clone(xs)
	for i, x := range out {
		if math.IsInf(x, 1) {
			out[i] = unboundedSentinel
		}
	}
	return out
}

// resampler draws the percentile of one bootstrap resample of sorted.
func resampler(sorted []float64, p float64, method stats.PercentileMethod, rng *rand.Rand) func() float64 {
	if method != stats.Linear {
		cdf := orderStatisticCDF(len(sorted), p)
		return func() float64 { return drawPercentile(sorted, cdf, rng) }
	}
	buf := make([]float64, len(sorted))
	return func() float64 {
		for i := range buf {
			buf[i] = sorted[rng.IntN(len(sorted))]
		}
		slices.Sort(buf)
		v, _ := stats.Percentile(buf, p, stats.Linear)
		return v
	}
}

// wilsonInterval is the two-sided Wilson score interval of s successes in
// n trials with normal quantile z.
func wilsonInterval(s, n int, z float64) (lo, hi float64) {
	p, nf := float64(s)/float64(n), float64(n)
	center := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(center-half, 0), math.Min(center+half, 1)
}

// normalQuantile is the standard normal quantile.
func normalQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// newcombe is Newcombe's hybrid score interval (his method 10) for the
// difference of two independent proportions p1 − p2 = s1/n1 − s2/n2,
// two-sided at level.
func newcombe(s1, n1, s2, n2 int, level float64) estimate {
	z := normalQuantile(1 - (1-level)/2)
	p1, p2 := float64(s1)/float64(n1), float64(s2)/float64(n2)
	l1, u1 := wilsonInterval(s1, n1, z)
	l2, u2 := wilsonInterval(s2, n2, z)
	d := p1 - p2
	lo := d - math.Sqrt((p1-l1)*(p1-l1)+(u2-p2)*(u2-p2))
	hi := d + math.Sqrt((u1-p1)*(u1-p1)+(p2-l2)*(p2-l2))
	return estimate{mean: d, lo: lo, hi: hi, halfWidthAt: func(f float64) float64 {
		return math.Max(d-lo, hi-d) / math.Sqrt(f)
	}}
}

// poissonLogRatio is the interval of ln(qb/qc) + ln(hc/hb), the log ratio
// of two rates of counted events qb/hb and qc/hc, treating each count as
// Poisson: the variance of the log count ratio is 1/qb + 1/qc.
func poissonLogRatio(qb int, hb float64, qc int, hc float64, level float64) estimate {
	z := normalQuantile(1 - (1-level)/2)
	mean := math.Log((float64(qb) / hb) / (float64(qc) / hc))
	se := math.Sqrt(1/float64(qb) + 1/float64(qc))
	return estimate{mean: mean, lo: mean - z*se, hi: mean + z*se, halfWidthAt: func(f float64) float64 {
		return z * se / math.Sqrt(f)
	}}
}

// WilsonInterval is the two-sided Wilson score interval of a proportion:
// successes of n trials, at the given confidence. It is what the
// calibration figures are reported with.
func WilsonInterval(successes, n int, confidence float64) (lo, hi float64) {
	return wilsonInterval(successes, n, normalQuantile(1-(1-confidence)/2))
}
