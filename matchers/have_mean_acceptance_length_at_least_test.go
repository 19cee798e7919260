package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// withSpeculation is sixRequests with 10 drafts of 40 tokens, 25 accepted:
// acceptance rate 25/40 = 0.625, mean acceptance length 1 + 25/10 = 3.5.
func withSpeculation() *report.Report {
	r := sixRequests()
	r.SpeculativeDecoding = &report.SpeculativeDecoding{Drafts: 10, DraftTokens: 40, AcceptedTokens: 25, AcceptanceRate: f(0.625), MeanAcceptanceLength: f(3.5)}
	return r
}

var _ = Describe("HaveMeanAcceptanceLengthAtLeast and HaveAcceptanceRateAtLeast", func() {
	It("judge the mean acceptance length and the acceptance rate", func() {
		Expect(withSpeculation()).To(matchers.HaveMeanAcceptanceLengthAtLeast(3.5))
		Expect(withSpeculation()).NotTo(matchers.HaveMeanAcceptanceLengthAtLeast(3.51))
		Expect(withSpeculation()).To(matchers.HaveAcceptanceRateAtLeast(0.625))
		Expect(withSpeculation()).NotTo(matchers.HaveAcceptanceRateAtLeast(0.63))
	})

	It("give the counts", func() {
		Expect(matchers.HaveMeanAcceptanceLengthAtLeast(4).FailureMessage(withSpeculation())).To(Equal(
			"Expected mean acceptance length 3.500 (25 accepted of 40 draft tokens in 10 drafts) to be at least 4.000"))
		Expect(matchers.HaveAcceptanceRateAtLeast(0.5).NegatedFailureMessage(withSpeculation())).To(Equal(
			"Expected acceptance rate 0.625 (25 accepted of 40 draft tokens in 10 drafts) not to be at least 0.500"))
		Expect(matchers.HaveMeanAcceptanceLengthAtLeast(2.5).(interface{ String() string }).String()).To(Equal("mean acceptance length >= 2.500"))
	})

	DescribeTable("reject input they cannot judge",
		func(m func() (bool, error), wantErr string) {
			ok, err := m()
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
		},
		Entry("a length below 1", func() (bool, error) { return matchers.HaveMeanAcceptanceLengthAtLeast(0.5).Match(withSpeculation()) }, "at least 1; got 0.5"),
		Entry("a rate above 1", func() (bool, error) { return matchers.HaveAcceptanceRateAtLeast(1.5).Match(withSpeculation()) }, "acceptance-rate target"),
		Entry("no block", func() (bool, error) { return matchers.HaveMeanAcceptanceLengthAtLeast(2).Match(sixRequests()) }, "has no speculative_decoding block"),
		Entry("no draft", func() (bool, error) {
			r := sixRequests()
			r.SpeculativeDecoding = &report.SpeculativeDecoding{}
			return matchers.HaveMeanAcceptanceLengthAtLeast(2).Match(r)
		}, "no mean acceptance length: the engine made 0 drafts of 0 tokens"),
	)
})
