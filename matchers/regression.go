package matchers

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// HaveNoRegressionFrom succeeds when the candidate runs (the actual: a
// []*servebench.Report with one report per round, or a single report) show
// no regression against baseline, one report per round in the same order:
// no compared statistic's whole interval lies beyond its tolerance on the
// worse side. Naming tolerances limits the comparison to them; none means
// compare.DefaultTolerances. The family-wise confidence is 0.95.
//
//	Expect(candidateReports).To(matchers.HaveNoRegressionFrom(baselineReports,
//		compare.Tolerance{Name: "ttft_p99", Value: 0.10}))
//
// An inconclusive comparison passes, as servebench compare exits 0 without
// --strict; a run that is not valid load, runs of different workloads and
// unequal round counts are errors, because they are no evidence.
func HaveNoRegressionFrom(baseline []*servebench.Report, tolerances ...compare.Tolerance) types.GomegaMatcher {
	return regressionFromMatcher{baseline: baseline, tolerances: tolerances}
}

// regressionFromMatcher holds only its expectation; see
// HaveNoRegressionFrom.
type regressionFromMatcher struct {
	baseline   []*servebench.Report
	tolerances []compare.Tolerance
}

// evaluate compares actual with the baseline; it keeps nothing.
func (m regressionFromMatcher) evaluate(actual any) (*compare.Comparison, error) {
	const who = "HaveNoRegressionFrom"
	var cand []*servebench.Report
	switch a := actual.(type) {
	case []*servebench.Report:
		cand = a
	default:
		r, err := reportFrom(who, actual)
		if err != nil {
			return nil, fmt.Errorf("%s expects the candidate's reports ([]*servebench.Report, one per round) or one report: %w", who, err)
		}
		cand = []*servebench.Report{r}
	}
	var tols []compare.Tolerance
	if len(m.tolerances) > 0 {
		tols = m.tolerances
	}
	c, err := compare.Reports(m.baseline, cand, compare.Options{Tolerances: tols})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", who, err)
	}
	return c, validComparison(who, c)
}

// Match reports whether no regression was shown.
func (m regressionFromMatcher) Match(actual any) (bool, error) {
	c, err := m.evaluate(actual)
	if err != nil {
		return false, err
	}
	return c.Verdict != compare.Regression, nil
}

// FailureMessage lists every regressed statistic.
func (m regressionFromMatcher) FailureMessage(actual any) string {
	c, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return regressionMessage(c)
}

// NegatedFailureMessage explains why no regression was shown.
func (m regressionFromMatcher) NegatedFailureMessage(actual any) string {
	c, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return noRegressionMessage(c)
}

// HaveNoRegression succeeds when a *compare.Comparison's verdict is not
// regression (inconclusive passes, as compare exits 0 without --strict). A
// comparison whose runs were not all valid load is an error.
//
//	c, _ := compare.Reports(baseline, candidate, compare.Options{})
//	Expect(c).To(matchers.HaveNoRegression())
func HaveNoRegression() types.GomegaMatcher { return comparisonMatcher{} }

// comparisonMatcher judges a finished comparison; see HaveNoRegression.
type comparisonMatcher struct{}

func (comparisonMatcher) comparison(actual any) (*compare.Comparison, error) {
	const who = "HaveNoRegression"
	c, ok := actual.(*compare.Comparison)
	if !ok || c == nil {
		return nil, fmt.Errorf("%s expects a non-nil *compare.Comparison.  Got:\n%s", who, format.Object(actual, 1))
	}
	return c, validComparison(who, c)
}

// Match reports whether no regression was shown.
func (m comparisonMatcher) Match(actual any) (bool, error) {
	c, err := m.comparison(actual)
	if err != nil {
		return false, err
	}
	return c.Verdict != compare.Regression, nil
}

// FailureMessage lists every regressed statistic.
func (m comparisonMatcher) FailureMessage(actual any) string {
	c, err := m.comparison(actual)
	if err != nil {
		return err.Error()
	}
	return regressionMessage(c)
}

// NegatedFailureMessage explains why no regression was shown.
func (m comparisonMatcher) NegatedFailureMessage(actual any) string {
	c, err := m.comparison(actual)
	if err != nil {
		return err.Error()
	}
	return noRegressionMessage(c)
}

// validComparison refuses a comparison that rests on invalid load.
func validComparison(who string, c *compare.Comparison) error {
	if c.Valid {
		return nil
	}
	return fmt.Errorf("%s cannot judge: a run did not deliver its load, so the comparison is no evidence:\n    %s", who, strings.Join(c.InvalidRuns, "\n    "))
}

// regressionMessage lists each regressed statistic with both values, the
// change and its interval, then how the intervals were made.
func regressionMessage(c *compare.Comparison) string {
	reg := c.Regressed()
	var b strings.Builder
	fmt.Fprintf(&b, "Expected no regression from the baseline, but %d of %d compared statistics regressed (positive change is worse):", len(reg), len(c.Comparisons))
	for _, m := range reg {
		fmt.Fprintf(&b, "\n    %s", m.Describe())
	}
	fmt.Fprintf(&b, "\nrounds: baseline %d, candidate %d\nmethod: %s\nfamily: %s", c.Rounds.Baseline, c.Rounds.Candidate, c.Method, c.Family)
	return b.String()
}

// noRegressionMessage lists every comparison for the negated form.
func noRegressionMessage(c *compare.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Expected a regression from the baseline, but the verdict is %s:", c.Verdict)
	for _, m := range c.Comparisons {
		fmt.Fprintf(&b, "\n    %s", m.Describe())
	}
	fmt.Fprintf(&b, "\nmethod: %s", c.Method)
	return b.String()
}
