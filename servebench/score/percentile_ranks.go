package score

import (
	"math"

	"github.com/servebench/servebench/servebench/stats"
)

// percentileRanks lists the 1-based ranks in a sorted sample of n values
// that stats.Percentile reads for p by method (n > 0, p in [0, 100]).
func percentileRanks(n int, p float64, method stats.PercentileMethod) []int {
	if method == stats.Linear {
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

// percentileFromRanks is stats.Percentile computed from the values at the
// ranks percentileRanks listed, with the same arithmetic.
func percentileFromRanks(n int, p float64, method stats.PercentileMethod, at map[int]float64) float64 {
	if method == stats.Linear {
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
