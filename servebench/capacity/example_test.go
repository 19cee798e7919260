package capacity_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
)

// Selecting the SLO capacity of a sweep: supplied observations, not
// measurements.
func ExampleSelect() {
	point := func(rps float64, qualified int) capacity.Point {
		att := float64(qualified) / 100
		return capacity.Point{OfferedRPS: rps, Report: &report.Report{
			Offered: 100, Qualified: qualified, Attainment: &att, Valid: true, Backlog: &report.Backlog{}}}
	}
	sel := capacity.Select(
		[]capacity.Point{point(0.5, 100), point(1.0, 99), point(1.5, 96), point(2.0, 93)},
		capacity.Rule{MinAttainment: 0.95, RequireNoBacklogGrowth: true})
	fmt.Printf("%v rps: %s; failing neighbor %v rps\n", *sel.RPS, sel.Label, *sel.FailingNeighborRPS)
	// Output: 1.5 rps: highest passing tested offered rate; failing neighbor 2 rps
}
