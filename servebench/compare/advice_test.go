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
// probability the advice states, for every true change. It does so for
// both intervals the rounds are judged with: the paired t-interval of
// equal round counts (ab's), and Welch's. The draws are seeded, so the
// counts are the same on every run.
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
	intervals := map[string]func(k int, change float64) estimate{
		"paired": func(k int, change float64) estimate {
			b, c := draw(k, 0), draw(k, change)
			for i := range c {
				c[i] -= b[i]
			}
			return pairedT(c, level)
		},
		"welch": func(k int, change float64) estimate { return welchT(draw(k, 0), draw(k, change), level) },
	}
	decided := func(e estimate) bool { return e.lo > tolerance || e.hi < tolerance }
	for _, kind := range []string{"paired", "welch"} {
		interval := intervals[kind]
		for _, change := range []float64{0, 2 * tolerance, 4 * tolerance} {
			advised, hits := 0, 0
			for range trials {
				est := interval(rounds, change)
				if decided(est) {
					continue
				}
				extra, ok := roundsToDecide(est, tolerance, rounds, 40)
				if !ok {
					continue
				}
				advised++
				if decided(interval(rounds+extra, change)) {
					hits++
				}
			}
			if advised < 20 {
				t.Fatalf("%s, true change %g: only %d comparisons were advised; the simulation no longer tests the advice", kind, change, advised)
			}
			if rate := float64(hits) / float64(advised); rate < decidePower {
				t.Errorf("%s, true change %g: the advised rounds decided %d of %d (%.2f), want at least %.2f", kind, change, hits, advised, rate, decidePower)
			}
			t.Logf("%s, true change %g: the advised rounds decided %d of %d", kind, change, hits, advised)
		}
	}
}
