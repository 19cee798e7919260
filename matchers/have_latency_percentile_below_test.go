package matchers_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
	"github.com/servebench/servebench/servebench/stats"
)

// withTTFTSummary adds the stored TTFT distribution of sixRequests' five
// successes, sorted 180 200 220 240 350: nearest-rank p50 is rank
// ceil(2.5) = 3 (220), p90, p95 and p99 are rank 5 (350).
func withTTFTSummary(r *report.Report) *report.Report {
	r.Percentiles = map[record.Metric]report.Distribution{
		record.MetricTTFT: {Population: "successful requests (5 of 6 offered)", N: 5,
			P50: f(220), P90: f(350), P95: f(350), P99: f(350), Max: f(350)},
		record.MetricTPOT: {Population: "successful requests with more than one output token (0 of 5 successful)", N: 0},
	}
	return r
}

// twentyRuns scores twenty successful requests whose TTFTs are 10, 20, ...,
// 200 ms (request rNN has TTFT 10·NN ms) through score.Outcomes, so the
// report holds raw samples and answers any percentile.
func twentyRuns(method stats.PercentileMethod) *report.Report {
	sched := &schedule.Schedule{
		Schema: schedule.Schema, RunID: "run-test", Mode: schedule.ModeOpen,
		WindowMS: [2]float64{0, 2000}, ScheduleLagToleranceMS: 20,
	}
	var outcomes []record.Outcome
	for i := 1; i <= 20; i++ {
		id := fmt.Sprintf("r%02d", i)
		a := float64(i-1) * 100
		ttft := float64(i) * 10
		sched.Entries = append(sched.Entries, schedule.Entry{ID: id, Row: i - 1, ScheduledMS: a, MaxTokens: 3})
		first := a + ttft
		tokens := 3
		outcomes = append(outcomes, record.Outcome{
			ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SlotMS: f(a), SentMS: f(a),
			FirstContentMS: f(first), LastContentMS: f(first + 40), TerminalMS: first + 50,
			ContentMS: []float64{first, first + 20, first + 40}, OutputTokens: &tokens,
		})
	}
	r, err := score.Outcomes(sched, outcomes, score.Options{PercentileMethod: method})
	Expect(err).NotTo(HaveOccurred())
	return r
}

var _ = Describe("HaveLatencyPercentileBelow", func() {
	It("passes at or under the limit and fails above it, from the stored summary", func() {
		Expect(withTTFTSummary(sixRequests())).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 50, 220*time.Millisecond))
		Expect(withTTFTSummary(sixRequests())).NotTo(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 50, 219*time.Millisecond))
		Expect(withTTFTSummary(sixRequests())).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 350*time.Millisecond))
	})

	It("names the population and lists the successful requests with the largest values", func() {
		m := matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 300*time.Millisecond)
		Expect(m.FailureMessage(withTTFTSummary(sixRequests()))).To(Equal(`Expected p99 TTFT 350 ms (nearest-rank, n = 5) to be at most 300 ms
population: successful requests (5 of 6 offered)
requests with the largest TTFT:
    r04 success: scheduled 750 ms, sent 765 ms (lag 15 ms), TTFT 350 ms, TPOT 60 ms, E2E 800 ms; failed ttft
    r01 success: scheduled 0 ms, sent 0 ms (lag 0 ms), TTFT 240 ms, TPOT 60 ms, E2E 500 ms
    r05 success: scheduled 1200 ms, sent 1200 ms (lag 0 ms), TTFT 220 ms, TPOT 40 ms, E2E 450 ms; failed quality; quality "expected \"Paris\" in the answer"
    r03 success: scheduled 700 ms, sent 701 ms (lag 1 ms), TTFT 200 ms, TPOT 70 ms, E2E 600 ms
    r02 success: scheduled 300 ms, sent 302 ms (lag 2 ms), TTFT 180 ms, TPOT 50 ms, E2E 400 ms`))
		Expect(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 50, 300*time.Millisecond).NegatedFailureMessage(withTTFTSummary(sixRequests()))).To(Equal(
			"Expected p50 TTFT 220 ms (nearest-rank, n = 5) to be above 300 ms\npopulation: successful requests (5 of 6 offered)"))
	})

	It("computes any percentile from the raw samples of a scored run", func() {
		// Nearest-rank over 10..200 ms: p85 is rank 17 (170 ms), p97.5 is
		// rank ceil(19.5) = 20 (200 ms).
		r := twentyRuns(stats.NearestRank)
		Expect(r).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 85, 170*time.Millisecond))
		Expect(r).NotTo(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 97.5, 199*time.Millisecond))
		msg := matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 85, 169*time.Millisecond).FailureMessage(r)
		Expect(msg).To(HavePrefix("Expected p85 TTFT 170 ms (nearest-rank, n = 20) to be at most 169 ms\npopulation: "))
		Expect(msg).To(ContainSubstring("requests with the largest TTFT:\n    r20 success: scheduled 1900 ms, sent 1900 ms (lag 0 ms), TTFT 200 ms, TPOT 20 ms, E2E 250 ms\n    r19 success:"))
		Expect(msg).To(HaveSuffix("\n    ... and 15 more"))
	})

	It("uses the run's percentile method", func() {
		// Linear p95 over 20 values: position 19 x 0.95 = 18.05, so
		// 190 + 0.05 x (200 - 190) = 190.5 ms.
		r := twentyRuns(stats.Linear)
		Expect(r).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 95, 190500*time.Microsecond))
		Expect(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 95, 190*time.Millisecond).FailureMessage(r)).To(
			HavePrefix("Expected p95 TTFT 190.5 ms (linear, n = 20) to be at most 190 ms\n"))
	})

	It("judges schedule lag over every sent request", func() {
		r := twentyRuns("")
		Expect(r).To(matchers.HaveLatencyPercentileBelow(record.MetricScheduleLag, 99, 0))
	})

	DescribeTable("rejects input it cannot judge",
		func(metric record.Metric, p float64, limit time.Duration, actual any, wantErr string) {
			ok, err := matchers.HaveLatencyPercentileBelow(metric, p, limit).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("p of 0", record.MetricTTFT, 0.0, time.Second, withTTFTSummary(sixRequests()), "HaveLatencyPercentileBelow needs a percentile in (0, 100], got 0"),
		Entry("p above 100", record.MetricTTFT, 101.0, time.Second, withTTFTSummary(sixRequests()), "in (0, 100], got 101"),
		Entry("a NaN p", record.MetricTTFT, nan(), time.Second, withTTFTSummary(sixRequests()), "in (0, 100], got NaN"),
		Entry("a negative limit", record.MetricTTFT, 99.0, -time.Millisecond, withTTFTSummary(sixRequests()), "HaveLatencyPercentileBelow needs a non-negative limit, got -1ms"),
		Entry("an empty population", record.MetricTPOT, 99.0, time.Second, withTTFTSummary(sixRequests()), "HaveLatencyPercentileBelow cannot compute p99 TPOT: percentile of tpot_ms: the population is empty"),
		Entry("an unknown metric", record.Metric("queue_ms"), 99.0, time.Second, withTTFTSummary(sixRequests()), "HaveLatencyPercentileBelow cannot compute p99 queue_ms"),
		Entry("a percentile the stored summary lacks", record.MetricTTFT, 75.0, time.Second, withTTFTSummary(sixRequests()), "HaveLatencyPercentileBelow cannot compute p75 TTFT"),
		Entry("no offered requests", record.MetricTTFT, 99.0, time.Second, &report.Report{}, "no offered requests"),
	)
})
