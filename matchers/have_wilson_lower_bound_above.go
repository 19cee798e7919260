package matchers

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/stats"
)

// DefaultConfidence is the confidence of HaveWilsonLowerBoundAbove's bound
// unless WithConfidence says otherwise.
const DefaultConfidence = 0.95

// WilsonOption changes how HaveWilsonLowerBoundAbove computes its bound.
type WilsonOption func(*wilsonMatcher)

// WithConfidence sets the confidence level of the one-sided Wilson lower
// bound, a number strictly between 0 and 1 (default 0.95).
//
//	Expect(report).To(matchers.HaveWilsonLowerBoundAbove(0.90, matchers.WithConfidence(0.99)))
func WithConfidence(c float64) WilsonOption {
	return func(m *wilsonMatcher) { m.confidence = c }
}

// HaveWilsonLowerBoundAbove succeeds when the one-sided Wilson lower
// confidence bound of the report's attainment (qualified of offered) is at
// least fraction. It treats requests as independent trials with one pass
// probability, so it asks whether the evidence, not only the observed
// rate, supports the target: 190 qualified of 200 offered is 95.0 %
// observed but only 91.8 % at 95 % confidence, and fails a 0.95 target.
//
//	Expect(report).To(matchers.HaveWilsonLowerBoundAbove(0.95))
//	Expect(report).To(matchers.HaveWilsonLowerBoundAbove(0.90, matchers.WithConfidence(0.99)))
//
// The actual may also be a *servebench.LiveRun, polled with Eventually: the
// snapshot counts pending requests as unqualified, so its bound can only
// rise, and polling stops once the target is out of reach.
//
// The bound is computed from the report's counts at the matcher's
// confidence, whatever confidence the report was scored with. A fraction
// outside [0, 1], a confidence outside (0, 1) and a report with no offered
// requests are errors.
func HaveWilsonLowerBoundAbove(fraction float64, opts ...WilsonOption) types.GomegaMatcher {
	m := &wilsonMatcher{target: fraction, confidence: DefaultConfidence}
	for _, o := range opts {
		o(m)
	}
	return *m
}

// wilsonMatcher holds only its expectation; see HaveWilsonLowerBoundAbove.
type wilsonMatcher struct {
	target     float64
	confidence float64
}

// wilsonVerdict is the matcher's judgment of one report.
type wilsonVerdict struct {
	report   *report.Report
	observed float64
	lower    float64
	pass     bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m wilsonMatcher) evaluate(actual any) (wilsonVerdict, error) {
	const who = "HaveWilsonLowerBoundAbove"
	if err := fractionError(who, "a target", m.target); err != nil {
		return wilsonVerdict{}, err
	}
	if math.IsNaN(m.confidence) || m.confidence <= 0 || m.confidence >= 1 {
		return wilsonVerdict{}, fmt.Errorf("%s needs a confidence strictly between 0 and 1, got %v", who, m.confidence)
	}
	r, live, err := liveReport(who, actual)
	if err != nil {
		return wilsonVerdict{}, err
	}
	lower, ok := stats.WilsonLower(r.Qualified, r.Offered, m.confidence)
	if !ok {
		return wilsonVerdict{}, fmt.Errorf("%s could not compute a Wilson bound for %d qualified of %d offered", who, r.Qualified, r.Offered)
	}
	v := wilsonVerdict{
		report:   r,
		observed: float64(r.Qualified) / float64(r.Offered),
		lower:    lower,
		pass:     lower >= m.target,
	}
	if live != nil && !v.pass {
		if best, _ := stats.WilsonLower(r.Qualified+r.Pending, r.Offered, m.confidence); best < m.target {
			return v, unreachable(numfmt.Level(m.confidence)+" Wilson lower bound", best, m.target, r)
		}
	}
	return v, nil
}

// MatchMayChangeInTheFuture tells Eventually that only a live run that has
// not finished can change.
func (m wilsonMatcher) MatchMayChangeInTheFuture(actual any) bool { return mayChange(actual) }

// Match reports whether the lower bound reaches the target.
func (m wilsonMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage explains why the lower bound fell short and how much
// evidence would clear the target at the observed rate.
func (m wilsonMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the one-sided %s Wilson lower bound of attainment %s (%d of %d offered qualified, observed %s) to be at least %s",
		numfmt.Level(m.confidence), numfmt.Percent(v.lower), v.report.Qualified, v.report.Offered, numfmt.Percent(v.observed), numfmt.Percent(m.target)) +
		"\n" + m.evidenceHint(v) + pendingLine(v.report) +
		accountingLines(v.report) +
		requestList("worst unqualified requests", worstUnqualified(v.report))
}

// NegatedFailureMessage explains why the lower bound reached the target.
func (m wilsonMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the one-sided %s Wilson lower bound of attainment %s (%d of %d offered qualified, observed %s) not to be at least %s",
		numfmt.Level(m.confidence), numfmt.Percent(v.lower), v.report.Qualified, v.report.Offered, numfmt.Percent(v.observed), numfmt.Percent(m.target))
}

// String names the objective, for MeetSLOs and spec reports.
func (m wilsonMatcher) String() string {
	return fmt.Sprintf("%s Wilson lower bound of attainment >= %.3f", numfmt.Level(m.confidence), m.target)
}

// evidenceHint says whether more requests at the observed rate could clear
// the target, and about how many.
func (m wilsonMatcher) evidenceHint(v wilsonVerdict) string {
	if v.observed <= m.target {
		return fmt.Sprintf("(the bound lies below the observed rate, so no number of requests at the observed %s can reach %s)",
			numfmt.Percent(v.observed), numfmt.Percent(m.target))
	}
	n, ok := requestsToClear(v.observed, m.target, m.confidence, v.report.Offered)
	if !ok {
		return fmt.Sprintf("(more than a billion requests at the observed %s would be needed to reach %s)", numfmt.Percent(v.observed), numfmt.Percent(m.target))
	}
	return fmt.Sprintf("(at the observed %s, about %d offered requests would be needed to reach %s)", numfmt.Percent(v.observed), n, numfmt.Percent(m.target))
}

// requestsToClear finds about the smallest number of offered requests whose
// Wilson lower bound, at the observed pass rate, reaches target. It assumes
// observed > target, doubles from the current count and then bisects.
func requestsToClear(observed, target, confidence float64, from int) (int, bool) {
	clears := func(n int) bool {
		lower, ok := stats.WilsonLower(int(math.Round(observed*float64(n))), n, confidence)
		return ok && lower >= target
	}
	const limit = 1 << 30
	hi := max(from, 1)
	for !clears(hi) {
		if hi >= limit {
			return 0, false
		}
		hi *= 2
	}
	lo := hi / 2
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if clears(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// Measured states the lower bound and the attainment it bounds: "0.918
// (attainment 0.950)".
func (m wilsonMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.3f (attainment %.3f)", v.lower, v.observed), nil
}
