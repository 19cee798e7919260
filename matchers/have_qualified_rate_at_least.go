package matchers

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
)

// HaveQualifiedRateAtLeast succeeds when the report's qualified request rate
// is at least rps requests per second. The qualified request rate is the
// cohort's qualified requests divided by its horizon (from the arrival
// window's start to the later of its end and the last terminal outcome).
// It is the useful-work rate of one run, not a capacity: for that, run a
// sweep and use HaveCapacityAtLeast.
//
//	Expect(report).To(matchers.HaveQualifiedRateAtLeast(1.5))
//
// A negative or NaN rate, a report with no offered requests and a report
// without a qualified rate are errors.
func HaveQualifiedRateAtLeast(rps float64) types.GomegaMatcher {
	return qualifiedRateMatcher{target: rps}
}

// qualifiedRateMatcher holds only its expectation; see
// HaveQualifiedRateAtLeast.
type qualifiedRateMatcher struct{ target float64 }

// qualifiedRateVerdict is the matcher's judgment of one report.
type qualifiedRateVerdict struct {
	report *report.Report
	rate   float64
	pass   bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m qualifiedRateMatcher) evaluate(actual any) (qualifiedRateVerdict, error) {
	const who = "HaveQualifiedRateAtLeast"
	if math.IsNaN(m.target) || math.IsInf(m.target, 0) || m.target < 0 {
		return qualifiedRateVerdict{}, fmt.Errorf("%s needs a finite, non-negative rate in requests per second, got %v", who, m.target)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return qualifiedRateVerdict{}, err
	}
	if r.QualifiedRPS == nil {
		return qualifiedRateVerdict{}, fmt.Errorf("%s cannot judge a report without a qualified request rate (horizon %s)", who, numfmt.MS(r.HorizonMS))
	}
	return qualifiedRateVerdict{report: r, rate: *r.QualifiedRPS, pass: *r.QualifiedRPS >= m.target}, nil
}

// Match reports whether the qualified request rate reaches the target.
func (m qualifiedRateMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage explains why the qualified request rate fell short.
func (m qualifiedRateMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be at least") +
		accountingLines(v.report) +
		requestList("worst unqualified requests", worstUnqualified(v.report))
}

// NegatedFailureMessage explains why the qualified request rate reached the
// target.
func (m qualifiedRateMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "not to be at least")
}

// headline states the measured rate with its numerator and denominator.
func (m qualifiedRateMatcher) headline(v qualifiedRateVerdict, relation string) string {
	r := v.report
	offered := ""
	if r.OfferedRPS != nil {
		offered = fmt.Sprintf(", offered %.3f req/s", *r.OfferedRPS)
	}
	return fmt.Sprintf("Expected qualified request rate %.3f req/s (%d qualified of %d offered over a %s horizon%s) %s %.3f req/s",
		v.rate, r.Qualified, r.Offered, numfmt.MS(r.HorizonMS), offered, relation, m.target)
}

// String names the objective, for MeetSLOs and spec reports.
func (m qualifiedRateMatcher) String() string {
	return fmt.Sprintf("qualified request rate >= %.3f req/s", m.target)
}

// Measured states the qualified request rate: "18.250 req/s".
func (m qualifiedRateMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f req/s", v.rate), nil
}
