package matchers_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/history"
)

// releases are n releases at p50 TPOT 10 ms (±1 %), the newest at last ms.
func releases(n int, last float64) []history.Release {
	var out []history.Release
	for i := range n - 1 {
		out = append(out, history.Release{Name: fmt.Sprintf("v%d", i), Values: map[string]float64{"tpot_p50": 10 * (1 + 0.01*float64(i%3-1))}})
	}
	return append(out, history.Release{Name: fmt.Sprintf("v%d", n-1), Values: map[string]float64{"tpot_p50": last}})
}

var _ = Describe("HaveNoChangeAtNewestRelease", func() {
	// A hundred releases at 10 ms (99, 100, 101 % in turn) and the newest
	// at 20 ms: the split before the newest isolates it, and a shuffle
	// reaches its Q only when the outlier lands at either end (2 in 100),
	// so p ≈ (1 + 199 × 0.02)/200 ≈ 0.025 ≤ 0.05, and the change, +100 %
	// over the geometric mean of the others, 10 × (0.99 × 1.01)^(1/3) =
	// 9.9997 ms (+100.01 %), starts at the newest.
	It("fails when the newest release starts a change beyond tolerance", func() {
		h, err := history.Analyze(releases(100, 20), history.Options{})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveNoChangeAtNewestRelease(compare.Tolerance{Name: "tpot_p50", Value: 0.05})
		Expect(m.Match(h)).To(BeFalse())
		Expect(m.FailureMessage(h)).To(ContainSubstring("Expected the newest release, v99, to start no change beyond tolerance, but it starts:\n    tpot_p50 (tolerance 0.05): change starting at v99: 10.00 ms -> 20.00 ms, +100.01%"))
		Expect(h).To(matchers.HaveNoChangeAtNewestRelease(compare.Tolerance{Name: "tpot_p50", Value: 1.5}))
	})

	It("passes when the newest release holds the level", func() {
		h, err := history.Analyze(releases(100, 10), history.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(matchers.HaveNoChangeAtNewestRelease())
		_, err = matchers.HaveNoChangeAtNewestRelease().Match("history")
		Expect(err).To(HaveOccurred())
	})

	It("cannot judge a history too short to show any change", func() {
		h, err := history.Analyze(releases(3, 40), history.Options{})
		Expect(err).NotTo(HaveOccurred())
		ok, err := matchers.HaveNoChangeAtNewestRelease().Match(h)
		Expect(ok).To(BeFalse())
		Expect(err).To(MatchError("HaveNoChangeAtNewestRelease cannot judge this history: no change can be shown in 3 releases at a false-alarm rate of 0.05: the permutation test needs at least 8 releases to declare one"))
	})
})
