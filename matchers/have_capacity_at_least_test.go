package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
)

// sweep tests 1, 2 and 4 req/s with attainments 1.00, 0.97 and 0.90 (100
// offered each) under α = 0.95: 1 and 2 pass, 4 fails, so the SLO capacity
// is 2 req/s with 4 req/s as its failing neighbor.
func sweep(rule capacity.Rule) *capacity.Sweep {
	return capacity.NewSweep([]capacity.Point{
		{OfferedRPS: 4, Report: cohort(90, 100)},
		{OfferedRPS: 1, Report: cohort(100, 100)},
		{OfferedRPS: 2, Report: cohort(97, 100)},
	}, rule)
}

var _ = Describe("HaveCapacityAtLeast", func() {
	It("passes when the highest passing tested rate reaches the target", func() {
		Expect(sweep(capacity.Rule{MinAttainment: 0.95})).To(matchers.HaveCapacityAtLeast(2))
		Expect(*sweep(capacity.Rule{MinAttainment: 0.95})).NotTo(matchers.HaveCapacityAtLeast(2.5))
	})

	It("lists the rule and every tested point with its verdict", func() {
		m := matchers.HaveCapacityAtLeast(3)
		Expect(m.FailureMessage(sweep(capacity.Rule{MinAttainment: 0.95}))).To(Equal(`Expected SLO capacity 2.000 req/s (highest passing tested offered rate; failing neighbor 4.000 req/s) to be at least 3.000 req/s
rule: attainment >= 0.950, load delivered
tested points:
    1.000 req/s: pass (attainment 1.000)
    2.000 req/s: pass (attainment 0.970)
    4.000 req/s: fail (attainment 0.900): attainment 0.900 (90 of 100 qualified) below 0.950
note: the boundary lies between 2 and 4 rps: refine between them and repeat the failing neighbor`))
	})

	It("judges the Wilson lower bound when the rule says so", func() {
		// 97 of 100 at 95%: bound 0.925 < 0.95, so only 1 req/s (100 of
		// 100: 100/102.705543 = 0.973657) passes.
		s := sweep(capacity.Rule{MinAttainment: 0.95, UseWilsonLower: true})
		Expect(s).NotTo(matchers.HaveCapacityAtLeast(2))
		Expect(s).To(matchers.HaveCapacityAtLeast(1))
		Expect(matchers.HaveCapacityAtLeast(2).FailureMessage(s)).To(ContainSubstring(`rule: 95% Wilson lower bound of attainment >= 0.950, load delivered
tested points:
    1.000 req/s: pass (95% Wilson lower bound of attainment 0.974)`))
	})

	It("says so when no tested rate passed", func() {
		// Even 100 of 100 has a 95% Wilson lower bound of only 0.974.
		s := sweep(capacity.Rule{MinAttainment: 0.99, UseWilsonLower: true})
		Expect(s).NotTo(matchers.HaveCapacityAtLeast(0))
		Expect(matchers.HaveCapacityAtLeast(0.5).FailureMessage(s)).To(HavePrefix(
			"Expected SLO capacity to be at least 0.500 req/s, but no tested offered rate passed\nrule: 95% Wilson lower bound of attainment >= 0.990, load delivered\n"))
	})

	It("names a rate whose backlog could not be judged inconclusive, not failed", func() {
		// cohort reports carry no backlog, so with the backlog rule no
		// rate can be judged: each is inconclusive, and none passes.
		s := sweep(capacity.Rule{MinAttainment: 0.85, RequireNoBacklogGrowth: true})
		Expect(s).NotTo(matchers.HaveCapacityAtLeast(1))
		Expect(matchers.HaveCapacityAtLeast(1).FailureMessage(s)).To(ContainSubstring(
			"    1.000 req/s: inconclusive (attainment 1.000): backlog not measured, so no growth cannot be shown"))
	})

	It("reads a negated failure on its own", func() {
		Expect(matchers.HaveCapacityAtLeast(1).NegatedFailureMessage(sweep(capacity.Rule{}))).To(HavePrefix(
			"Expected SLO capacity 2.000 req/s (highest passing tested offered rate; failing neighbor 4.000 req/s) not to be at least 1.000 req/s\nrule: attainment >= 0.950, load delivered\n"))
	})

	DescribeTable("rejects input it cannot judge",
		func(rps float64, actual any, wantErr string) {
			ok, err := matchers.HaveCapacityAtLeast(rps).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a NaN rate", nan(), sweep(capacity.Rule{}), "HaveCapacityAtLeast needs a finite, non-negative rate in requests per second, got NaN"),
		Entry("a negative rate", -2.0, sweep(capacity.Rule{}), "got -2"),
		Entry("a sweep without points", 1.0, &capacity.Sweep{}, "HaveCapacityAtLeast cannot judge a sweep without points"),
		Entry("a nil sweep", 1.0, (*capacity.Sweep)(nil), "HaveCapacityAtLeast expects a sweep, got a nil one"),
		Entry("a report", 1.0, sixRequests(), "HaveCapacityAtLeast expects a *capacity.Sweep or a capacity.Sweep.  Got:\n    <*report.Report | 0x"),
	)
})
