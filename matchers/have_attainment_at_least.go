package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveAttainmentAtLeast succeeds when the report's attainment, qualified
// requests over offered requests, is at least fraction. Every offered
// request stays in the denominator: errors, timeouts, rejections, unsent
// requests and wrong answers count against attainment.
//
//	Expect(report).To(matchers.HaveAttainmentAtLeast(0.95))
//
// The actual may also be a *servebench.LiveRun: its snapshot counts pending
// requests as unqualified, so the attainment can only rise, a pass is final,
// and Eventually stops early once the target is out of reach:
//
//	Eventually(live).Should(matchers.HaveAttainmentAtLeast(0.95))
//
// A fraction outside [0, 1] and a report with no offered requests are
// errors. On failure the message gives the measured attainment with its
// counts, the unqualified requests by failed criterion, the terminal
// statuses and the worst requests.
func HaveAttainmentAtLeast(fraction float64) types.GomegaMatcher {
	return attainmentMatcher{target: fraction}
}

// attainmentMatcher holds only its expectation; see HaveAttainmentAtLeast.
type attainmentMatcher struct{ target float64 }

// attainmentVerdict is the matcher's judgment of one report.
type attainmentVerdict struct {
	report     *report.Report
	attainment float64
	pass       bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m attainmentMatcher) evaluate(actual any) (attainmentVerdict, error) {
	const who = "HaveAttainmentAtLeast"
	if err := fractionError(who, "an attainment target", m.target); err != nil {
		return attainmentVerdict{}, err
	}
	r, live, err := liveReport(who, actual)
	if err != nil {
		return attainmentVerdict{}, err
	}
	a := float64(r.Qualified) / float64(r.Offered)
	v := attainmentVerdict{report: r, attainment: a, pass: a >= m.target}
	if best := float64(r.Qualified+r.Pending) / float64(r.Offered); live != nil && !v.pass && best < m.target {
		return v, unreachable("attainment", best, m.target, r)
	}
	return v, nil
}

// MatchMayChangeInTheFuture tells Eventually that only a live run that has
// not finished can change.
func (m attainmentMatcher) MatchMayChangeInTheFuture(actual any) bool { return mayChange(actual) }

// Match reports whether the attainment reaches the target.
func (m attainmentMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage explains why the attainment fell short.
func (m attainmentMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected attainment %.3f (%d of %d offered) to be at least %.3f",
		v.attainment, v.report.Qualified, v.report.Offered, m.target) + pendingLine(v.report) +
		accountingLines(v.report) +
		requestList("worst unqualified requests", worstUnqualified(v.report))
}

// NegatedFailureMessage explains why the attainment reached the target.
func (m attainmentMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected attainment %.3f (%d of %d offered) not to be at least %.3f",
		v.attainment, v.report.Qualified, v.report.Offered, m.target) +
		accountingLines(v.report)
}

// String names the objective, for MeetSLOs and spec reports.
func (m attainmentMatcher) String() string {
	return fmt.Sprintf("attainment >= %.3f", m.target)
}

// Measured states the attainment with its counts: "0.950 (38 of 40)".
func (m attainmentMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f (%d of %d)", v.attainment, v.report.Qualified, v.report.Offered), nil
}
