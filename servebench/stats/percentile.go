package stats

import "math"

// PercentileMethod names a way to pick a percentile from a sample. Its
// string form is what reports and options spell; the empty method is
// NearestRank.
type PercentileMethod string

// The percentile methods.
const (
	// NearestRank picks the value of rank ceil(p/100 * N) in the sorted
	// sample (rank 1 for p = 0): always an observed value.
	NearestRank PercentileMethod = "nearest-rank"
	// Linear interpolates between the two sorted values around position
	// (N-1) * p/100, as numpy's default does.
	Linear PercentileMethod = "linear"
)

// Valid reports whether m names a method Percentile knows (the empty method
// counts as NearestRank).
func (m PercentileMethod) Valid() bool { return m == "" || m == NearestRank || m == Linear }

// Percentile returns the p-th percentile (0 <= p <= 100) of sorted, which
// must be in ascending order, by method. ok is false for an empty sample, a
// p outside [0, 100] or an unknown method.
func Percentile(sorted []float64, p float64, method PercentileMethod) (float64, bool) {
	return PercentileAt(len(sorted), func(rank int) float64 { return sorted[rank-1] }, p, method)
}

// PercentileAt is Percentile of a sorted sample of n values that is read
// through at, which returns the value of a 1-based rank: a sample held as
// counts of its distinct values answers it without being expanded. It
// reads at most two ranks, with the same arithmetic as Percentile.
func PercentileAt(n int, at func(rank int) float64, p float64, method PercentileMethod) (float64, bool) {
	if n == 0 || !(p >= 0 && p <= 100) {
		return 0, false
	}
	switch method {
	case "", NearestRank:
		// p*n/100 rather than p/100*n keeps integer ranks exact: 95% of 20
		// is rank 19, not 19.000000000000004 rounded up to 20.
		rank := int(math.Ceil(p * float64(n) / 100))
		rank = min(max(rank, 1), n)
		return at(rank), true
	case Linear:
		h := float64(n-1) * p / 100
		lo := int(math.Floor(h))
		if lo >= n-1 {
			return at(n), true
		}
		frac := h - float64(lo)
		a, b := at(lo+1), at(lo+2)
		return a + frac*(b-a), true
	}
	return 0, false
}
