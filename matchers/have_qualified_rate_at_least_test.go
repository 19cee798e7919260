package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

var _ = Describe("HaveQualifiedRateAtLeast", func() {
	// sixRequests: 3 qualified over a 2500 ms horizon = 1.2 req/s.
	It("passes when qualified / horizon reaches the target", func() {
		Expect(sixRequests()).To(matchers.HaveQualifiedRateAtLeast(1.2))
		Expect(sixRequests()).NotTo(matchers.HaveQualifiedRateAtLeast(1.21))
	})

	It("names the numerator, the horizon and the offered rate", func() {
		m := matchers.HaveQualifiedRateAtLeast(2)
		Expect(m.FailureMessage(sixRequests())).To(Equal(`Expected qualified request rate 1.200 req/s (3 qualified of 6 offered over a 2500 ms horizon, offered 3.000 req/s) to be at least 2.000 req/s
unqualified requests by failed criterion (a request can fail several): status 1, quality 1, ttft 1
terminal statuses: success 5, timeout 1
SLO: TTFT <= 300 ms (from sent), TPOT <= 80 ms, E2E <= 3000 ms
worst unqualified requests:
    r06 timeout: scheduled 1500 ms, sent 1500 ms (lag 0 ms), E2E 1000 ms; failed status; error "no first token within 1000 ms"
    r05 success: scheduled 1200 ms, sent 1200 ms (lag 0 ms), TTFT 220 ms, TPOT 40 ms, E2E 450 ms; failed quality; quality "expected \"Paris\" in the answer"
    r04 success: scheduled 750 ms, sent 765 ms (lag 15 ms), TTFT 350 ms, TPOT 60 ms, E2E 800 ms; failed ttft`))
		Expect(matchers.HaveQualifiedRateAtLeast(1).NegatedFailureMessage(sixRequests())).To(Equal(
			"Expected qualified request rate 1.200 req/s (3 qualified of 6 offered over a 2500 ms horizon, offered 3.000 req/s) not to be at least 1.000 req/s"))
	})

	DescribeTable("rejects input it cannot judge",
		func(target float64, actual any, wantErr string) {
			ok, err := matchers.HaveQualifiedRateAtLeast(target).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a negative rate", -1.0, sixRequests(), "HaveQualifiedRateAtLeast needs a finite, non-negative rate in requests per second, got -1"),
		Entry("a NaN rate", nan(), sixRequests(), "got NaN"),
		Entry("a report without a qualified rate", 1.0, &report.Report{Offered: 3}, "HaveQualifiedRateAtLeast cannot judge a report without a qualified request rate (horizon 0 ms)"),
		Entry("no offered requests", 1.0, &report.Report{}, "no offered requests"),
	)
})
