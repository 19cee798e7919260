package matchers

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/format"

	"github.com/servebench/servebench/servebench/compare"
)

// RegressionMatcher is what HaveNoRegression and HaveNoRegressionFrom
// return: a Gomega matcher that succeeds only on a no_regression verdict,
// unless AllowInconclusive lets an inconclusive one pass too.
type RegressionMatcher struct {
	// from is set for HaveNoRegressionFrom, which compares the actual
	// with baseline itself.
	from              bool
	baseline          []*report.Report
	tolerances        []compare.Tolerance
	allowInconclusive bool
	// passInconclusive says, in the user's own terms, how to let an
	// inconclusive verdict pass; empty means the Go option.
	passInconclusive string
}

// HaveNoRegressionFrom succeeds when the candidate runs (the actual: a
// []*report.Report with one report per round, or a single report) show
// no regression against baseline, one report per round in the same order:
// every compared statistic's whole interval lies within its tolerance.
// Naming tolerances limits the comparison to them; none means
// compare.DefaultTolerances. The family-wise confidence is 0.95.
//
//	Expect(candidateReports).To(matchers.HaveNoRegressionFrom(baselineReports,
//		compare.Tolerance{Name: "ttft_p99", Value: 0.10}))
//
// An inconclusive comparison fails, as servebench compare exits 6, unless
// AllowInconclusive is called; one round per side is advisory and always
// fails. A run that is not valid load, runs of different workloads or
// schedules and unequal round counts are errors, because they are no
// evidence.
func HaveNoRegressionFrom(baseline []*report.Report, tolerances ...compare.Tolerance) RegressionMatcher {
	return RegressionMatcher{from: true, baseline: baseline, tolerances: tolerances}
}

// HaveNoRegression succeeds when a *compare.Comparison's verdict is
// no_regression. An inconclusive verdict fails unless AllowInconclusive is
// called (as compare exits 6 without --allow-inconclusive); an advisory
// (one-round) result always fails. A comparison whose runs were not all
// valid load is an error.
//
//	c, _ := compare.Reports(baseline, candidate, compare.Options{})
//	Expect(c).To(matchers.HaveNoRegression())
func HaveNoRegression() RegressionMatcher { return RegressionMatcher{} }

// AllowInconclusive returns the matcher letting an inconclusive verdict
// pass, as --allow-inconclusive does on the command line. A regression
// and an advisory result still fail.
func (m RegressionMatcher) AllowInconclusive() RegressionMatcher {
	m.allowInconclusive = true
	return m
}

// InconclusiveAdvice returns the matcher whose failure on an
// inconclusive verdict tells how to let it pass in the caller's own terms
// (a YAML contract: "set inconclusive: pass in the baseline section")
// instead of naming AllowInconclusive.
func (m RegressionMatcher) InconclusiveAdvice(howToPass string) RegressionMatcher {
	m.passInconclusive = howToPass
	return m
}

// who names the matcher in messages.
func (m RegressionMatcher) who() string {
	if m.from {
		return "HaveNoRegressionFrom"
	}
	return "HaveNoRegression"
}

// comparison is the comparison to judge: the actual itself, or the actual
// compared with the baseline. It keeps nothing.
func (m RegressionMatcher) comparison(actual any) (*compare.Comparison, error) {
	who := m.who()
	if !m.from {
		c, ok := actual.(*compare.Comparison)
		if !ok || c == nil {
			return nil, fmt.Errorf("%s expects a non-nil *compare.Comparison.  Got:\n%s", who, format.Object(actual, 1))
		}
		return c, validComparison(who, c)
	}
	var cand []*report.Report
	switch a := actual.(type) {
	case []*report.Report:
		cand = a
	default:
		r, err := reportFrom(who, actual)
		if err != nil {
			return nil, fmt.Errorf("%s expects the candidate's reports ([]*report.Report, one per round) or one report: %w", who, err)
		}
		cand = []*report.Report{r}
	}
	var tols []compare.Tolerance
	if len(m.tolerances) > 0 {
		tols = m.tolerances
	}
	c, err := compare.Reports(m.baseline, cand, compare.Options{Tolerances: tols, AllowInconclusive: m.allowInconclusive})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", who, err)
	}
	return c, validComparison(who, c)
}

// passes says whether a verdict passes the matcher: insufficient_data
// (one statistic's, when a comparison is judged alone) counts as
// inconclusive, as it makes a whole comparison inconclusive.
func (m RegressionMatcher) passes(v compare.Verdict) bool {
	undecided := v == compare.Inconclusive || v == compare.InsufficientData
	return v == compare.NoRegression || (undecided && m.allowInconclusive)
}

// Match reports whether the verdict passes: no_regression, or inconclusive
// when allowed.
func (m RegressionMatcher) Match(actual any) (bool, error) {
	c, err := m.comparison(actual)
	if err != nil {
		return false, err
	}
	return m.passes(c.Verdict), nil
}

// FailureMessage lists every regressed statistic, or the undecided ones.
func (m RegressionMatcher) FailureMessage(actual any) string {
	c, err := m.comparison(actual)
	if err != nil {
		return err.Error()
	}
	how := m.passInconclusive
	if how == "" {
		how = "call AllowInconclusive"
	}
	return regressionMessage(c, how)
}

// NegatedFailureMessage explains why no regression was shown.
func (m RegressionMatcher) NegatedFailureMessage(actual any) string {
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

// regressionMessage explains a verdict that is not no_regression: each
// regressed statistic with both values, the change and its interval, or
// each undecided one with what would decide it, then how the intervals
// were made.
func regressionMessage(c *compare.Comparison, howToPass string) string {
	var b strings.Builder
	switch c.Verdict {
	case compare.Regression:
		reg := c.Regressed()
		fmt.Fprintf(&b, "Expected no regression from the baseline, but %d of %d compared statistics regressed (positive change is worse):", len(reg), len(c.Comparisons))
		for _, m := range reg {
			fmt.Fprintf(&b, "\n    %s", m.Describe())
		}
	case compare.Advisory:
		b.WriteString("Expected no regression from the baseline, but with one round per side the comparison is advisory: its intervals are blind to run-to-run variance, so it gives no verdict; run 2 or more rounds (positive change is worse):")
		for _, m := range c.Comparisons {
			fmt.Fprintf(&b, "\n    %s", m.Describe())
		}
	default:
		fmt.Fprintf(&b, "Expected no regression from the baseline, but the verdict is %s: the evidence neither shows a regression nor rules one out (positive change is worse; %s to let this pass):", c.Verdict, howToPass)
		for _, m := range c.Comparisons {
			if m.Verdict == compare.NoRegression || m.Verdict == compare.Informational {
				continue
			}
			fmt.Fprintf(&b, "\n    %s", m.Describe())
			if m.Decide != "" {
				fmt.Fprintf(&b, "; %s", m.Decide)
			}
		}
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
