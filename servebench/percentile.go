package servebench

import "math"

// The percentile methods a Report can use.
const (
	// PercentileNearestRank picks the value of rank ceil(p/100 * N) in the
	// sorted sample (rank 1 for p = 0): always an observed value.
	PercentileNearestRank = "nearest-rank"
	// PercentileLinear interpolates between the two sorted values around
	// position (N-1) * p/100, as numpy's default does.
	PercentileLinear = "linear"
)

// Percentile returns the p-th percentile (0 <= p <= 100) of sorted, which
// must be in ascending order, by method (PercentileNearestRank when empty,
// or PercentileLinear). ok is false for an empty sample, a p outside
// [0, 100] or an unknown method.
func Percentile(sorted []float64, p float64, method string) (float64, bool) {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 100) {
		return 0, false
	}
	switch method {
	case "", PercentileNearestRank:
		// p*n/100 rather than p/100*n keeps integer ranks exact: 95% of 20
		// is rank 19, not 19.000000000000004 rounded up to 20.
		rank := int(math.Ceil(p * float64(n) / 100))
		rank = min(max(rank, 1), n)
		return sorted[rank-1], true
	case PercentileLinear:
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

// validPercentileMethod reports whether m names a method Percentile knows.
func validPercentileMethod(m string) bool {
	return m == PercentileNearestRank || m == PercentileLinear
}

// percentileRanks lists the 1-based ranks in a sorted sample of n values
// that Percentile reads for p by method (n > 0, p in [0, 100]).
func percentileRanks(n int, p float64, method string) []int {
	if method == PercentileLinear {
		h := float64(n-1) * p / 100
		lo := int(math.Floor(h))
		if lo >= n-1 {
			return []int{n}
		}
		return []int{lo + 1, lo + 2}
	}
	rank := int(math.Ceil(p * float64(n) / 100))
	return []int{min(max(rank, 1), n)}
}

// percentileFromRanks is Percentile computed from the values at the ranks
// percentileRanks listed, with the same arithmetic.
func percentileFromRanks(n int, p float64, method string, at map[int]float64) float64 {
	if method == PercentileLinear {
		h := float64(n-1) * p / 100
		lo := int(math.Floor(h))
		if lo >= n-1 {
			return at[n]
		}
		frac := h - float64(lo)
		return at[lo+1] + frac*(at[lo+2]-at[lo+1])
	}
	rank := int(math.Ceil(p * float64(n) / 100))
	return at[min(max(rank, 1), n)]
}
