package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// unjudged asks m whether r lacks the data to judge it.
func unjudged(m types.GomegaMatcher, r *report.Report) (string, bool) {
	u, ok := m.(matchers.Unjudgeable)
	Expect(ok).To(BeTrue(), "%v is not Unjudgeable", m)
	return u.Unjudged(r)
}

// offered is a delivered report of n offered requests, all qualified.
func offered(n int) *report.Report {
	a := 1.0
	return &report.Report{Schema: report.ReportSchema, Offered: n, ProtocolSuccesses: n, Qualified: n, Attainment: &a, Valid: true}
}

// tenants is a tenant breakdown with each value's offered and qualified
// counts, and Jain's index over their attainment as the scorer computes it.
func tenants(counts map[string][2]int) *report.BreakdownDimension {
	dim := &report.BreakdownDimension{Values: map[string]report.BreakdownValue{}}
	var xs []float64
	for v, c := range counts {
		a := float64(c[1]) / float64(c[0])
		dim.Values[v] = report.BreakdownValue{Offered: c[0], Qualified: c[1], Attainment: &a}
		xs = append(xs, a)
	}
	if j, ok := report.JainIndex(xs); ok {
		dim.Jain = &j
	}
	return dim
}

var _ = Describe("Unjudgeable session, speculative-decoding and fairness objectives", func() {
	It("finds a session objective unjudged without sessions, and judges one with them", func() {
		r := offered(20)
		for _, m := range []types.GomegaMatcher{matchers.HaveSessionAttainmentAtLeast(0.9), matchers.HaveSessionWilsonLowerBoundAbove(0.5)} {
			reason, is := unjudged(m, r)
			Expect(is).To(BeTrue())
			Expect(reason).To(Equal("the session attainment was not measured: the report has no sessions (the workload has no conversations)"))
		}
		r.Sessions = &report.Sessions{Offered: 3, Truncated: 3}
		reason, is := unjudged(matchers.HaveSessionAttainmentAtLeast(0.9), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the session attainment was not measured: all 3 offered sessions were truncated by the run's deadline"))
		// 4 offered, 1 truncated, 2 qualified: 2/3 = 0.667, judged (and
		// below 0.9).
		a := 2.0 / 3
		r.Sessions = &report.Sessions{Offered: 4, Truncated: 1, Qualified: 2, Attainment: &a}
		_, is = unjudged(matchers.HaveSessionAttainmentAtLeast(0.9), r)
		Expect(is).To(BeFalse())
		Expect(r).NotTo(matchers.HaveSessionAttainmentAtLeast(0.9))
		Expect(r).To(matchers.HaveSessionAttainmentAtLeast(0.66))
	})

	It("finds speculative decoding unjudged without the engine's counters or drafts", func() {
		r := offered(20)
		reason, is := unjudged(matchers.HaveMeanAcceptanceLengthAtLeast(2), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the mean acceptance length was not measured: the run scraped no engine metrics (give it the engine's metrics URL)"))
		r.EngineMetrics = &report.EngineMetrics{URL: "http://127.0.0.1:1/metrics"}
		reason, is = unjudged(matchers.HaveAcceptanceRateAtLeast(0.5), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the acceptance rate was not measured: the engine at http://127.0.0.1:1/metrics exposes no speculative-decoding counter (vllm:spec_decode_num_drafts_total)"))
		r.SpeculativeDecoding = &report.SpeculativeDecoding{}
		reason, is = unjudged(matchers.HaveAcceptanceRateAtLeast(0.5), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the acceptance rate was not measured: the engine made 0 drafts of 0 tokens over the measurement"))
		// 9 drafts of 27 tokens, 18 accepted: rate 18/27 = 0.667, length
		// 1 + 18/9 = 3; both judged.
		rate, length := 18.0/27, 3.0
		r.SpeculativeDecoding = &report.SpeculativeDecoding{Drafts: 9, DraftTokens: 27, AcceptedTokens: 18, AcceptanceRate: &rate, MeanAcceptanceLength: &length}
		_, is = unjudged(matchers.HaveAcceptanceRateAtLeast(0.5), r)
		Expect(is).To(BeFalse())
		_, is = unjudged(matchers.HaveMeanAcceptanceLengthAtLeast(3.5), r)
		Expect(is).To(BeFalse())
		Expect(r).NotTo(matchers.HaveMeanAcceptanceLengthAtLeast(3.5))
	})

	It("finds Jain's index unjudged over one tenant or too few requests a tenant", func() {
		r := offered(40)
		reason, is := unjudged(matchers.HaveJainIndexAtLeast("tenant", 0.9), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("Jain's index over tenant was not measured: no request carried a tenant"))

		r.Breakdown = map[string]*report.BreakdownDimension{"tenant": tenants(map[string][2]int{"a": {40, 40}})}
		reason, is = unjudged(matchers.HaveJainIndexAtLeast("tenant", 0.9), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("Jain's index over tenant needs two values or more, and the requests carried 1 (a)"))

		// b and c have 9 and 3 requests, below 10 each.
		r.Breakdown["tenant"] = tenants(map[string][2]int{"a": {28, 28}, "b": {9, 9}, "c": {3, 0}})
		reason, is = unjudged(matchers.HaveJainIndexAtLeast("tenant", 0.9), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("Jain's index over tenant needs at least 10 offered requests for each value, and 2 values had fewer (b 9, c 3)"))

		r.Breakdown["tenant"] = tenants(map[string][2]int{"a": {20, 0}, "b": {20, 0}})
		reason, is = unjudged(matchers.HaveJainIndexAtLeast("tenant", 0.9), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("Jain's index over tenant is undefined: no value attained anything (a 0 of 20, b 0 of 20)"))

		// a 20 of 20 (1.0) and b 10 of 20 (0.5): J = 1.5² / (2 × 1.25) = 0.9,
		// judged.
		r.Breakdown["tenant"] = tenants(map[string][2]int{"a": {20, 20}, "b": {20, 10}})
		_, is = unjudged(matchers.HaveJainIndexAtLeast("tenant", 0.9), r)
		Expect(is).To(BeFalse())
		Expect(*r.Breakdown["tenant"].Jain).To(BeNumerically("~", 0.9, 1e-12))
		Expect(r).NotTo(matchers.HaveJainIndexAtLeast("tenant", 0.91))
	})

	It("finds drift, shed order, recovery and prefix reuse unjudged when nothing measured them", func() {
		r := offered(20)
		r.Drift = &report.DriftReport{Note: "not judged: fewer than 6 intervals of 1000 ms had at least 20 successful requests"}
		reason, is := unjudged(matchers.HaveNoDrift(0.2), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the drift was not measured: not judged: fewer than 6 intervals of 1000 ms had at least 20 successful requests"))
		r.Drift.Judged = true
		_, is = unjudged(matchers.HaveNoDrift(0.2), r)
		Expect(is).To(BeFalse())

		r.ShedOrder = &report.ShedOrder{WindowMS: 1000, Critical: []string{"critical"}, CriticalSent: 4}
		reason, is = unjudged(matchers.HaveNoShedOrderViolations(), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the shed order was not measured: no 1000 ms window held both a critical (critical) and a sheddable request: nothing to judge (4 critical and 0 sheddable sent)"))
		r.ShedOrder.Windows = 1
		_, is = unjudged(matchers.HaveNoShedOrderViolations(), r)
		Expect(is).To(BeFalse())

		r.Recovery = &report.Recovery{WindowRequests: report.RecoveryWindowRequests, Reason: "no TTFT SLO, and no phase named steady with a p99 TTFT: nothing bounds the recovery"}
		reason, is = unjudged(matchers.HaveRecoveredWithin(time.Second), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(Equal("the recovery was not measured: no TTFT SLO, and no phase named steady with a p99 TTFT: nothing bounds the recovery"))
		bound := 300.0
		r.Recovery = &report.Recovery{WindowRequests: report.RecoveryWindowRequests, BoundMS: &bound}
		reason, is = unjudged(matchers.HaveRecoveredWithin(time.Second), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(ContainSubstring("requests were scheduled after the burst, so no window had a p99 TTFT"))
		// Windows tested and none recovered: a failure, not unjudged.
		r.Recovery.Windows = 3
		_, is = unjudged(matchers.HaveRecoveredWithin(time.Second), r)
		Expect(is).To(BeFalse())

		reason, is = unjudged(matchers.HavePrefixReuseAchievedAtLeast(0.5), r)
		Expect(is).To(BeTrue())
		Expect(reason).To(HavePrefix("the prefix reuse achieved was not measured: 0 of 20 successful requests reported cached_tokens"))
	})

	It("leaves an invalid bound to Match's error", func() {
		r := offered(20)
		_, is := unjudged(matchers.HaveSessionAttainmentAtLeast(1.5), r)
		Expect(is).To(BeFalse())
		_, is = unjudged(matchers.HaveMeanAcceptanceLengthAtLeast(0.5), r)
		Expect(is).To(BeFalse())
		_, is = unjudged(matchers.HaveJainIndexAtLeast("tenant", -1), r)
		Expect(is).To(BeFalse())
	})
})
