// Package ab runs an A/B qualification: rounds of one baseline run and one
// candidate run of the same workload, arrival process and seed, in the
// balanced ABBA order, then compares the two sides with package compare
// and writes compare.json, compare.txt and compare.html beside the runs.
// By default (RoundsAuto) it looks after 4 rounds and after every 2 more,
// and stops once every deciding statistic is decided, at MaxRounds or at
// MaxDuration; compare.json's stopping record says which.
//
// Entry points:
//
//	Run (Config)            run the rounds, keep every run, compare them and write the comparison
//	Result                  every finished run's report, the run order and the comparison
//	ErrInterrupted          the qualification's context ended before its last run
//
// The comparison itself (the intervals, the tolerances and the verdict) is
// package compare's, which needs no run: it compares reports loaded from
// disk as well.
package ab
