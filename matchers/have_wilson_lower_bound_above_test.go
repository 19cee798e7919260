package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// The bounds below are the one-sided Wilson lower bounds computed by hand
// from (p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n):
//
//	190/200 at 95%: z = 1.644854, bound 0.918108
//	200/200 at 95%: n/(n+z²) = 200/202.705543 = 0.986653
//	 20/20  at 95%: 20/22.705543 = 0.880842
//	 20/20  at 99%: z = 2.326348, 20/25.411894 = 0.787033
var _ = Describe("HaveWilsonLowerBoundAbove", func() {
	It("fails 190 of 200 against 0.95 although 95% were observed, and says 91.8%", func() {
		m := matchers.HaveWilsonLowerBoundAbove(0.95)
		Expect(m.Match(cohort(190, 200))).To(BeFalse())
		Expect(m.FailureMessage(cohort(190, 200))).To(Equal(`Expected the one-sided 95% Wilson lower bound of attainment 91.8% (190 of 200 offered qualified, observed 95.0%) to be at least 95.0%
(the bound lies below the observed rate, so no number of requests at the observed 95.0% can reach 95.0%)
unqualified requests by failed criterion (a request can fail several): status 10
terminal statuses: success 190, http_error 10
worst unqualified requests:
    q191 http_error: scheduled 19000 ms, sent 19001 ms (lag 1 ms), E2E 5 ms; failed status; error "HTTP 500: overloaded"
    q192 http_error: scheduled 19100 ms, sent 19101 ms (lag 1 ms), E2E 5 ms; failed status; error "HTTP 500: overloaded"
    q193 http_error: scheduled 19200 ms, sent 19201 ms (lag 1 ms), E2E 5 ms; failed status; error "HTTP 500: overloaded"
    q194 http_error: scheduled 19300 ms, sent 19301 ms (lag 1 ms), E2E 5 ms; failed status; error "HTTP 500: overloaded"
    q195 http_error: scheduled 19400 ms, sent 19401 ms (lag 1 ms), E2E 5 ms; failed status; error "HTTP 500: overloaded"
    ... and 5 more`))
	})

	It("passes when the bound reaches the target, and the negation reads on its own", func() {
		m := matchers.HaveWilsonLowerBoundAbove(0.918)
		Expect(cohort(190, 200)).To(m)
		Expect(m.NegatedFailureMessage(cohort(190, 200))).To(Equal(
			"Expected the one-sided 95% Wilson lower bound of attainment 91.8% (190 of 200 offered qualified, observed 95.0%) not to be at least 91.8%"))
		Expect(cohort(190, 200)).NotTo(matchers.HaveWilsonLowerBoundAbove(0.919))
	})

	It("says how many requests at the observed rate would clear the target", func() {
		// 200/200 gives 0.986653 < 0.99; n/(n+z²) >= 0.99 first holds at
		// n = 268 (267/269.705543 = 0.989969, 268/270.705543 = 0.990006).
		m := matchers.HaveWilsonLowerBoundAbove(0.99)
		Expect(cohort(200, 200)).NotTo(m)
		Expect(m.FailureMessage(cohort(200, 200))).To(Equal(`Expected the one-sided 95% Wilson lower bound of attainment 98.7% (200 of 200 offered qualified, observed 100.0%) to be at least 99.0%
(at the observed 100.0%, about 268 offered requests would be needed to reach 99.0%)
terminal statuses: success 200`))
	})

	It("shows that twenty perfect requests do not certify 95%", func() {
		Expect(cohort(20, 20)).To(matchers.HaveWilsonLowerBoundAbove(0.88))
		Expect(cohort(20, 20)).NotTo(matchers.HaveWilsonLowerBoundAbove(0.95))
	})

	It("computes the bound at the confidence it is given", func() {
		m := matchers.HaveWilsonLowerBoundAbove(0.80, matchers.WithConfidence(0.99))
		Expect(cohort(20, 20)).NotTo(m)
		Expect(cohort(20, 20)).To(matchers.HaveWilsonLowerBoundAbove(0.787, matchers.WithConfidence(0.99)))
		Expect(m.FailureMessage(cohort(20, 20))).To(HavePrefix(
			"Expected the one-sided 99% Wilson lower bound of attainment 78.7% (20 of 20 offered qualified, observed 100.0%) to be at least 80.0%\n"))
	})

	DescribeTable("rejects input it cannot judge",
		func(m types.GomegaMatcher, actual any, wantErr string) {
			ok, err := m.Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a target above 1", matchers.HaveWilsonLowerBoundAbove(1.01), cohort(1, 1),
			"HaveWilsonLowerBoundAbove needs a target in [0, 1], got 1.01"),
		Entry("a NaN target", matchers.HaveWilsonLowerBoundAbove(nan()), cohort(1, 1), "got NaN"),
		Entry("a confidence of 1", matchers.HaveWilsonLowerBoundAbove(0.9, matchers.WithConfidence(1)), cohort(1, 1),
			"HaveWilsonLowerBoundAbove needs a confidence strictly between 0 and 1, got 1"),
		Entry("a confidence of 0", matchers.HaveWilsonLowerBoundAbove(0.9, matchers.WithConfidence(0)), cohort(1, 1),
			"strictly between 0 and 1, got 0"),
		Entry("no offered requests", matchers.HaveWilsonLowerBoundAbove(0.9), &report.Report{}, "cannot judge a report with no offered requests"),
		Entry("a string", matchers.HaveWilsonLowerBoundAbove(0.9), "report.json", "HaveWilsonLowerBoundAbove expects a *report.Report"),
	)
})
