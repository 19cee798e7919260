package matchers_test

import (
	"fmt"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// A user search's SLO concurrency is its highest passing tested number of
// closed-loop users: here 16 (96 of 100 qualified), with 32 failing.
func ExampleHaveConcurrencyAtLeast() {
	point := func(users, qualified int) capacity.Point {
		a := float64(qualified) / 100
		return capacity.Point{Users: users, Report: &report.Report{Offered: 100, Qualified: qualified, Valid: true,
			Attainment: &a, StatusCounts: map[record.Status]int{}}}
	}
	sweep := &capacity.Sweep{Rule: capacity.Rule{MinAttainment: 0.95},
		Points: []capacity.Point{point(8, 100), point(16, 96), point(32, 80)}}
	g := printFailures()
	g.Expect(sweep).To(matchers.HaveConcurrencyAtLeast(16))
	fmt.Println(capacity.BracketOf(sweep.Points, sweep.Rule))
	// Output:
	// SLO concurrency between 16 and 32 users; confidence in the bracket 68% (limited by 16 users, not shown to pass)
}
