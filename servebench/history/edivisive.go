package history

import (
	"math"
	"math/rand/v2"
)

// permutations is how many shuffles each permutation test draws.
const permutations = 199

// energySplit returns the split τ (the first index of the second segment,
// 1 ≤ τ < len(x)) maximizing the e-divisive statistic with exponent 1,
// and that statistic: Q(τ) = m·n/(m + n) · Ê, where m = τ, n = len(x) − τ
// and Ê = 2/(mn)·Σ|a − b| − Σ_{i<j}|aᵢ − aⱼ|/C(m, 2) − Σ_{i<j}|bᵢ − bⱼ|/C(n, 2)
// (a within-segment term is 0 for a segment of one value).
func energySplit(x []float64) (tau int, q float64) {
	q = math.Inf(-1)
	for t := 1; t < len(x); t++ {
		if v := energy(x[:t], x[t:]); v > q {
			tau, q = t, v
		}
	}
	return tau, q
}

// energy is Q for the two segments a and b.
func energy(a, b []float64) float64 {
	m, n := float64(len(a)), float64(len(b))
	var between float64
	for _, u := range a {
		for _, v := range b {
			between += math.Abs(u - v)
		}
	}
	e := 2*between/(m*n) - within(a) - within(b)
	return m * n / (m + n) * e
}

// within is the mean absolute difference over the pairs of xs; 0 for
// fewer than two values.
func within(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var s float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			s += math.Abs(xs[i] - xs[j])
		}
	}
	k := float64(len(xs))
	return s / (k * (k - 1) / 2)
}

// permutationP is the permutation test's p-value for the best split of x:
// (1 + the shuffles whose best statistic reaches q) / (1 + permutations).
func permutationP(x []float64, q float64, rng *rand.Rand) float64 {
	y := append([]float64(nil), x...)
	reach := 0
	for range permutations {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if _, qp := energySplit(y); qp >= q-1e-12 {
			reach++
		}
	}
	return float64(1+reach) / float64(1+permutations)
}

// MinReleases is the shortest series in which the permutation test can
// declare a change at all at falseAlarm; 0 when no series can (falseAlarm
// below 1/(1 + permutations), the smallest p-value the shuffles give).
//
// Whatever the values, a best split at τ keeps its statistic Q under
// every shuffle that puts the same τ releases first, in any order, or
// last: 2·τ!·(n − τ)! of the n! orders. So the exact p-value of n
// releases is at least 2/C(n, τ) ≥ 2/C(n, ⌊n/2⌋), and a change can be
// declared only once that floor is at most falseAlarm: at 0.05, 8
// releases (2/C(8, 4) = 0.029, while 2/C(7, 3) = 0.057).
func MinReleases(falseAlarm float64) int {
	if !(falseAlarm >= 1.0/(1+permutations)) {
		return 0
	}
	for n := 2; ; n++ {
		if 2/binomial(n, n/2) <= falseAlarm {
			return n
		}
	}
}

// binomial is C(n, k) as a float.
func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// split is one significant change point found in a series.
type split struct {
	at int     // first index of the new level
	p  float64 // permutation p-value
}

// changePoints finds every significant split of x[lo:hi] by binary
// segmentation, in index order.
func changePoints(x []float64, lo, hi int, alpha float64, rng *rand.Rand) []split {
	if hi-lo < 2 {
		return nil
	}
	seg := x[lo:hi]
	if constant(seg) {
		return nil
	}
	tau, q := energySplit(seg)
	p := permutationP(seg, q, rng)
	if p > alpha {
		return nil
	}
	out := changePoints(x, lo, lo+tau, alpha, rng)
	out = append(out, split{at: lo + tau, p: p})
	return append(out, changePoints(x, lo+tau, hi, alpha, rng)...)
}

// constant reports whether every value is the same.
func constant(xs []float64) bool {
	for _, v := range xs {
		if v != xs[0] {
			return false
		}
	}
	return true
}
