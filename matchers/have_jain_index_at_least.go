package matchers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveJainIndexAtLeast succeeds when Jain's fairness index over the
// attainment of the values of a breakdown dimension (report.BreakdownDimension's
// Jain: J = (Σx)² / (n·Σx²)) is at least bound: every tenant, say, got
// its share of qualified requests.
//
//	Expect(report).To(matchers.HaveJainIndexAtLeast("tenant", 0.9))
//
// A bound outside [0, 1] (J never exceeds 1), a dimension the report is
// not broken down by, and one whose index is undefined (fewer than two
// values, or none attained anything) are errors, never a verdict. On
// failure the message gives each value's attainment.
func HaveJainIndexAtLeast(dimension string, bound float64) types.GomegaMatcher {
	return jainMatcher{dimension: dimension, bound: bound}
}

// jainMatcher holds only its expectation; see HaveJainIndexAtLeast.
type jainMatcher struct {
	dimension string
	bound     float64
}

// evaluate returns the dimension and its index.
func (m jainMatcher) evaluate(actual any) (*report.BreakdownDimension, float64, error) {
	const who = "HaveJainIndexAtLeast"
	if err := fractionError(who, "a Jain's index bound", m.bound); err != nil {
		return nil, 0, err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, 0, err
	}
	dim := r.Breakdown[m.dimension]
	if dim == nil {
		return nil, 0, fmt.Errorf("%s: the report has no breakdown by %s (it has: %s; a dimension no request carried is left out)",
			who, m.dimension, dimensionNames(r))
	}
	if dim.Jain == nil {
		return nil, 0, fmt.Errorf("%s: Jain's index over %s is undefined: it needs two values or more with some attainment (values: %s)",
			who, m.dimension, valueNames(dim))
	}
	return dim, *dim.Jain, nil
}

// Match reports whether the index reaches the bound.
func (m jainMatcher) Match(actual any) (bool, error) {
	_, j, err := m.evaluate(actual)
	return err == nil && j >= m.bound, err
}

// FailureMessage explains why the index fell short.
func (m jainMatcher) FailureMessage(actual any) string { return m.message(actual, "to be at least") }

// NegatedFailureMessage explains why the index reached the bound.
func (m jainMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

// message states the index with each value's attainment.
func (m jainMatcher) message(actual any, relation string) string {
	dim, j, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected Jain's index over %s %.3f (attainment %s) %s %.3f", m.dimension, j, attainments(dim), relation, m.bound)
}

// attainments lists each value's attainment in value order: "a 1.000 (10
// of 10), b 0.500 (5 of 10)".
func attainments(dim *report.BreakdownDimension) string {
	names := make([]string, 0, len(dim.Values))
	for v := range dim.Values {
		if v != report.BreakdownNone {
			names = append(names, v)
		}
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, v := range names {
		bv := dim.Values[v]
		a := 0.0
		if bv.Attainment != nil {
			a = *bv.Attainment
		}
		parts[i] = fmt.Sprintf("%s %.3f (%d of %d)", v, a, bv.Qualified, bv.Offered)
	}
	return strings.Join(parts, ", ")
}

// String names the objective, for MeetSLOs and spec reports.
func (m jainMatcher) String() string {
	return fmt.Sprintf("Jain's index over %s >= %.3f", m.dimension, m.bound)
}

// Measured states the index: "0.900 over 2 values".
func (m jainMatcher) Measured(actual any) (string, error) {
	dim, j, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	n := len(dim.Values)
	if _, ok := dim.Values[report.BreakdownNone]; ok {
		n--
	}
	return fmt.Sprintf("%.3f over %d values", j, n), nil
}
