package matchers_test

import (
	"time"

	"github.com/servebench/servebench/servebench/record"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
)

var _ = Describe("MeetSLOs", func() {
	It("passes when every objective holds", func() {
		Expect(sixRequests()).To(matchers.MeetSLOs(
			matchers.BeValidLoad(),
			matchers.HaveAttainmentAtLeast(0.5),
			matchers.HaveErrorRateBelow(0.2),
		))
	})

	It("lists every violated objective, not only the first, and the ones that held", func() {
		m := matchers.MeetSLOs(
			matchers.HaveAttainmentAtLeast(0.95),
			matchers.BeValidLoad(),
			matchers.HaveErrorRateBelow(0.05),
			matchers.HaveQualifiedRateAtLeast(1),
		)
		Expect(sixRequests()).NotTo(m)
		Expect(m.FailureMessage(sixRequests())).To(Equal(`Expected all 4 objectives to be met, but 2 were violated:
1. attainment >= 0.950
    Expected attainment 0.500 (3 of 6 offered) to be at least 0.950
    unqualified requests by failed criterion (a request can fail several): status 1, quality 1, ttft 1
    terminal statuses: success 5, timeout 1
    SLO: TTFT <= 300 ms (from sent), TPOT <= 80 ms, E2E <= 3000 ms
    worst unqualified requests:
        r06 timeout: scheduled 1500 ms, sent 1500 ms (lag 0 ms), E2E 1000 ms; failed status; error "no first token within 1000 ms"
        r05 success: scheduled 1200 ms, sent 1200 ms (lag 0 ms), TTFT 220 ms, TPOT 40 ms, E2E 450 ms; failed quality; quality "expected \"Paris\" in the answer"
        r04 success: scheduled 750 ms, sent 765 ms (lag 15 ms), TTFT 350 ms, TPOT 60 ms, E2E 800 ms; failed ttft
3. error rate <= 0.050
    Expected error rate 0.167 (1 of 6 offered did not end in success; errors = offered - protocol successes, over offered) to be at most 0.050
    terminal statuses: success 5, timeout 1
    failed requests:
        r06 timeout: scheduled 1500 ms, sent 1500 ms (lag 0 ms), E2E 1000 ms; failed status; error "no first token within 1000 ms"
met: valid load; qualified request rate >= 1.000 req/s`))
	})

	It("explains a negated failure by naming every objective met", func() {
		m := matchers.MeetSLOs(matchers.HaveAttainmentAtLeast(0.5), matchers.HaveNoLostRequests())
		Expect(m.NegatedFailureMessage(sixRequests())).To(Equal(
			"Expected at least one of 2 objectives to be violated, but all were met: attainment >= 0.500; no lost requests"))
	})

	It("accepts any Gomega matcher as an objective", func() {
		Expect(sixRequests()).To(matchers.MeetSLOs(
			matchers.HaveAttainmentAtLeast(0.5),
			HaveField("Qualified", 3),
		))
	})

	It("turns an objective that cannot judge into an error in both directions", func() {
		m := matchers.MeetSLOs(matchers.HaveAttainmentAtLeast(0.5), matchers.HaveAttainmentAtLeast(2))
		ok, err := m.Match(sixRequests())
		Expect(ok).To(BeFalse())
		Expect(err).To(MatchError("MeetSLOs objective 2 (attainment >= 2.000) cannot be judged: HaveAttainmentAtLeast needs an attainment target in [0, 1], got 2"))
	})

	It("rejects an empty or nil objective list", func() {
		_, err := matchers.MeetSLOs().Match(sixRequests())
		Expect(err).To(MatchError("MeetSLOs needs at least one objective"))
		_, err = matchers.MeetSLOs(nil).Match(sixRequests())
		Expect(err).To(MatchError("MeetSLOs objective 1 is nil"))
	})

	It("names percentile objectives by metric, percentile and limit", func() {
		Expect(matchers.MeetSLOs(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 200*time.Millisecond))).To(
			HaveField("String()", "all of: p99 TTFT <= 200 ms"))
	})
})
