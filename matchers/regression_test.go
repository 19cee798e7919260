package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// roundReport is one valid round with qualified of 100 offered requests
// qualified.
func roundReport(qualified int) *servebench.Report {
	a := float64(qualified) / 100
	return &servebench.Report{Schema: servebench.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: qualified,
		Attainment: &a, Valid: true, Inputs: servebench.Inputs{WorkloadSHA256: "w"}}
}

var _ = Describe("HaveNoRegressionFrom", func() {
	// Attainment drops of 0.02, 0.03 and 0.04 over three paired rounds:
	// mean 0.03, sd 0.01, 90 % two-sided interval (one comparison at 0.95)
	// 0.03 ± 2.919986 × 0.01/√3 = [0.0131, 0.0469].
	baseline := []*servebench.Report{roundReport(90), roundReport(92), roundReport(94)}
	candidate := []*servebench.Report{roundReport(88), roundReport(89), roundReport(90)}

	It("fails with each regressed statistic, both values, the change and its interval", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.01})
		ok, err := m.Match(candidate)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate)).To(HavePrefix(
			"Expected no regression from the baseline, but 1 of 1 compared statistics regressed (positive change is worse):\n" +
				"    attainment: baseline 0.9200, candidate 0.8900, change +3.00 pt (interval [+1.31 pt, +4.69 pt], tolerance 1 pt): regression\n" +
				"rounds: baseline 3, candidate 3\nmethod: paired t-interval"))
	})

	It("passes when the interval stays within the tolerance, and when it is inconclusive", func() {
		Expect(candidate).To(matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.05}))
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.02})
		Expect(candidate).To(m)
		Expect(m.NegatedFailureMessage(candidate)).To(ContainSubstring("the verdict is inconclusive"))
	})

	It("refuses invalid load, unequal round counts and other types", func() {
		late := *candidate[2]
		late.Valid, late.InvalidReasons = false, []string{"2 of 100 offered requests were sent late"}
		att := compare.Tolerance{Name: "attainment", Value: 0.01}
		_, err := matchers.HaveNoRegressionFrom(baseline, att).Match([]*servebench.Report{candidate[0], candidate[1], &late})
		Expect(err).To(MatchError(ContainSubstring("did not deliver its load")))
		_, err = matchers.HaveNoRegressionFrom(baseline, att).Match(candidate[0])
		Expect(err).To(MatchError(ContainSubstring("3 rounds and the candidate 1")))
		_, err = matchers.HaveNoRegressionFrom(baseline).Match("report")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("HaveNoRegression", func() {
	It("judges a comparison and lists what regressed", func() {
		c, err := compare.Reports([]*servebench.Report{roundReport(90), roundReport(92), roundReport(94)},
			[]*servebench.Report{roundReport(88), roundReport(89), roundReport(90)},
			compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.01}}})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveNoRegression()
		Expect(m.Match(c)).To(BeFalse())
		Expect(m.FailureMessage(c)).To(ContainSubstring("attainment: baseline 0.9200, candidate 0.8900, change +3.00 pt (interval [+1.31 pt, +4.69 pt], tolerance 1 pt): regression"))
		_, err = m.Match(nil)
		Expect(err).To(HaveOccurred())
	})
})
