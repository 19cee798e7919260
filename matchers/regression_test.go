package matchers_test

import (
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
)

// roundReport is one valid round with qualified of 1000 offered requests
// qualified.
func roundReport(qualified int) *report.Report {
	a := float64(qualified) / 1000
	return &report.Report{Schema: report.ReportSchema, Offered: 1000, ProtocolSuccesses: 1000, Qualified: qualified,
		Attainment: &a, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w"}}
}

var _ = Describe("HaveNoRegressionFrom", func() {
	// Attainment of 900, 920, 940 against 850, 860, 870 of 1000 over three
	// rounds: the score interval (see compare's
	// TestProportionScoreAttainmentAcrossRounds) of the 6-point drop, with one
	// comparison at 0.95, is [3.12, 8.67] points; the run-to-run noise,
	// 1.58 points, is below every tolerance used here.
	baseline := []*report.Report{roundReport(900), roundReport(920), roundReport(940)}
	candidate := []*report.Report{roundReport(850), roundReport(860), roundReport(870)}

	It("fails with each regressed statistic, both values, the change and its interval", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.02})
		ok, err := m.Match(candidate)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate)).To(HavePrefix(
			"Expected no regression from the baseline, but 1 of 1 compared statistics regressed (positive change is worse):\n" +
				"    attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+3.12 pt, +8.67 pt], tolerance 2 pt): regression\n" +
				"rounds: baseline 3, candidate 3\nmethod: Hartung–Knapp random-effects interval"))
	})

	It("passes when the interval stays within the tolerance", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.09})
		Expect(candidate).To(m)
		Expect(m.NegatedFailureMessage(candidate)).To(ContainSubstring("the verdict is no_regression"))
	})

	It("fails on an inconclusive verdict unless told to allow it", func() {
		tol := compare.Tolerance{Name: "attainment", Value: 0.07}
		m := matchers.HaveNoRegressionFrom(baseline, tol)
		ok, err := m.Match(candidate)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		Expect(m.FailureMessage(candidate)).To(MatchRegexp(`^` + regexp.QuoteMeta(
			"Expected no regression from the baseline, but the verdict is inconclusive: the evidence neither shows a regression nor rules one out (positive change is worse; call AllowInconclusive to let this pass):\n"+
				"    attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+3.12 pt, +8.67 pt], tolerance 7 pt): inconclusive; about ") +
			`\d+ requests a round \(these rounds have \d+\) would decide it with probability 80% at 3 rounds`))
		Expect(candidate).To(matchers.HaveNoRegressionFrom(baseline, tol).AllowInconclusive())
	})

	It("tells how to let an inconclusive verdict pass in the caller's own terms", func() {
		m := matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.07}).
			InconclusiveAdvice("set inconclusive: pass in the baseline section")
		Expect(m.FailureMessage(candidate)).To(ContainSubstring("(positive change is worse; set inconclusive: pass in the baseline section to let this pass):"))
		Expect(m.FailureMessage(candidate)).NotTo(ContainSubstring("AllowInconclusive"))
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
		_, err := matchers.HaveNoRegressionFrom(baseline, att).Match([]*report.Report{candidate[0], candidate[1], &late})
		Expect(err).To(MatchError(ContainSubstring("did not deliver its load")))
		_, err = matchers.HaveNoRegressionFrom(baseline, att).Match(candidate[0])
		Expect(err).To(MatchError(ContainSubstring("3 rounds and the candidate 1")))
		_, err = matchers.HaveNoRegressionFrom(baseline).Match("report")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("HaveNoRegression", func() {
	It("judges a comparison and lists what regressed", func() {
		c, err := compare.Reports([]*report.Report{roundReport(900), roundReport(920), roundReport(940)},
			[]*report.Report{roundReport(850), roundReport(860), roundReport(870)},
			compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.02}}})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveNoRegression()
		Expect(m.Match(c)).To(BeFalse())
		Expect(m.FailureMessage(c)).To(ContainSubstring("attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+3.12 pt, +8.67 pt], tolerance 2 pt): regression"))
		_, err = m.Match(nil)
		Expect(err).To(HaveOccurred())
	})

	It("fails an inconclusive comparison unless told to allow it", func() {
		c, err := compare.Reports([]*report.Report{roundReport(900), roundReport(920), roundReport(940)},
			[]*report.Report{roundReport(850), roundReport(860), roundReport(870)},
			compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.07}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Verdict).To(Equal(compare.Inconclusive))
		Expect(matchers.HaveNoRegression().Match(c)).To(BeFalse())
		Expect(c).To(matchers.HaveNoRegression().AllowInconclusive())
	})

	It("treats one statistic's insufficient_data as inconclusive", func() {
		c := &compare.Comparison{Valid: true, Verdict: compare.InsufficientData,
			Comparisons: []compare.MetricComparison{{Name: "ttft_p99", Verdict: compare.InsufficientData}}}
		m := matchers.HaveNoRegression()
		Expect(m.Match(c)).To(BeFalse())
		Expect(m.FailureMessage(c)).To(HavePrefix("Expected no regression from the baseline, but the verdict is insufficient_data:"))
		Expect(c).To(matchers.HaveNoRegression().AllowInconclusive())
	})
})
