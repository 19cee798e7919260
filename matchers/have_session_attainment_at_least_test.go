package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// sessionsReport holds 205 offered sessions: 5 truncated, 200 completed,
// 190 qualified.
func sessionsReport() *report.Report {
	return &report.Report{Offered: 410, Sessions: &report.Sessions{Offered: 205, Completed: 200, Truncated: 5, Qualified: 190}}
}

var _ = Describe("HaveSessionAttainmentAtLeast", func() {
	It("passes when qualified / (offered - truncated) reaches the target, equality included", func() {
		Expect(sessionsReport()).To(matchers.HaveSessionAttainmentAtLeast(0.95))
		Expect(sessionsReport()).NotTo(matchers.HaveSessionAttainmentAtLeast(0.951))
	})

	It("names the counts on failure and on a negated failure", func() {
		Expect(matchers.HaveSessionAttainmentAtLeast(0.99).FailureMessage(sessionsReport())).To(Equal(
			"Expected session attainment 0.950 (190 of 200 sessions qualified; 205 offered, 5 truncated, 200 completed) to be at least 0.990"))
		Expect(matchers.HaveSessionAttainmentAtLeast(0.9).NegatedFailureMessage(sessionsReport())).To(Equal(
			"Expected session attainment 0.950 (190 of 200 sessions qualified; 205 offered, 5 truncated, 200 completed) not to be at least 0.900"))
	})

	It("measures and names itself", func() {
		m := matchers.HaveSessionAttainmentAtLeast(0.95)
		Expect(m.(interface{ Measured(any) (string, error) }).Measured(sessionsReport())).To(Equal("0.950 (190 of 200)"))
		Expect(m.(interface{ String() string }).String()).To(Equal("session attainment >= 0.950"))
	})

	DescribeTable("rejects input it cannot judge",
		func(target float64, actual any, wantErr string) {
			ok, err := matchers.HaveSessionAttainmentAtLeast(target).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(wantErr))
		},
		Entry("a target above 1", 1.5, sessionsReport(), "HaveSessionAttainmentAtLeast needs a session attainment target in [0, 1], got 1.5"),
		Entry("a report without sessions", 0.9, &report.Report{Offered: 3},
			"HaveSessionAttainmentAtLeast: the report has no sessions block (the workload has no conversations)"),
		Entry("only truncated sessions", 0.9, &report.Report{Offered: 2, Sessions: &report.Sessions{Offered: 2, Truncated: 2}},
			"HaveSessionAttainmentAtLeast: no session to judge (2 offered, 2 truncated)"),
	)
})

var _ = Describe("HaveSessionWilsonLowerBoundAbove", func() {
	withBound := func() *report.Report {
		r := sessionsReport()
		r.WilsonConfidence, r.Sessions.WilsonLower = 0.95, new(0.918)
		return r
	}

	It("passes when the session Wilson bound reaches the target and names the counts otherwise", func() {
		Expect(withBound()).To(matchers.HaveSessionWilsonLowerBoundAbove(0.9))
		m := matchers.HaveSessionWilsonLowerBoundAbove(0.95)
		Expect(m.Match(withBound())).To(BeFalse())
		Expect(m.FailureMessage(withBound())).To(Equal(
			"Expected session Wilson lower bound 0.918 (190 of 200 sessions qualified at 0.95 confidence) to be at least 0.950"))
	})

	It("fails clearly on a report without sessions", func() {
		_, err := matchers.HaveSessionWilsonLowerBoundAbove(0.9).Match(&report.Report{Offered: 1})
		Expect(err).To(MatchError("HaveSessionWilsonLowerBoundAbove: the report has no sessions block (the workload has no conversations)"))
	})
})
