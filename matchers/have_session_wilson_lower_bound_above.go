package matchers

import (
	"fmt"

	"github.com/onsi/gomega/types"
)

// HaveSessionWilsonLowerBoundAbove succeeds when the one-sided Wilson lower
// bound of the session attainment, at the report's confidence, is at least
// bound: the sessions judged certify the service level, not just reach it.
//
//	Expect(report).To(matchers.HaveSessionWilsonLowerBoundAbove(0.9))
//
// The errors are HaveSessionAttainmentAtLeast's.
func HaveSessionWilsonLowerBoundAbove(bound float64) types.GomegaMatcher {
	return sessionWilsonMatcher{bound: bound}
}

// sessionWilsonMatcher holds only its expectation; see
// HaveSessionWilsonLowerBoundAbove.
type sessionWilsonMatcher struct{ bound float64 }

// evaluate judges actual: the bound and the message's counts.
func (m sessionWilsonMatcher) evaluate(actual any) (lower float64, counts string, err error) {
	const who = "HaveSessionWilsonLowerBoundAbove"
	if err := fractionError(who, "a session Wilson bound", m.bound); err != nil {
		return 0, "", err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return 0, "", err
	}
	s, _, err := sessionAttainmentMatcher{}.judged(who, r)
	if err != nil {
		return 0, "", err
	}
	if s.WilsonLower == nil {
		return 0, "", fmt.Errorf("%s: the report's sessions block has no wilson_lower", who)
	}
	return *s.WilsonLower, fmt.Sprintf("%d of %d sessions qualified at %g confidence", s.Qualified, s.Judged(), r.WilsonConfidence), nil
}

// Match reports whether the bound reaches the target.
func (m sessionWilsonMatcher) Match(actual any) (bool, error) {
	lower, _, err := m.evaluate(actual)
	return err == nil && lower >= m.bound, err
}

// FailureMessage explains why the bound fell short.
func (m sessionWilsonMatcher) FailureMessage(actual any) string {
	return m.message(actual, "to be at least")
}

// NegatedFailureMessage explains why the bound reached the target.
func (m sessionWilsonMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

func (m sessionWilsonMatcher) message(actual any, relation string) string {
	lower, counts, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected session Wilson lower bound %.3f (%s) %s %.3f", lower, counts, relation, m.bound)
}

// String names the objective, for MeetSLOs and spec reports.
func (m sessionWilsonMatcher) String() string {
	return fmt.Sprintf("session Wilson lower bound >= %.3f", m.bound)
}

// Measured states the bound with its counts.
func (m sessionWilsonMatcher) Measured(actual any) (string, error) {
	lower, counts, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f (%s)", lower, counts), nil
}
