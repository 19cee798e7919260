package compare

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// estimate is a difference (on the comparison's working scale: log ratio
// for a relative comparison, difference of fractions for an absolute one)
// with its two-sided interval, and what it takes to narrow it.
type estimate struct {
	mean, lo, hi float64
	// halfWidthAt returns the interval's half-width if the evidence were
	// scaled by factor (rounds, or requests per run, times factor), for
	// the "how much more would decide it" hint; nil when it cannot say.
	halfWidthAt func(factor float64) float64
	// critAt returns the critical value (t or z quantile) the half-width
	// at factor is made with, so that halfWidthAt/critAt is the standard
	// error there; nil when the interval is not of that form.
	critAt func(factor float64) float64
	// df is the degrees of freedom behind the noise estimate (0 when the
	// noise is taken as known), so that the "more rounds" advice can allow
	// for how uncertain a noise measured from few rounds is.
	df float64
	// rounds, when set, are the per-round samples behind the interval, so
	// that the advice can continue them with more rounds.
	rounds *roundSamples
}

// tQuantile is Student's t quantile with nu degrees of freedom.
func tQuantile(p, nu float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(p)
}

// pairedT is the t-interval on the mean of paired per-round differences,
// two-sided at level; it needs at least two pairs.
func pairedT(d []float64, level float64) estimate {
	n := float64(len(d))
	mean, sd := stat.MeanStdDev(d, nil)
	q := 1 - (1-level)/2
	half := tQuantile(q, n-1) * sd / math.Sqrt(n)
	return estimate{
		mean: mean, lo: mean - half, hi: mean + half,
		halfWidthAt: func(f float64) float64 {
			m := math.Max(math.Round(n*f), 2)
			return tQuantile(q, m-1) * sd / math.Sqrt(m)
		},
		critAt: func(f float64) float64 { return tQuantile(q, math.Max(math.Round(n*f), 2)-1) },
		df:     n - 1,
		rounds: &roundSamples{paired: true, q: q, b: roundSample{n: n, mean: mean, variance: sd * sd}},
	}
}

// welchT is Welch's interval on mean(c) − mean(b) for unpaired rounds,
// two-sided at level; each side needs at least two rounds.
func welchT(b, c []float64, level float64) estimate {
	nb, nc := float64(len(b)), float64(len(c))
	mb, vb := stat.MeanVariance(b, nil)
	mc, vc := stat.MeanVariance(c, nil)
	q := 1 - (1-level)/2
	crit := func(f float64) float64 {
		sb, sc := vb/(nb*f), vc/(nc*f)
		se2 := sb + sc
		if se2 == 0 {
			return 0
		}
		return tQuantile(q, welchDF(sb, sc, nb*f, nc*f))
	}
	width := func(f float64) float64 {
		return crit(f) * math.Sqrt(vb/(nb*f)+vc/(nc*f))
	}
	half := width(1)
	mean := mc - mb
	var df float64
	if sb, sc := vb/nb, vc/nc; sb+sc > 0 {
		df = welchDF(sb, sc, nb, nc)
	}
	return estimate{mean: mean, lo: mean - half, hi: mean + half, halfWidthAt: width, critAt: crit, df: df,
		rounds: &roundSamples{q: q, b: roundSample{n: nb, mean: mb, variance: vb}, c: roundSample{n: nc, mean: mc, variance: vc}}}
}

// welchDF is the Welch–Satterthwaite degrees of freedom of a difference
// of two means whose squared standard errors are sb and sc, over nb and
// nc rounds.
func welchDF(sb, sc, nb, nc float64) float64 {
	return (sb + sc) * (sb + sc) / (sb*sb/(nb-1) + sc*sc/(nc-1))
}
