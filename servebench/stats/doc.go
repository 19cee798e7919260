// Package stats holds the statistics servebench judges runs with: pure
// functions of numbers, with no knowledge of requests, reports or runs, so
// that the scorer, the matchers and the commands compute the same figure
// the same way.
//
//   - WilsonLower: the one-sided Wilson score lower bound of a proportion
//     (is the attainment certified at a confidence level?).
//   - NormalQuantile: the inverse standard normal CDF the bound needs.
//   - Percentile: a percentile of a sorted sample, by a declared
//     PercentileMethod (NearestRank or Linear).
package stats
