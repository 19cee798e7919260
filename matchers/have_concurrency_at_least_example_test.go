package matchers_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/servebench/servebench/servebench/record"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
)

// A user search's SLO concurrency is its highest passing tested number of
// closed-loop users: here 16 (96 of 100 qualified), with 32 failing.
func ExampleHaveConcurrencyAtLeast() {
	point := func(users, qualified int) servebench.SweepPoint {
		a := float64(qualified) / 100
		return servebench.SweepPoint{Users: users, Report: &report.Report{Offered: 100, Qualified: qualified, Valid: true,
			Attainment: &a, StatusCounts: map[record.Status]int{}}}
	}
	sweep := &servebench.Sweep{Rule: servebench.CapacityRule{MinAttainment: 0.95},
		Points: []servebench.SweepPoint{point(8, 100), point(16, 96), point(32, 80)}}
	g := printFailures()
	g.Expect(sweep).To(matchers.HaveConcurrencyAtLeast(16))
	fmt.Println(servebench.BracketOf(sweep.Points, sweep.Rule))
	// Output:
	// between 16 and 32 users at 67.6822%
}
