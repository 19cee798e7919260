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
	// Attainment drops of 0.05, 0.06 and 0.07 over three paired rounds:
	// mean 0.06, sd 0.01, 90 % two-sided interval (one comparison at 0.95)
	// 0.06 ± 2.919986 × 0.01/√3 = [0.0431, 0.0769]. Against 6.5 points, m
	// rounds give the half-width t(0.95, m − 1) × 0.01/√m, below the gap
	// 0.005 first at m = 13 (1.7823/√13 × 0.01 = 0.00494; m = 12 gives
	// 0.00518): 10 more rounds. The run-to-run noise
	// pooled over both sides is √((2 × 0.0004 + 2 × 0.0001)/4) = 0.0158,
	// below every tolerance used here.
	baseline := []*servebench.Report{roundReport(90), roundReport(92), roundReport(94)}
	candidate := []*servebench.Report{roundReport(85), roundReport(86), roundReport(87)}

	It("fails with each regressed statistic, both values, the change and its interval", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.02})
		ok, err := m.Match(candidate)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate)).To(HavePrefix(
			"Expected no regression from the baseline, but 1 of 1 compared statistics regressed (positive change is worse):\n" +
				"    attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+4.31 pt, +7.69 pt], tolerance 2 pt): regression\n" +
				"rounds: baseline 3, candidate 3\nmethod: paired t-interval"))
	})

	It("passes when the interval stays within the tolerance", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.08})
		Expect(candidate).To(m)
		Expect(m.NegatedFailureMessage(candidate)).To(ContainSubstring("the verdict is no_regression"))
	})

	It("fails on an inconclusive verdict unless told to allow it", func() {
		tol := compare.Tolerance{Name: "attainment", Value: 0.065}
		m := matchers.HaveNoRegressionFrom(baseline, tol)
		ok, err := m.Match(candidate)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate)).To(HavePrefix(
			"Expected no regression from the baseline, but the verdict is inconclusive: the evidence neither shows a regression nor rules one out (positive change is worse; call AllowInconclusive to let this pass):\n" +
				"    attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+4.31 pt, +7.69 pt], tolerance 6.5 pt): inconclusive; about 10 more rounds would likely decide it"))
		Expect(candidate).To(matchers.HaveNoRegressionFrom(baseline, tol).AllowInconclusive())
	})

	It("fails on one round per side, which is advisory, even when inconclusive is allowed", func() {
		m := matchers.HaveNoRegressionFrom(baseline[:1], compare.Tolerance{Name: "attainment", Value: 0.5}).AllowInconclusive()
		ok, err := m.Match(candidate[:1])
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate[:1])).To(ContainSubstring("with one round per side the comparison is advisory"))
		Expect(m.FailureMessage(candidate[:1])).To(ContainSubstring("advisory (leaning no_regression)"))
	})

	It("refuses invalid load, unequal round counts and other types", func() {
		late := *candidate[2]
		late.Valid, late.InvalidReasons = false, []string{"2 of 100 offered requests were sent late"}
		att := compare.Tolerance{Name: "attainment", Value: 0.02}
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
			[]*servebench.Report{roundReport(85), roundReport(86), roundReport(87)},
			compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.02}}})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveNoRegression()
		Expect(m.Match(c)).To(BeFalse())
		Expect(m.FailureMessage(c)).To(ContainSubstring("attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+4.31 pt, +7.69 pt], tolerance 2 pt): regression"))
		_, err = m.Match(nil)
		Expect(err).To(HaveOccurred())
	})

	It("fails an inconclusive comparison unless told to allow it", func() {
		c, err := compare.Reports([]*servebench.Report{roundReport(90), roundReport(92), roundReport(94)},
			[]*servebench.Report{roundReport(85), roundReport(86), roundReport(87)},
			compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.06}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Verdict).To(Equal(compare.Inconclusive))
		Expect(matchers.HaveNoRegression().Match(c)).To(BeFalse())
		Expect(c).To(matchers.HaveNoRegression().AllowInconclusive())
	})
})
