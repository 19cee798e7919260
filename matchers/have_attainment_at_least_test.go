package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

var _ = Describe("HaveAttainmentAtLeast", func() {
	It("passes when qualified / offered reaches the target, equality included", func() {
		Expect(sixRequests()).To(matchers.HaveAttainmentAtLeast(0.5))
		Expect(sixRequests()).To(matchers.HaveAttainmentAtLeast(0.49))
		Expect(*sixRequests()).To(matchers.HaveAttainmentAtLeast(0))
	})

	It("fails below the target, and the negation passes", func() {
		Expect(sixRequests()).NotTo(matchers.HaveAttainmentAtLeast(0.51))
		Expect(sixRequests()).NotTo(matchers.HaveAttainmentAtLeast(0.95))
	})

	It("explains a failure with the counts by reason and status and the worst requests first", func() {
		m := matchers.HaveAttainmentAtLeast(0.95)
		Expect(m.Match(sixRequests())).To(BeFalse())
		Expect(m.FailureMessage(sixRequests())).To(Equal(`Expected attainment 0.500 (3 of 6 offered) to be at least 0.950
unqualified requests by failed criterion (a request can fail several): status 1, quality 1, ttft 1
terminal statuses: success 5, timeout 1
SLO: TTFT <= 300 ms (from sent), TPOT <= 80 ms, E2E <= 3000 ms
worst unqualified requests:
    r06 timeout: scheduled 1500 ms, sent 1500 ms (lag 0 ms), E2E 1000 ms; failed status; error "no first token within 1000 ms"
    r05 success: scheduled 1200 ms, sent 1200 ms (lag 0 ms), TTFT 220 ms, TPOT 40 ms, E2E 450 ms; failed quality; quality "expected \"Paris\" in the answer"
    r04 success: scheduled 750 ms, sent 765 ms (lag 15 ms), TTFT 350 ms, TPOT 60 ms, E2E 800 ms; failed ttft`))
	})

	It("explains a negated failure on its own", func() {
		m := matchers.HaveAttainmentAtLeast(0.5)
		Expect(m.NegatedFailureMessage(sixRequests())).To(Equal(`Expected attainment 0.500 (3 of 6 offered) not to be at least 0.500
unqualified requests by failed criterion (a request can fail several): status 1, quality 1, ttft 1
terminal statuses: success 5, timeout 1
SLO: TTFT <= 300 ms (from sent), TPOT <= 80 ms, E2E <= 3000 ms`))
	})

	It("ranks latency failures by how far they overshot their bound and shows at most five", func() {
		r := cohort(2, 9)
		r.SLO = report.SLO{E2E: 1000 * time.Millisecond}
		// Turn the seven HTTP errors (q003..q009) into successes that
		// missed E2E by 1.1x .. 1.7x in schedule order; the worst must
		// come first.
		for i := 2; i < 9; i++ {
			rs := success(r.Requests[i].ID, r.Requests[i].ScheduledMS, *r.Requests[i].SentMS, 100, 20, 1000+float64(i-1)*100)
			r.Requests[i] = unqualified(rs, report.ReasonE2E)
		}
		r.ProtocolSuccesses = 9
		r.StatusCounts = statusCounts(map[record.Status]int{record.StatusSuccess: 9})
		r.ReasonCounts = map[report.Reason]int{report.ReasonE2E: 7}
		Expect(matchers.HaveAttainmentAtLeast(1).FailureMessage(r)).To(Equal(`Expected attainment 0.222 (2 of 9 offered) to be at least 1.000
unqualified requests by failed criterion (a request can fail several): e2e 7
terminal statuses: success 9
SLO: E2E <= 1000 ms
worst unqualified requests:
    q009 success: scheduled 800 ms, sent 801 ms (lag 1 ms), TTFT 100 ms, TPOT 20 ms, E2E 1700 ms; failed e2e
    q008 success: scheduled 700 ms, sent 701 ms (lag 1 ms), TTFT 100 ms, TPOT 20 ms, E2E 1600 ms; failed e2e
    q007 success: scheduled 600 ms, sent 601 ms (lag 1 ms), TTFT 100 ms, TPOT 20 ms, E2E 1500 ms; failed e2e
    q006 success: scheduled 500 ms, sent 501 ms (lag 1 ms), TTFT 100 ms, TPOT 20 ms, E2E 1400 ms; failed e2e
    q005 success: scheduled 400 ms, sent 401 ms (lag 1 ms), TTFT 100 ms, TPOT 20 ms, E2E 1300 ms; failed e2e
    ... and 2 more`))
	})

	DescribeTable("rejects input it cannot judge, in both directions",
		func(target float64, actual any, wantErr string) {
			m := matchers.HaveAttainmentAtLeast(target)
			ok, err := m.Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a target above 1", 1.5, sixRequests(), "HaveAttainmentAtLeast needs an attainment target in [0, 1], got 1.5"),
		Entry("a negative target", -0.1, sixRequests(), "in [0, 1], got -0.1"),
		Entry("a NaN target", nan(), sixRequests(), "in [0, 1], got NaN"),
		Entry("a nil report", 0.9, (*report.Report)(nil), "HaveAttainmentAtLeast expects a report, got a nil one"),
		Entry("a value of another type", 0.9, 0.97, "HaveAttainmentAtLeast expects a *report.Report, a report.Report or a *servebench.RunResult.  Got:\n    <float64>: 0.97"),
		Entry("no offered requests", 0.9, &report.Report{}, "HaveAttainmentAtLeast cannot judge a report with no offered requests (offered = 0)"),
	)
})
