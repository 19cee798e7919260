package stats

import "math"

// WilsonLower returns the one-sided Wilson score lower confidence bound of a
// proportion: with successes of n independent trials with a constant pass
// probability, the bound that the procedure places below that probability
// with the given confidence (0.95 for 95%). z is the standard normal
// quantile at confidence, so the bound is
//
//	(p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n),  p = successes/n.
//
// 190 of 200 gives 0.918, 200 of 200 gives 0.987 and 20 of 20 gives 0.881:
// a perfect small sample does not certify a 95% service level. ok is false
// when n < 1, successes is outside [0, n], or confidence is outside (0, 1).
func WilsonLower(successes, n int, confidence float64) (lower float64, ok bool) {
	if n < 1 || successes < 0 || successes > n || !(confidence > 0 && confidence < 1) {
		return 0, false
	}
	z := NormalQuantile(confidence)
	nf := float64(n)
	p := float64(successes) / nf
	z2 := z * z
	lower = (p + z2/(2*nf) - z*math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))) / (1 + z2/nf)
	// Rounding can leave a hair below zero for zero successes.
	return min(max(lower, 0), 1), true
}
