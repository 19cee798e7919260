package matchers

import (
	"fmt"

	"github.com/onsi/gomega/types"
)

// InBreakdown judges one value of one breakdown dimension of the report
// (report.BreakdownDimensions: "adapter", "class", "backend", "turn") with
// another report matcher: it selects Breakdown[dimension].Values[value],
// builds a report of that subset (its offered and qualified counts,
// attainment, Wilson lower bound at the report's confidence, SLO,
// percentile method and TTFT, TPOT and E2E distributions) and hands it to
// m.
// HaveAttainmentAtLeast, HaveWilsonLowerBoundAbove and
// HaveLatencyPercentileBelow on TTFT, TPOT or E2E at p50, p90, p95, p99 or
// p100 (the percentiles a breakdown value keeps) then judge that value
// alone:
//
//	Expect(report).To(matchers.InBreakdown("adapter", "sql", matchers.HaveAttainmentAtLeast(0.9)))
//	Expect(report).To(matchers.InBreakdown("adapter", "sql",
//		matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 2*time.Second)))
//
// The actual is what the other report matchers take. A dimension the
// report is not broken down by and a value the dimension does not have are
// errors, never a verdict, and name the dimensions or values the report
// has. Messages start with the selection: "in breakdown adapter=sql: ".
func InBreakdown(dimension, value string, m types.GomegaMatcher) types.GomegaMatcher {
	return breakdownMatcher{dimension: dimension, value: value, inner: m}
}

// breakdownMatcher holds only its selection and the matcher it applies;
// see InBreakdown.
type breakdownMatcher struct {
	dimension, value string
	inner            types.GomegaMatcher
}

// prefix names the selection at the start of every message.
func (m breakdownMatcher) prefix() string {
	return fmt.Sprintf("in breakdown %s=%s: ", m.dimension, m.value)
}

// Match applies the matcher to the selected value's report.
func (m breakdownMatcher) Match(actual any) (bool, error) {
	if m.inner == nil {
		return false, fmt.Errorf("InBreakdown needs a matcher to apply to %s=%s, got nil", m.dimension, m.value)
	}
	view, err := breakdownView(actual, m.dimension, m.value, false)
	if err != nil {
		return false, err
	}
	ok, err := m.inner.Match(view)
	if err != nil {
		return false, fmt.Errorf("%s%w", m.prefix(), err)
	}
	return ok, nil
}

// FailureMessage is the applied matcher's, on the selected value's report
// with its requests, after the selection.
func (m breakdownMatcher) FailureMessage(actual any) string {
	view, err := breakdownView(actual, m.dimension, m.value, true)
	if err != nil {
		return err.Error()
	}
	return m.prefix() + m.inner.FailureMessage(view)
}

// NegatedFailureMessage is the applied matcher's negated message, after
// the selection.
func (m breakdownMatcher) NegatedFailureMessage(actual any) string {
	view, err := breakdownView(actual, m.dimension, m.value, true)
	if err != nil {
		return err.Error()
	}
	return m.prefix() + m.inner.NegatedFailureMessage(view)
}

// String names the objective, for MeetSLOs and spec reports: "adapter sql:
// attainment >= 0.900".
func (m breakdownMatcher) String() string {
	name := "objective"
	if s, ok := m.inner.(fmt.Stringer); ok {
		name = s.String()
	}
	return fmt.Sprintf("%s %s: %s", m.dimension, m.value, name)
}
