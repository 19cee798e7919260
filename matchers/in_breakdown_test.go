package matchers_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// adapterMix scores 30 requests, one every 100 ms over [0, 3000) ms,
// against TTFT <= 300 ms. The first 20 go to adapter sql with TTFT 100,
// 110, ..., 270 ms and then 450 and 500 ms; the last 10 go to adapter
// base with TTFT 50 ms (7 of them) and 400 ms (3). Every request succeeds
// with 2 tokens 30 ms apart.
//
// sql: 18 of 20 qualify, attainment 0.9; the one-sided 95% Wilson lower
// bound is (0.9 + z²/40 − z·sqrt(0.09/20 + z²/1600)) / (1 + z²/20) with
// z = 1.6449: 0.7383. Its nearest-rank TTFT p90 is the 18th of 20 sorted
// values, 270 ms; p99 is the 20th, 500 ms. base: 7 of 10 qualify. The
// whole cohort's TTFT p90 is the 27th of 30, 400 ms.
func adapterMix() *report.Report {
	sched := &schedule.Schedule{WindowMS: [2]float64{0, 3000}, ScheduleLagToleranceMS: 20}
	var outcomes []record.Outcome
	for i := range 30 {
		id := fmt.Sprintf("q%02d", i+1)
		adapter, ttft := "sql", 100+10*float64(i)
		switch {
		case i == 18:
			ttft = 450
		case i == 19:
			ttft = 500
		case i >= 20:
			adapter, ttft = "base", 50
			if i >= 27 {
				ttft = 400
			}
		}
		a := float64(i) * 100
		sched.Entries = append(sched.Entries, schedule.Entry{ID: id, ScheduledMS: a, Adapter: adapter})
		n := 2
		outcomes = append(outcomes, record.Outcome{
			ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: ptr(a), Adapter: adapter,
			FirstContentMS: ptr(a + ttft), LastContentMS: ptr(a + ttft + 30), TerminalMS: a + ttft + 31,
			ContentMS: []float64{a + ttft, a + ttft + 30}, OutputTokens: &n,
		})
	}
	r, err := score.Outcomes(sched, outcomes, score.Options{SLO: report.SLO{TTFT: 300 * time.Millisecond}})
	if err != nil {
		panic(err)
	}
	return r
}

var _ = Describe("InBreakdown", func() {
	sql := func(m types.GomegaMatcher) types.GomegaMatcher { return matchers.InBreakdown("adapter", "sql", m) }

	It("judges the attainment of one value: 18 of 20 is 0.9, equality included", func() {
		r := adapterMix()
		Expect(r.Breakdown["adapter"].Values["sql"].Qualified).To(Equal(18))
		Expect(r).To(sql(matchers.HaveAttainmentAtLeast(0.9)))
		Expect(r).NotTo(sql(matchers.HaveAttainmentAtLeast(0.91)))
		Expect(*r).To(sql(matchers.HaveAttainmentAtLeast(0.9)))
		// The whole cohort, 25 of 30, does not reach 0.9.
		Expect(r).NotTo(matchers.HaveAttainmentAtLeast(0.9))
		Expect(r).To(matchers.InBreakdown("adapter", "base", matchers.HaveAttainmentAtLeast(0.7)))
		Expect(r).NotTo(matchers.InBreakdown("adapter", "base", matchers.HaveAttainmentAtLeast(0.71)))
	})

	It("judges the Wilson lower bound of one value's counts: 18 of 20 at 95% is 0.7383", func() {
		Expect(adapterMix()).To(sql(matchers.HaveWilsonLowerBoundAbove(0.738)))
		Expect(adapterMix()).NotTo(sql(matchers.HaveWilsonLowerBoundAbove(0.739)))
	})

	It("judges one value's stored latency percentiles, not the cohort's", func() {
		r := adapterMix()
		Expect(r).To(sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 270*time.Millisecond)))
		Expect(r).NotTo(sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 269*time.Millisecond)))
		Expect(r).NotTo(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 270*time.Millisecond))
		Expect(r).To(sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 500*time.Millisecond)))
		Expect(r).To(sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 100, 500*time.Millisecond)))
		Expect(r).To(sql(matchers.HaveLatencyPercentileBelow(record.MetricTPOT, 50, 30*time.Millisecond)))
		Expect(r).NotTo(sql(matchers.HaveLatencyPercentileBelow(record.MetricE2E, 50, 220*time.Millisecond)))
	})

	It("names the selection first, then the applied matcher's message on the value's own requests", func() {
		m := sql(matchers.HaveAttainmentAtLeast(0.91))
		Expect(m.FailureMessage(adapterMix())).To(Equal(`in breakdown adapter=sql: Expected attainment 0.900 (18 of 20 offered) to be at least 0.910
unqualified requests by failed criterion (a request can fail several): ttft 2
terminal statuses: success 20
SLO: TTFT <= 300 ms (from sent)
worst unqualified requests:
    q20 success: scheduled 1900 ms, sent 1900 ms (lag 0 ms), TTFT 500 ms, TPOT 30 ms, E2E 531 ms; failed ttft
    q19 success: scheduled 1800 ms, sent 1800 ms (lag 0 ms), TTFT 450 ms, TPOT 30 ms, E2E 481 ms; failed ttft`))
		Expect(sql(matchers.HaveAttainmentAtLeast(0.9)).NegatedFailureMessage(adapterMix())).To(Equal(`in breakdown adapter=sql: Expected attainment 0.900 (18 of 20 offered) not to be at least 0.900
unqualified requests by failed criterion (a request can fail several): ttft 2
terminal statuses: success 20
SLO: TTFT <= 300 ms (from sent)`))
		Expect(fmt.Sprint(m)).To(Equal("adapter sql: attainment >= 0.910"))
	})

	It("judges a report that keeps no request entries from its breakdown alone", func() {
		r := adapterMix()
		r.Requests = nil
		Expect(r).To(sql(matchers.HaveAttainmentAtLeast(0.9)))
		Expect(r).NotTo(sql(matchers.HaveAttainmentAtLeast(0.91)))
		Expect(r).To(sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 270*time.Millisecond)))
	})

	DescribeTable("refuses a selection the report does not have, naming what it has",
		func(dimension, value string, wantErr string) {
			m := matchers.InBreakdown(dimension, value, matchers.HaveAttainmentAtLeast(0))
			ok, err := m.Match(adapterMix())
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(wantErr))
			Expect(m.FailureMessage(adapterMix())).To(Equal(wantErr))
		},
		Entry("a value", "adapter", "chat",
			"InBreakdown cannot select adapter=chat: the adapter breakdown has no value chat (it has: base, sql)"),
		Entry("a dimension no request carried", "class", "short",
			"InBreakdown cannot select class=short: the report has no breakdown by class (it has: adapter; a dimension no request carried is left out)"),
	)

	It("fails both To and NotTo on a missing value", func() {
		var failures []string
		g := NewGomega(func(message string, _ ...int) { failures = append(failures, message) })
		g.Expect(adapterMix()).NotTo(matchers.InBreakdown("adapter", "chat", matchers.HaveAttainmentAtLeast(0.99)))
		g.Expect(adapterMix()).To(matchers.InBreakdown("adapter", "chat", matchers.HaveAttainmentAtLeast(0)))
		Expect(failures).To(HaveLen(2))
		Expect(failures[0]).To(ContainSubstring("the adapter breakdown has no value chat (it has: base, sql)"))
	})

	It("prefixes the applied matcher's own error with the selection", func() {
		_, err := sql(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 75, time.Second)).Match(adapterMix())
		Expect(err).To(MatchError(HavePrefix("in breakdown adapter=sql: HaveLatencyPercentileBelow cannot compute p75 TTFT: percentile of ttft_ms: p75 was not asked of the scoring")))
		_, err = matchers.InBreakdown("adapter", "sql", nil).Match(adapterMix())
		Expect(err).To(MatchError("InBreakdown needs a matcher to apply to adapter=sql, got nil"))
		_, err = sql(matchers.HaveAttainmentAtLeast(0.5)).Match(&report.Report{})
		Expect(err).To(MatchError("InBreakdown cannot judge a report with no offered requests (offered = 0): there is nothing to measure"))
	})
})
