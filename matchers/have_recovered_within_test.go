package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// recoveredReport recovered 2000 ms after its burst, against 1.1 × a
// steady p99 of 100 ms.
func recoveredReport(recoveryMS *float64) *report.Report {
	bound := 110.0
	rec := &report.Recovery{BurstEndMS: 2000, BoundMS: &bound, Bound: "1.1 × steady p99", WindowRequests: 100, Windows: 3, Recovered: recoveryMS != nil}
	if recoveryMS == nil {
		rec.Reason = "no window of 100 requests after the burst had a p99 TTFT within 110 ms (3 windows of 305 requests after it)"
	}
	return &report.Report{Offered: 335, Recovery: rec, RecoveryMS: recoveryMS}
}

var _ = Describe("HaveRecoveredWithin", func() {
	It("passes when recovery_ms is at most the bound, equality included", func() {
		Expect(recoveredReport(new(2000.0))).To(matchers.HaveRecoveredWithin(2 * time.Second))
		Expect(recoveredReport(new(2000.0))).NotTo(matchers.HaveRecoveredWithin(1999 * time.Millisecond))
		Expect(matchers.HaveRecoveredWithin(time.Second).FailureMessage(recoveredReport(new(2000.0)))).To(Equal(
			"Expected recovery 2000 ms after the burst (p99 TTFT within 110 ms, 1.1 × steady p99) to be at most 1000 ms"))
	})

	It("fails a run that never recovered, saying why", func() {
		m := matchers.HaveRecoveredWithin(time.Minute)
		ok, err := m.Match(recoveredReport(nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(recoveredReport(nil))).To(Equal("Expected a recovery within 1m0s after the burst, but it did not recover: " +
			"no window of 100 requests after the burst had a p99 TTFT within 110 ms (3 windows of 305 requests after it)"))
		Expect(m.(interface{ Measured(any) (string, error) }).Measured(recoveredReport(nil))).To(Equal("none"))
	})

	DescribeTable("rejects what it cannot judge",
		func(d time.Duration, actual any, wantErr string) {
			ok, err := matchers.HaveRecoveredWithin(d).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(wantErr))
		},
		Entry("no burst phase", time.Second, &report.Report{Offered: 3},
			"HaveRecoveredWithin: the report has no recovery: the run's arrival plan has no phase named burst (--phases)"),
		Entry("nothing to bound it by", time.Second, &report.Report{Offered: 3, Recovery: &report.Recovery{Reason: "no TTFT SLO, and no phase named steady with a p99 TTFT: nothing bounds the recovery"}},
			"HaveRecoveredWithin: no TTFT SLO, and no phase named steady with a p99 TTFT: nothing bounds the recovery"),
		Entry("a bound of 0", time.Duration(0), recoveredReport(new(1.0)), "HaveRecoveredWithin needs a positive duration, got 0s"),
	)
})
