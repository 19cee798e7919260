// Package history finds where a release pipeline's metrics shifted level.
//
// A history is one run per release, in release order: a report.json (a
// run directory) or a compare.json (an A/B directory, whose candidate side
// is the release). For every metric — attainment, error rate and the p50
// and p99 of TTFT, TPOT and E2E — the per-release values form a series, and
// the series is split where its level shifted by e-divisive means
// (Matteson and James, 2014; the method of MongoDB's and Hunter's
// performance CI): the split that maximizes the energy distance between
// the two sides is kept when a permutation test, the series shuffled 199
// times with a fixed seed, gives a p-value at most the stated false-alarm
// rate (default 0.05); each kept split's two segments are searched again.
// Latency metrics are split on the log scale, so that a shift is a ratio.
//
// Each change is reported with the release where it started, its size
// (relative for latency, points for fractions, signed so that positive is
// worse) and a Welch t-interval between the two segments' values.
package history
