package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// withPrefixCache is sixRequests (5 successes) with a prefix-cache
// measurement: 3 requests reported 0, 64 and 128 cached of 256 prompt
// tokens each, so 192 of 768 = 0.25; the engine's counters said 0.3.
func withPrefixCache(requests, engine bool) *report.Report {
	r := sixRequests()
	r.PrefixCache = &report.PrefixCache{}
	if requests {
		r.PrefixCache.RequestsReporting, r.PrefixCache.CachedTokens, r.PrefixCache.PromptTokens = 3, 192, 768
		r.PrefixCache.HitRate = f(0.25)
	}
	if engine {
		r.PrefixCache.EngineHitRate = f(0.3)
	}
	return r
}

var _ = Describe("HavePrefixCacheHitRateAtLeast", func() {
	It("judges the requests' hit rate when they reported one", func() {
		Expect(withPrefixCache(true, true)).To(matchers.HavePrefixCacheHitRateAtLeast(0.25))
		Expect(withPrefixCache(true, true)).NotTo(matchers.HavePrefixCacheHitRateAtLeast(0.26)) // the engine's 0.3 is not judged
	})

	It("judges the engine's hit rate when no request reported one", func() {
		Expect(withPrefixCache(false, true)).To(matchers.HavePrefixCacheHitRateAtLeast(0.3))
		Expect(withPrefixCache(false, true)).NotTo(matchers.HavePrefixCacheHitRateAtLeast(0.31))
	})

	It("gives both rates and the requests reporting", func() {
		m := matchers.HavePrefixCacheHitRateAtLeast(0.5)
		Expect(m.FailureMessage(withPrefixCache(true, true))).To(Equal(`Expected prefix-cache hit rate 0.250 (from the requests) to be at least 0.500
requests' hit rate: 0.250 (192 of 768 prompt tokens cached over 3 of 5 successful requests reporting cached_tokens)
engine's hit rate: 0.300 (from its counters over the measurement)`))
		Expect(m.FailureMessage(withPrefixCache(false, true))).To(Equal(`Expected prefix-cache hit rate 0.300 (from the engine counters) to be at least 0.500
requests' hit rate: not measured (0 of 0 prompt tokens cached over 0 of 5 successful requests reporting cached_tokens)
engine's hit rate: 0.300 (from its counters over the measurement)`))
		Expect(matchers.HavePrefixCacheHitRateAtLeast(0.2).NegatedFailureMessage(withPrefixCache(true, false))).To(Equal(`Expected prefix-cache hit rate 0.250 (from the requests) not to be at least 0.200
requests' hit rate: 0.250 (192 of 768 prompt tokens cached over 3 of 5 successful requests reporting cached_tokens)
engine's hit rate: not measured (no prefix-cache counter scraped)`))
	})

	It("names itself for MeetSLOs and spec reports", func() {
		Expect(matchers.HavePrefixCacheHitRateAtLeast(0.5).(interface{ String() string }).String()).To(Equal("prefix-cache hit rate >= 0.500"))
	})

	DescribeTable("rejects input it cannot judge",
		func(target float64, actual any, wantErr string) {
			ok, err := matchers.HavePrefixCacheHitRateAtLeast(target).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a target above 1", 1.5, withPrefixCache(true, true), "HavePrefixCacheHitRateAtLeast needs a hit-rate target in [0, 1], got 1.5"),
		Entry("a NaN target", nan(), withPrefixCache(true, true), "got NaN"),
		Entry("no hit rate measured", 0.1, sixRequests(),
			"HavePrefixCacheHitRateAtLeast cannot judge a report without a measured prefix-cache hit rate: 0 of 5 successful requests reported cached_tokens"),
		Entry("requests reporting 0 prompt tokens and no engine rate", 0.1, &report.Report{Offered: 1, ProtocolSuccesses: 1,
			PrefixCache: &report.PrefixCache{RequestsReporting: 1}}, "1 of 1 successful requests reported cached_tokens, over 0 prompt tokens"),
		Entry("no offered requests", 0.1, report.Report{}, "cannot judge a report with no offered requests"),
		Entry("nil", 0.1, nil, "HavePrefixCacheHitRateAtLeast expects a *report.Report"),
	)
})
