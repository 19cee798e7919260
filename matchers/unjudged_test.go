package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

var _ = Describe("Unjudgeable", func() {
	// Twenty TTFTs: nearest-rank p50 is rank 10, with 10 observations
	// beyond it (judged); p80 is rank 16, with 4 beyond (fewer than 5:
	// unjudged, and 25 are needed: 25 − ⌈20⌉ = 5); p75 is rank 15, with
	// exactly 5 beyond (judged); p100 is the maximum (judged).
	It("finds a percentile with too few observations beyond it unjudged", func() {
		r := twentyRuns(stats.NearestRank)
		judged := func(p float64) bool {
			_, unjudged := matchers.HaveLatencyPercentileBelow(record.MetricTTFT, p, time.Second).(matchers.Unjudgeable).Unjudged(r)
			return !unjudged
		}
		Expect(judged(50)).To(BeTrue())
		Expect(judged(75)).To(BeTrue())
		Expect(judged(100)).To(BeTrue())
		Expect(judged(80)).To(BeFalse())
		reason, _ := matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 80, time.Second).(matchers.Unjudgeable).Unjudged(r)
		Expect(reason).To(HavePrefix("p80 TTFT needs at least 25 observations for 5 to lie beyond it, and its population has 20 (successful requests"))
		// p99 needs 500: 500 − 495 = 5.
		reason, _ = matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, time.Second).(matchers.Unjudgeable).Unjudged(r)
		Expect(reason).To(HavePrefix("p99 TTFT needs at least 500 observations"))
	})

	It("finds a prefix-cache hit rate that nothing measured unjudged", func() {
		r := twentyRuns(stats.NearestRank)
		reason, unjudged := matchers.HavePrefixCacheHitRateAtLeast(0.5).(matchers.Unjudgeable).Unjudged(r)
		Expect(unjudged).To(BeTrue())
		Expect(reason).To(ContainSubstring("the engine exposes no prefix-cache counter"))
		rate := 0.6
		r.PrefixCache = &report.PrefixCache{EngineHitRate: &rate}
		_, unjudged = matchers.HavePrefixCacheHitRateAtLeast(0.5).(matchers.Unjudgeable).Unjudged(r)
		Expect(unjudged).To(BeFalse())
	})

	It("finds energy without GPU telemetry unjudged", func() {
		reason, unjudged := matchers.HaveEnergyPerOutputTokenBelow(1).(matchers.Unjudgeable).Unjudged(twentyRuns(stats.NearestRank))
		Expect(unjudged).To(BeTrue())
		Expect(reason).To(Equal("no GPU telemetry was sampled"))
	})
})
