package matchers_test

import (
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func ExampleHaveSessionAttainmentAtLeast() {
	r := &report.Report{Offered: 410, Sessions: &report.Sessions{Offered: 205, Completed: 200, Truncated: 5, Qualified: 190}}
	g := printFailures()
	g.Expect(r).To(matchers.HaveSessionAttainmentAtLeast(0.95)) // 190 of 200: passes
	g.Expect(r).To(matchers.HaveSessionAttainmentAtLeast(0.99))
	// Output:
	// Expected session attainment 0.950 (190 of 200 sessions qualified; 205 offered, 5 truncated, 200 completed) to be at least 0.990
}
