package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// withExpectedReuse is withPrefixCache's 192 cached tokens over 3
// requests, whose rows declared 256 reusable: 192/256 = 0.75 achieved.
func withExpectedReuse() *report.Report {
	r := withPrefixCache(true, false)
	r.PrefixCache.ExpectedCachedTokens = new(256)
	r.PrefixCache.ExpectedHitRate = f(256.0 / 768)
	r.PrefixCache.ReuseAchieved = f(0.75)
	return r
}

var _ = Describe("HavePrefixReuseAchievedAtLeast", func() {
	It("judges the cached tokens over the tokens the workload makes reusable", func() {
		Expect(withExpectedReuse()).To(matchers.HavePrefixReuseAchievedAtLeast(0.75))
		Expect(withExpectedReuse()).NotTo(matchers.HavePrefixReuseAchievedAtLeast(0.76))
	})

	It("gives the tokens it divides", func() {
		Expect(matchers.HavePrefixReuseAchievedAtLeast(0.8).FailureMessage(withExpectedReuse())).To(Equal(`Expected prefix reuse achieved 0.750 to be at least 0.800
the engine cached 192 of the 256 prompt tokens the workload makes reusable, over 3 requests reporting cached_tokens`))
		Expect(matchers.HavePrefixReuseAchievedAtLeast(0.5).NegatedFailureMessage(withExpectedReuse())).To(HavePrefix(
			"Expected prefix reuse achieved 0.750 not to be at least 0.500"))
	})

	It("names itself for MeetSLOs and spec reports", func() {
		Expect(matchers.HavePrefixReuseAchievedAtLeast(0.8).(interface{ String() string }).String()).To(Equal("prefix reuse achieved >= 0.800"))
	})

	DescribeTable("rejects input it cannot judge",
		func(target float64, actual any, wantErr string) {
			ok, err := matchers.HavePrefixReuseAchievedAtLeast(target).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a target above 1", 1.5, withExpectedReuse(), "HavePrefixReuseAchievedAtLeast needs a reuse target in [0, 1], got 1.5"),
		Entry("a hit rate without a declaration", 0.1, withPrefixCache(true, true),
			"HavePrefixReuseAchievedAtLeast cannot judge a report without expected prefix reuse: 3 of 5 successful requests reported cached_tokens"),
		Entry("no prefix cache", 0.1, sixRequests(), "0 of 5 successful requests reported cached_tokens"),
		Entry("no offered requests", 0.1, report.Report{}, "cannot judge a report with no offered requests"),
	)
})
