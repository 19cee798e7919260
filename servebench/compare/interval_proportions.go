package compare

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"
)

// counts are one side's per-round counts of a proportion: x of n.
type counts struct{ x, n []int }

// proportionCounts are the per-round counts of attainment (qualified of
// offered) or error rate (failed of offered).
func proportionCounts(s statistic, reports []*report.Report) (counts, error) {
	var c counts
	for i, r := range reports {
		t, err := s.tally(r)
		if err != nil {
			return counts{}, fmt.Errorf("round %d: %w", i+1, err)
		}
		x, n := t.proportion(s)
		c.x, c.n = append(c.x, x), append(c.n, n)
	}
	return c, nil
}

// pooledSide is one side's counts pooled over its rounds, with the
// dispersion between its rounds.
type pooledSide struct {
	x, n float64
	// phi is Pearson's χ²/(k − 1) over the side's k rounds about the
	// pooled proportion (the overdispersion between rounds; 1 for
	// binomial rounds), not bounded below.
	phi float64
	df  int
}

// pool pools one side's rounds. The Pearson statistic is taken about
// p̃ = (Σx + ½)/(Σn + 1), which keeps it finite when every round is at 0
// or 1.
func pool(c counts) pooledSide {
	var sx, sn float64
	for i := range c.x {
		sx, sn = sx+float64(c.x[i]), sn+float64(c.n[i])
	}
	pt := (sx + 0.5) / (sn + 1)
	var chi2 float64
	for i := range c.x {
		e := float64(c.n[i]) * pt
		d := float64(c.x[i]) - e
		chi2 += d * d / (e * (1 - pt))
	}
	k := len(c.x)
	return pooledSide{x: sx, n: sn, phi: chi2 / float64(k-1), df: k - 1}
}

// restrictedMLE is the maximum-likelihood pair of binomial proportions
// (p1, p2) of x1 of n1 and x2 of n2 under the constraint p1 − p2 = delta,
// as the score test of a difference uses (Miettinen & Nurminen, Statistics
// in Medicine 4:213, 1985; Farrington & Manning, Statistics in Medicine
// 9:1447, 1990). The log likelihood is concave in p2, so its derivative
// is decreasing and bisection finds the maximum, or the end of the
// feasible range where the maximum lies on it (a side with no events).
func restrictedMLE(x1, n1, x2, n2, delta float64) (p1, p2 float64) {
	lo, hi := math.Max(0, -delta), math.Min(1, 1-delta)
	slope := func(p2 float64) float64 {
		p1 := p2 + delta
		return x1/p1 - (n1-x1)/(1-p1) + x2/p2 - (n2-x2)/(1-p2)
	}
	const eps = 1e-12
	switch {
	case hi-lo < 2*eps:
		p2 = (lo + hi) / 2
	case slope(lo+eps) <= 0:
		p2 = lo
	case slope(hi-eps) >= 0:
		p2 = hi
	default:
		a, b := lo+eps, hi-eps
		for range 100 {
			m := (a + b) / 2
			if slope(m) > 0 {
				a = m
			} else {
				b = m
			}
		}
		p2 = (a + b) / 2
	}
	return p2 + delta, p2
}

// scoreTest is the score statistic (d̂ − δ)/σ̃(δ) of the difference
// d̂ = x1/n1 − x2/n2 against the hypothesis p1 − p2 = δ, with the variance
// σ̃² taken at the restricted maximum-likelihood proportions and each
// side's binomial variance multiplied by its dispersion phi1, phi2 (1 and 1
// for Miettinen and Nurminen's binomial test, with their N/(N − 1)
// factor; the sides' measured dispersions for the quasi-binomial one).
type scoreTest struct {
	x1, n1, x2, n2 float64
	phi1, phi2     float64
}

// z is the statistic at delta; +Inf or −Inf where the restricted
// variance is zero and d̂ ≠ δ, 0 where d̂ = δ.
func (s scoreTest) z(delta float64) float64 {
	d := s.x1/s.n1 - s.x2/s.n2 - delta
	p1, p2 := restrictedMLE(s.x1, s.n1, s.x2, s.n2, delta)
	nn := s.n1 + s.n2
	v := (s.phi1*p1*(1-p1)/s.n1 + s.phi2*p2*(1-p2)/s.n2) * nn / (nn - 1)
	switch {
	case d == 0:
		return 0
	case !(v > 0):
		return math.Inf(int(math.Copysign(1, d)))
	}
	return d / math.Sqrt(v)
}

// bound inverts the test: the δ at which z(δ) = crit, searched by
// bisection between d̂ and the end of the range in the direction of crit's
// sign (−1 for a positive crit, the lower bound; +1 for a negative one).
func (s scoreTest) bound(crit float64) float64 {
	d := s.x1/s.n1 - s.x2/s.n2
	a, b := d, -1.0 // z(a) is on the near side of crit, z(b) beyond it
	if crit < 0 {
		b = 1
	}
	beyond := func(delta float64) bool {
		if crit > 0 {
			return s.z(delta) > crit
		}
		return s.z(delta) < crit
	}
	for range 60 {
		m := (a + b) / 2
		if beyond(m) {
			b = m
		} else {
			a = m
		}
	}
	return (a + b) / 2
}

// proportionScore is the interval of the difference between two sides'
// pooled proportions, signed so that positive is worse (baseline −
// candidate when less is worse), two-sided at level. Each end is the
// wider of two score bounds: Miettinen and Nurminen's binomial score
// interval with the normal quantile, valid when requests fail or qualify
// independently, and the quasi-binomial score interval, each side's
// variance multiplied by its rounds' dispersion, with Student's t on the
// rounds' residual degrees of freedom, valid when whole rounds differ
// (overdispersion). A regression is then called only when both tests call
// it. Against a Wald interval at the observed proportions, the score
// interval takes the variance at the tolerance it tests: for an error
// rate that rises from 0 to 2 % against a 1-point tolerance, the variance
// of the hypothesis "1 point worse" is half the variance at 2 %.
func proportionScore(b, c counts, lessIsWorse bool, level float64) estimate {
	pb, pc := pool(b), pool(c)
	worse, better := pc, pb
	if lessIsWorse {
		worse, better = pb, pc
	}
	binomial := scoreTest{x1: worse.x, n1: worse.n, x2: better.x, n2: better.n, phi1: 1, phi2: 1}
	quasi := binomial
	quasi.phi1, quasi.phi2 = worse.phi, better.phi
	q := 1 - (1-level)/2
	z := normalQuantile(q)
	df := float64(pb.df + pc.df)
	t := tQuantile(q, df)
	d := worse.x/worse.n - better.x/better.n
	lo := math.Min(binomial.bound(z), quasi.bound(t))
	hi := math.Max(binomial.bound(-z), quasi.bound(-t))
	// The advice scales the evidence: the standard error of the wider
	// end, falling as 1/√factor, with the quasi test's critical value.
	se := math.Max(d-lo, hi-d) / t
	crit := func(f float64) float64 { return tQuantile(q, math.Max(df*f, 1)) }
	return estimate{mean: d, lo: lo, hi: hi,
		halfWidthAt: func(f float64) float64 { return crit(f) * se / math.Sqrt(f) },
		critAt:      crit, df: df}
}
