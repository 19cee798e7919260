package compare

import (
	"math/rand/v2"
	"testing"
)

// TestMoreRoundsAdviceDecidesAsOftenAsItSays simulates the advice's own
// question. Each side has 4 rounds whose per-round values are normal with
// a standard deviation equal to the 5 % tolerance, the interval is
// family-wise over 9 statistics, and the candidate's true change is 0, the
// tolerance doubled, or quadrupled. Where a comparison is inconclusive and
// the advice names N extra rounds (at most 40 here), a fresh comparison
// with 4 + N rounds a side must decide in at least 80 % of the cases, the
// probability the advice states, for every true change. The draws are
// seeded, so the counts are the same on every run.
func TestMoreRoundsAdviceDecidesAsOftenAsItSays(t *testing.T) {
	const tolerance, sigma, rounds, trials = 0.05, 0.05, 4, 1000
	level := 1 - 0.05/9
	rng := rand.New(rand.NewPCG(7, 11))
	draw := func(k int, mu float64) []float64 {
		x := make([]float64, k)
		for i := range x {
			x[i] = mu + sigma*rng.NormFloat64()
		}
		return x
	}
	decided := func(e estimate) bool { return e.lo > tolerance || e.hi < tolerance }
	for _, change := range []float64{0, 2 * tolerance, 4 * tolerance} {
		advised, hits := 0, 0
		for range trials {
			est := welchT(draw(rounds, 0), draw(rounds, change), level)
			if decided(est) {
				continue
			}
			extra, ok := roundsToDecide(est, tolerance, rounds, 40)
			if !ok {
				continue
			}
			advised++
			if decided(welchT(draw(rounds+extra, 0), draw(rounds+extra, change), level)) {
				hits++
			}
		}
		if advised < 20 {
			t.Fatalf("true change %g: only %d comparisons were advised; the simulation no longer tests the advice", change, advised)
		}
		if rate := float64(hits) / float64(advised); rate < decidePower {
			t.Errorf("true change %g: the advised rounds decided %d of %d (%.2f), want at least %.2f", change, hits, advised, rate, decidePower)
		}
		t.Logf("true change %g: the advised rounds decided %d of %d", change, hits, advised)
	}
}
