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
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 100) {
		return 0, false
	}
	switch method {
	case "", NearestRank:
		// p*n/100 rather than p/100*n keeps integer ranks exact: 95% of 20
		// is rank 19, not 19.000000000000004 rounded up to 20.
		rank := int(math.Ceil(p * float64(n) / 100))
		rank = min(max(rank, 1), n)
		return sorted[rank-1], true
	case Linear:
		h := float64(n-1) * p / 100
		lo := int(math.Floor(h))
		if lo >= n-1 {
			return sorted[n-1], true
		}
		frac := h - float64(lo)
		return sorted[lo] + frac*(sorted[lo+1]-sorted[lo]), true
	}
	return 0, false
}
