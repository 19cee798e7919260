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

// quasiSide is one side's pooled proportion and the variance of it under
// a quasi-binomial model across rounds: Var = φ·p̃(1 − p̃)/Σn, where φ is
// Pearson's χ²/(k − 1) over the k rounds (the overdispersion between
// rounds), never below 1 (binomial noise), and p̃ = (Σx + ½)/(Σn + 1) keeps
// the variance above zero when every round is at 0 or 1.
func quasiSide(c counts) (p, variance float64, df int) {
	var sx, sn float64
	for i := range c.x {
		sx, sn = sx+float64(c.x[i]), sn+float64(c.n[i])
	}
	p = sx / sn
	pt := (sx + 0.5) / (sn + 1)
	var chi2 float64
	for i := range c.x {
		e := float64(c.n[i]) * pt
		d := float64(c.x[i]) - e
		chi2 += d * d / (e * (1 - pt))
	}
	k := len(c.x)
	phi := math.Max(1, chi2/float64(k-1))
	return p, phi * pt * (1 - pt) / sn, k - 1
}

// quasiBinomial is the interval of the difference between two sides'
// pooled proportions, signed so that positive is worse (baseline −
// candidate when less is worse), two-sided at level with Student's t on
// the rounds' residual degrees of freedom. Its width is never zero.
func quasiBinomial(b, c counts, lessIsWorse bool, level float64) estimate {
	pb, vb, dfb := quasiSide(b)
	pc, vc, dfc := quasiSide(c)
	d := pc - pb
	if lessIsWorse {
		d = -d
	}
	q := 1 - (1-level)/2
	se := math.Sqrt(vb + vc)
	df := float64(dfb + dfc)
	t := tQuantile(q, df)
	crit := func(f float64) float64 { return tQuantile(q, math.Max(df*f, 1)) }
	return estimate{mean: d, lo: d - t*se, hi: d + t*se,
		halfWidthAt: func(f float64) float64 { return crit(f) * se / math.Sqrt(f) },
		critAt:      crit, df: df}
}
