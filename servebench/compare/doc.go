// Package compare decides whether a candidate engine is worse than a
// baseline on the same workload by more than noise explains.
//
// Each side is a list of run reports, one per round. Round K of the baseline
// and round K of the candidate ran the same workload with the same arrival
// seed, in alternating order, so the rounds pair up. With two or more rounds
// per side every interval comes from the variation between rounds: a
// Student t-interval on the paired per-round differences of the statistic
// (log ratios for relative comparisons), or Welch's interval when the sides
// have different round counts. With one round per side the intervals come
// from the requests of that single run, and the comparison says they are
// blind to run-to-run variance: percentiles by a seeded bootstrap of the
// nearest-rank order statistic, attainment and error rate by Newcombe's
// score interval for a difference of proportions, qualified_rps by the
// Poisson approximation of the qualified counts.
//
// The comparisons are controlled as a family with Bonferroni: with k
// comparisons at confidence c, every interval is two-sided at level
// 1 − 2(1 − c)/k, so each of its ends is a one-sided bound at level
// 1 − (1 − c)/k. A regression is declared only when the lower end lies
// beyond the tolerance, so when no metric is truly worse than its tolerance
// the chance of any false regression is at most 1 − c; likewise for a false
// no_regression when some metric is.
//
// Every change is signed so that positive is worse: a relative change is
// candidate/baseline − 1 (baseline/candidate − 1 for qualified_rps, where
// less is worse), an absolute one is a difference of fractions.
package compare
