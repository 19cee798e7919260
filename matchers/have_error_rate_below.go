package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveErrorRateBelow succeeds when the report's error rate
// (report.Report.ErrorRate) is at most fraction. Errors are the offered
// requests that did not end in protocol success (offered - protocol
// successes: HTTP and stream errors, timeouts, rejections, cancellations,
// unsent requests and empty outputs), divided by offered. Latency and
// quality do not enter it; use HaveAttainmentAtLeast for those.
//
//	Expect(report).To(matchers.HaveErrorRateBelow(0.01))
//	Expect(report).To(matchers.HaveErrorRateBelow(0)) // no request may fail
//
// A fraction outside [0, 1] and a report with no offered requests are
// errors.
func HaveErrorRateBelow(fraction float64) types.GomegaMatcher {
	return errorRateMatcher{limit: fraction}
}

// errorRateMatcher holds only its expectation; see HaveErrorRateBelow.
type errorRateMatcher struct{ limit float64 }

// errorRateVerdict is the matcher's judgment of one report.
type errorRateVerdict struct {
	report *report.Report
	errors int
	rate   float64
	pass   bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m errorRateMatcher) evaluate(actual any) (errorRateVerdict, error) {
	const who = "HaveErrorRateBelow"
	if err := fractionError(who, "an error-rate limit", m.limit); err != nil {
		return errorRateVerdict{}, err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return errorRateVerdict{}, err
	}
	rate, errs, _ := r.ErrorRate()
	return errorRateVerdict{report: r, errors: errs, rate: rate, pass: rate <= m.limit}, nil
}

// Match reports whether the error rate stays within the limit.
func (m errorRateMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage explains which requests failed and how.
func (m errorRateMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be at most") +
		fmt.Sprintf("\nterminal statuses: %s", statusCounts(v.report)) +
		requestList("failed requests", failedRequests(v.report))
}

// NegatedFailureMessage explains why the error rate stayed within the limit.
func (m errorRateMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be above") +
		fmt.Sprintf("\nterminal statuses: %s", statusCounts(v.report))
}

// headline states the measured error rate, its definition and the limit.
func (m errorRateMatcher) headline(v errorRateVerdict, relation string) string {
	return fmt.Sprintf("Expected error rate %.3f (%d of %d offered did not end in success; errors = offered - protocol successes, over offered) %s %.3f",
		v.rate, v.errors, v.report.Offered, relation, m.limit)
}

// String names the objective, for MeetSLOs and spec reports.
func (m errorRateMatcher) String() string {
	return fmt.Sprintf("error rate <= %.3f", m.limit)
}

// Measured states the error rate with its counts: "0.025 (1 of 40)".
func (m errorRateMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f (%d of %d)", v.rate, v.errors, v.report.Offered), nil
}
