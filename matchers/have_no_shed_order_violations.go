package matchers

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveNoShedOrderViolations succeeds when the report's shed-order check
// (report.ShedOrder) found no 1 s window in which a request of a critical
// objective was rejected while a request of a sheddable one was admitted:
// the gateway or engine shed sheddable traffic first.
//
//	Expect(report).To(matchers.HaveNoShedOrderViolations())
//
// A report without the check (no critical objectives declared) and one in
// which no window held both kinds of request are errors, never a pass.
func HaveNoShedOrderViolations() types.GomegaMatcher { return shedOrderMatcher{} }

// shedOrderMatcher has no expectation; see HaveNoShedOrderViolations.
type shedOrderMatcher struct{}

// evaluate returns the report's check.
func (shedOrderMatcher) evaluate(actual any) (*report.ShedOrder, error) {
	const who = "HaveNoShedOrderViolations"
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, err
	}
	s := r.ShedOrder
	switch {
	case s == nil:
		return nil, fmt.Errorf("%s: the report has no shed_order: declare the critical objectives (--critical-objectives, objectives.shed_order.critical)", who)
	case s.Windows == 0:
		return nil, fmt.Errorf("%s: no %s ms window held both a critical (%s) and a sheddable request: nothing to judge (%d critical and %d sheddable sent)",
			who, numfmt.Compact(s.WindowMS), strings.Join(s.Critical, ", "), s.CriticalSent, s.SheddableSent)
	}
	return s, nil
}

// Match reports whether no window violated the order.
func (m shedOrderMatcher) Match(actual any) (bool, error) {
	s, err := m.evaluate(actual)
	return err == nil && s.Violations == 0, err
}

// FailureMessage gives the violations.
func (m shedOrderMatcher) FailureMessage(actual any) string { return m.message(actual, "to be 0") }

// NegatedFailureMessage says there were none.
func (m shedOrderMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be 0")
}

// message states the violating windows and the counts.
func (m shedOrderMatcher) message(actual any, relation string) string {
	s, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	first := ""
	if s.FirstViolationMS != nil {
		first = fmt.Sprintf(", the first at %s ms", numfmt.Compact(*s.FirstViolationMS))
	}
	return fmt.Sprintf("Expected shed-order violations %d of %d windows%s (critical %s: %d of %d rejected; sheddable: %d of %d rejected) %s",
		s.Violations, s.Windows, first, strings.Join(s.Critical, ", "), s.CriticalRejected, s.CriticalSent, s.SheddableRejected, s.SheddableSent, relation)
}

// String names the objective, for MeetSLOs and spec reports.
func (shedOrderMatcher) String() string {
	return "no critical request shed while a sheddable one is admitted"
}

// Measured states the violations: "0 of 12 windows".
func (m shedOrderMatcher) Measured(actual any) (string, error) {
	s, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d of %d windows", s.Violations, s.Windows), nil
}
