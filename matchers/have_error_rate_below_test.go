package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

var _ = Describe("HaveErrorRateBelow", func() {
	// sixRequests: 6 offered, 5 protocol successes, so 1 error: 1/6 = 0.1667.
	It("passes at or above the measured rate of offered - protocol successes", func() {
		Expect(sixRequests()).To(matchers.HaveErrorRateBelow(0.17))
		Expect(cohort(10, 10)).To(matchers.HaveErrorRateBelow(0))
	})

	It("does not count latency or quality failures as errors", func() {
		// r04 (TTFT) and r05 (quality) are unqualified but succeeded.
		Expect(sixRequests()).NotTo(matchers.HaveErrorRateBelow(0.16))
		Expect(sixRequests()).To(matchers.HaveErrorRateBelow(1.0 / 6))
	})

	It("says how errors are counted and lists the failed requests", func() {
		m := matchers.HaveErrorRateBelow(0.05)
		Expect(m.FailureMessage(sixRequests())).To(Equal(`Expected error rate 0.167 (1 of 6 offered did not end in success; errors = offered - protocol successes, over offered) to be at most 0.050
terminal statuses: success 5, timeout 1
failed requests:
    r06 timeout: scheduled 1500 ms, sent 1500 ms (lag 0 ms), E2E 1000 ms; failed status; error "no first token within 1000 ms"`))
	})

	It("counts unsent requests as errors", func() {
		// undelivered: r06 not_sent, still 1 of 6.
		m := matchers.HaveErrorRateBelow(0)
		Expect(undelivered()).NotTo(m)
		Expect(m.FailureMessage(undelivered())).To(ContainSubstring(`failed requests:
    r06 not_sent: scheduled 1500 ms, never sent; failed status; error "run cancelled before send"`))
	})

	It("explains a negated failure on its own", func() {
		Expect(matchers.HaveErrorRateBelow(0.2).NegatedFailureMessage(sixRequests())).To(Equal(`Expected error rate 0.167 (1 of 6 offered did not end in success; errors = offered - protocol successes, over offered) to be above 0.200
terminal statuses: success 5, timeout 1`))
	})

	DescribeTable("rejects input it cannot judge",
		func(limit float64, actual any, wantErr string) {
			ok, err := matchers.HaveErrorRateBelow(limit).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a limit above 1", 2.0, sixRequests(), "HaveErrorRateBelow needs an error-rate limit in [0, 1], got 2"),
		Entry("a NaN limit", nan(), sixRequests(), "got NaN"),
		Entry("no offered requests", 0.1, report.Report{}, "cannot judge a report with no offered requests"),
		Entry("nil", 0.1, nil, "HaveErrorRateBelow expects a *report.Report"),
	)
})
