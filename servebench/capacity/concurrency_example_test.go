package capacity_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
)

// The answer of a rate sweep as a bracket: 4 req/s passes with 200 of 200
// (two runs pooled) and 6 req/s fails with 150 of 200, against 0.95.
func ExampleBracketOf() {
	point := func(rate float64, qualified int) capacity.Point {
		a := float64(qualified) / 100
		return capacity.Point{OfferedRPS: rate, Report: &report.Report{Offered: 100, Qualified: qualified, Valid: true, Attainment: &a}}
	}
	points := []capacity.Point{point(4, 100), point(4, 100), point(6, 75), point(6, 75)}
	b := capacity.BracketOf(points, capacity.Rule{MinAttainment: 0.95})
	fmt.Println(b.String(), b.Separated)
	// Output:
	// SLO capacity between 4 and 6 req/s; confidence in the bracket 99.941% (limited by 4 req/s, shown to pass) true
}
