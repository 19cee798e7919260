// Package compare decides whether a candidate engine is worse than a
// baseline on the same workload by more than noise explains.
//
// Each side is a list of run reports, one per round. Round K of the baseline
// and round K of the candidate ran the same schedule (the same workload,
// arrival process, rate, request count and seed), in the balanced ABBA
// order, so the rounds pair up; Reports refuses pairs that did not, unless
// told otherwise. With two or more rounds per side every interval uses
// the requests of each round and the variation between rounds: for latency
// percentiles and qualified_rps, the Hartung–Knapp random-effects interval
// on the paired per-round differences (log ratios), each round weighed by
// its own sampling variance (order statistics of its requests; Poisson
// counts) plus the between-round variance (DerSimonian–Laird); a paired
// t-interval for pooled gaps, or Welch's interval when the sides have
// different round counts; for attainment and error rate, score intervals
// on the requests pooled over the rounds, each end the wider of
// Miettinen and Nurminen's binomial bound and a quasi-binomial score bound
// whose dispersion (Pearson χ² over the rounds) takes overdispersion
// between rounds, never of zero width. A tolerance below the run-to-run noise measured in the
// rounds is refused. With one round per side the intervals come from the
// requests of that single run and the verdict is Advisory: percentiles by a
// seeded bootstrap of the report's percentile definition, attainment and
// error rate by Newcombe's score interval, qualified_rps by the Poisson
// approximation of the qualified counts.
//
// Latency percentiles count each failed request as slower than any
// success, so a regression cannot hide as errors; the success-only figure
// is reported beside. A percentile with fewer than five observations
// beyond it, pooled over a side's rounds, is InsufficientData.
//
// Options.Decide names the statistics that make the verdict (by default
// DefaultDecide); the others are Informational. The deciding comparisons
// are controlled as a family: with k of them at confidence c, each lower
// end is a one-sided bound at level 1 − (1 − c)/k (Bonferroni). A
// regression is declared when one lower end lies beyond its tolerance, so
// when no metric is truly worse than its tolerance the chance of any false
// regression is at most 1 − c. Each upper end is a one-sided bound at
// 1 − (1 − c): no_regression needs every upper end within its tolerance,
// so a candidate truly worse on one metric is passed with probability at
// most 1 − c (an intersection–union test). Options.Look makes the comparison one
// look of a group-sequential procedure (SequentialRule): the look spends
// only its share of 1 − c (SpentAlpha), so that the guarantees hold over
// every look that package ab takes.
//
// CheckPlan checks a planned run size against the tolerances before any
// load, and MeasureNoise measures the noise floor of identical rounds of
// one engine (noise.json).
//
// Every change is signed so that positive is worse: a relative change is
// candidate/baseline − 1 (baseline/candidate − 1 for qualified_rps, where
// less is worse), an absolute one is a difference of fractions.
package compare
