package matchers_test

import (
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// Two tenants, one served in full and one at half: J = (1 + 0.5)² / (2 ×
// (1² + 0.5²)) = 2.25 / 2.5 = 0.9.
func ExampleHaveJainIndexAtLeast() {
	one, half, j := 1.0, 0.5, 0.9
	r := &report.Report{Offered: 20, Breakdown: map[string]*report.BreakdownDimension{"tenant": {
		Values: map[string]report.BreakdownValue{
			"a": {Offered: 10, Qualified: 10, Attainment: &one},
			"b": {Offered: 10, Qualified: 5, Attainment: &half},
		},
		Jain: &j,
	}}}
	g := printFailures()
	g.Expect(r).To(matchers.HaveJainIndexAtLeast("tenant", 0.9)) // passes
	g.Expect(r).To(matchers.HaveJainIndexAtLeast("tenant", 0.95))
	// Output:
	// Expected Jain's index over tenant 0.900 (attainment a 1.000 (10 of 10), b 0.500 (5 of 10)) to be at least 0.950
}
