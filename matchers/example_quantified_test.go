package matchers_test

import (
	"fmt"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// An objective's bound and measured value as numbers, and why a
// fairness objective over a single tenant cannot be judged.
func ExampleQuantified() {
	a := 0.9
	r := &report.Report{Offered: 200, ProtocolSuccesses: 200, Qualified: 180, Attainment: &a, Valid: true,
		Breakdown: map[string]*report.BreakdownDimension{"tenant": {Values: map[string]report.BreakdownValue{
			"a": {Offered: 200, Qualified: 180, Attainment: &a}}}}}
	q := matchers.HaveAttainmentAtLeast(0.95).(matchers.Quantified)
	bound, unit := q.Bound()
	value, _ := q.Value(r)
	fmt.Println(value, bound, unit)
	reason, unjudged := matchers.HaveJainIndexAtLeast("tenant", 0.9).(matchers.Unjudgeable).Unjudged(r)
	fmt.Println(unjudged, reason)
	// Output:
	// 0.9 0.95 fraction
	// true Jain's index over tenant needs two values or more, and the requests carried 1 (a)
}
