package report

import "math"

// MinObservationsBeyond is how many observations must lie above a
// percentile below 100 for an objective or threshold on it to be judged:
// with fewer, the nearest-rank percentile is one of the few largest
// values (p99 of 40 requests is the slowest), so that a single slow
// request would decide it. The maximum (p100) is judged on any population
// that is not empty.
const MinObservationsBeyond = 5

// ObservationsBeyond is how many of n observations lie above the
// nearest-rank p-th percentile: n − ⌈p·n/100⌉.
func ObservationsBeyond(n int, p float64) int {
	return n - int(math.Ceil(p*float64(n)/100))
}

// ObservationsNeeded is the smallest population with
// MinObservationsBeyond observations above the p-th percentile, for p in
// (0, 100).
func ObservationsNeeded(p float64) int {
	// Start just below the answer, MinObservationsBeyond / (1 − p/100),
	// so that p99.9 costs a few steps and not thousands.
	n := max(int(math.Floor(MinObservationsBeyond/(1-p/100)))-2, MinObservationsBeyond)
	for ObservationsBeyond(n, p) < MinObservationsBeyond {
		n++
	}
	return n
}

// Judgeable reports whether a percentile p of a population of n
// observations can be judged: the population is not empty, and below
// p100 at least MinObservationsBeyond observations lie above it.
func Judgeable(n int, p float64) bool {
	return n > 0 && (p >= 100 || ObservationsBeyond(n, p) >= MinObservationsBeyond)
}
