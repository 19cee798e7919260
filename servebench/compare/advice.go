package compare

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// adviceDraws is how many futures the "more rounds" advice simulates for
// each number of extra rounds it weighs.
const adviceDraws = 400

// adviceNoiseBound is the one-sided confidence with which the advice
// for an interval without per-round samples to continue (the proportions'
// score interval) takes the noise no smaller than it may be: the
// standard error measured from a few rounds is raised to its upper bound
// at this level first. It was chosen in a simulation that judged a fresh
// comparison of the advised size, where it decided at least 80 % of the
// time for every true change tried; the round intervals are continued
// instead (decideProbabilityContinued).
const adviceNoiseBound = 0.90

// decideProbabilityPredictive is the chance that the interval, with the
// evidence scaled by factor, lies wholly on one side of the threshold,
// averaged over what the rounds so far leave uncertain. The standard error
// measured with est.df degrees of freedom is first raised to its 90 %
// upper confidence bound; then each draw takes a true standard error from
// its scaled inverse chi-square around that, a true change normal around
// the estimate, the estimate the added rounds will give, and the noise the
// new interval will measure.
//
// Taking the estimate and the noise as exact instead (decideProbability)
// promised far more than the added rounds deliver: in a simulation of 4
// rounds a side with the noise equal to the tolerance, its advice decided
// about half the time for a true change at or near the tolerance, against
// the 80 % it stated; this advice decides at least 80 % of the time there
// (TestMoreRoundsAdviceDecidesAsOftenAsItSays).
//
// The draws are seeded from the estimate, so the advice is the same for
// the same data.
func decideProbabilityPredictive(est estimate, threshold, factor float64) float64 {
	if est.critAt == nil || est.df <= 0 {
		return decideProbability(est, threshold, factor)
	}
	crit1, crit := est.critAt(1), est.critAt(factor)
	if crit1 == 0 || crit == 0 {
		return 1
	}
	upper := math.Sqrt(est.df / distuv.ChiSquared{K: est.df}.Quantile(1-adviceNoiseBound))
	se1 := est.halfWidthAt(1) / crit1 * upper
	dfNew := est.df * factor
	src := rand.NewPCG(math.Float64bits(est.mean), math.Float64bits(se1)^math.Float64bits(threshold))
	rng := rand.New(src)
	noise := distuv.ChiSquared{K: est.df, Src: src}
	noiseNew := distuv.ChiSquared{K: dfNew, Src: src}
	decided := 0
	for range adviceDraws {
		se := se1 * math.Sqrt(est.df/noise.Rand()) // the true standard error now
		change := est.mean + se*rng.NormFloat64()  // the true change
		seNew := se / math.Sqrt(factor)            // its standard error with the added rounds
		next := change + seNew*rng.NormFloat64()   // the estimate they will give
		half := crit * seNew * math.Sqrt(noiseNew.Rand()/dfNew)
		if math.Abs(next-threshold) > half {
			decided++
		}
	}
	return float64(decided) / adviceDraws
}
