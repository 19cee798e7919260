package servebench_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/servebench/servebench/servebench"
)

// The answer of a rate sweep as a bracket: 4 req/s passes with 200 of 200
// (two runs pooled) and 6 req/s fails with 150 of 200, against 0.95.
func ExampleBracketOf() {
	point := func(rate float64, qualified int) servebench.SweepPoint {
		a := float64(qualified) / 100
		return servebench.SweepPoint{OfferedRPS: rate, Report: &report.Report{Offered: 100, Qualified: qualified, Valid: true, Attainment: &a}}
	}
	points := []servebench.SweepPoint{point(4, 100), point(4, 100), point(6, 75), point(6, 75)}
	b := servebench.BracketOf(points, servebench.CapacityRule{MinAttainment: 0.95})
	fmt.Println(b.String(), b.Separated)
	// Output:
	// between 4 and 6 req/s at 99.9412% true
}

// Observers tells several observers of one run in turn; nil ones are
// skipped.
func ExampleObservers() {
	var log callLog
	obs := servebench.Observers(nil, &log)
	obs.Started(2)
	obs.Finished()
	fmt.Println(log.calls)
	// Output:
	// [started 2 finished]
}
