package score

import "github.com/servebench/servebench/servebench/internal/scorer"

// init gives the run and its live metrics the scorer's inner entry points
// through package scorer.
func init() {
	scorer.Measure = measureOutcome
	scorer.SetRunDirCounting(runDirCounting)
}
