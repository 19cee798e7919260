package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveSessionAttainmentAtLeast succeeds when the report's session
// attainment, the sessions whose every turn qualified over the offered
// sessions that were not truncated, is at least fraction.
//
//	Expect(report).To(matchers.HaveSessionAttainmentAtLeast(0.95))
//
// A fraction outside [0, 1], a report without a sessions block (the
// workload has no conversations) and one whose offered sessions were all
// truncated are errors. On failure the message gives the session counts.
func HaveSessionAttainmentAtLeast(fraction float64) types.GomegaMatcher {
	return sessionAttainmentMatcher{target: fraction}
}

// sessionAttainmentMatcher holds only its expectation; see
// HaveSessionAttainmentAtLeast.
type sessionAttainmentMatcher struct{ target float64 }

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m sessionAttainmentMatcher) evaluate(actual any) (*report.Sessions, float64, error) {
	const who = "HaveSessionAttainmentAtLeast"
	if err := fractionError(who, "a session attainment target", m.target); err != nil {
		return nil, 0, err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, 0, err
	}
	return m.judged(who, r)
}

// judged checks that the report has sessions to judge and returns them
// with their attainment.
func (sessionAttainmentMatcher) judged(who string, r *report.Report) (*report.Sessions, float64, error) {
	s := r.Sessions
	if s == nil {
		return nil, 0, fmt.Errorf("%s: the report has no sessions block (the workload has no conversations)", who)
	}
	if s.Judged() <= 0 {
		return nil, 0, fmt.Errorf("%s: no session to judge (%d offered, %d truncated)", who, s.Offered, s.Truncated)
	}
	return s, float64(s.Qualified) / float64(s.Judged()), nil
}

// Match reports whether the session attainment reaches the target.
func (m sessionAttainmentMatcher) Match(actual any) (bool, error) {
	_, a, err := m.evaluate(actual)
	return err == nil && a >= m.target, err
}

// FailureMessage explains why the session attainment fell short.
func (m sessionAttainmentMatcher) FailureMessage(actual any) string {
	return m.message(actual, "to be at least")
}

// NegatedFailureMessage explains why the session attainment reached the
// target.
func (m sessionAttainmentMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

// message states the attainment with its counts against the target.
func (m sessionAttainmentMatcher) message(actual any, relation string) string {
	s, a, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected session attainment %.3f (%d of %d sessions qualified; %d offered, %d truncated, %d completed) %s %.3f",
		a, s.Qualified, s.Judged(), s.Offered, s.Truncated, s.Completed, relation, m.target)
}

// String names the objective, for MeetSLOs and spec reports.
func (m sessionAttainmentMatcher) String() string {
	return fmt.Sprintf("session attainment >= %.3f", m.target)
}

// Measured states the session attainment with its counts: "0.950 (190 of
// 200)".
func (m sessionAttainmentMatcher) Measured(actual any) (string, error) {
	s, a, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f (%d of %d)", a, s.Qualified, s.Judged()), nil
}
