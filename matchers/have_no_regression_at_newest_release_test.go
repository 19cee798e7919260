package matchers_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/history"
)

// ttftReleases are releases v1… with the given p99 TTFT, in ms.
func ttftReleases(values ...float64) []history.Release {
	var out []history.Release
	for i, v := range values {
		out = append(out, history.Release{Name: fmt.Sprintf("v%d", i+1), Values: map[string]float64{"ttft_p99": v}})
	}
	return out
}

var _ = Describe("HaveNoRegressionAtNewestRelease", func() {
	// 100, 110, 90, 105, 130, 135 ms: v5 and v6 are both above 1.2 × 105
	// ms = 126 ms, the median of their three releases before.
	It("fails under the ratio policy when the last two releases violate", func() {
		h, err := history.Analyze(ttftReleases(100, 110, 90, 105, 130, 135), history.Options{Policy: history.PolicyRatio})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveNoRegressionAtNewestRelease()
		Expect(m.Match(h)).To(BeFalse())
		Expect(m.FailureMessage(h)).To(Equal("Expected the newest release, v6, to be no regression under the ratio policy, but:\n    " +
			"ttft_p99 at v6: 135.00 ms > 126.00 ms (1.2 × the median 105.00 ms of the releases before); and ttft_p99 at v5: 130.00 ms > 126.00 ms (1.2 × the median 105.00 ms of the releases before)"))
	})

	// With the newest at 120 ms (the bound is 126 ms) only v5 violates.
	It("passes when only one of the last two violates", func() {
		h, err := history.Analyze(ttftReleases(100, 110, 90, 105, 130, 120), history.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(matchers.HaveNoRegressionAtNewestRelease(matchers.UnderPolicy(history.PolicyRatio)))
	})

	It("cannot judge a history shorter than the window and two", func() {
		h, err := history.Analyze(ttftReleases(100, 100, 100, 200), history.Options{Policy: history.PolicyRatio})
		Expect(err).NotTo(HaveOccurred())
		_, err = matchers.HaveNoRegressionAtNewestRelease().Match(h)
		Expect(err).To(MatchError("HaveNoRegressionAtNewestRelease cannot judge this history under the ratio policy: the ratio policy with a window of 3 needs at least 5 releases (the window, then two releases judged against it); the history has 4"))
		// The changepoint policy cannot judge four releases either.
		_, err = matchers.HaveNoRegressionAtNewestRelease(matchers.UnderPolicy(history.PolicyChangepoint)).Match(h)
		Expect(err).To(MatchError(ContainSubstring("needs at least 8 releases")))
	})
})
