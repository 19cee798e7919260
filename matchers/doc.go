// Package matchers provides Gomega matchers that turn a servebench report
// into a test verdict, so that a missed service level objective fails
// `go test`:
//
//	report := result.Report
//	Expect(report).To(matchers.HaveAttainmentAtLeast(0.95))
//	Expect(report).To(matchers.HaveWilsonLowerBoundAbove(0.90))
//	Expect(report).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 200*time.Millisecond))
//	Expect(report).To(matchers.BeValidLoad())
//	Expect(report).To(matchers.InBreakdown("adapter", "sql", matchers.HaveAttainmentAtLeast(0.9)))
//	Expect(report).To(matchers.HaveSessionAttainmentAtLeast(0.95)) // conversations judged whole
//
// The actual value is a *report.Report or a report.Report, or a
// *servebench.RunResult (whose Report is judged); HaveCapacityAtLeast judges a
// *capacity.Sweep. InBreakdown applies another matcher to one value of one
// breakdown dimension (the attainment of adapter sql), and a dimension or
// value the report does not have is an error.
//
// # Rules every matcher follows
//
// Input that cannot be judged is an error from Match, never a verdict: a
// value of the wrong type, a nil report, a report with no offered requests,
// a fraction outside [0, 1], a NaN or negative limit. Gomega fails both To
// and NotTo on an error, so a negated assertion cannot pass by accident.
//
// Bounds are inclusive: "AtLeast" passes on equality, and "Below" means at
// most the limit, the same way the scorer judges a request against its SLO.
//
// Failure messages read like Gomega's own ("Expected attainment 0.500 (3 of
// 6 offered) to be at least 0.950"), then list the counts that explain the
// verdict (unqualified requests by failed criterion, terminal statuses) and
// up to five of the worst requests with their IDs and times in milliseconds.
//
// Matchers are pure. Match and both message methods compute the verdict
// from the actual value each time and keep nothing between calls, so a
// message printed out of band (a Ginkgo progress report, an Eventually
// retry) is always consistent and free of data races.
package matchers
