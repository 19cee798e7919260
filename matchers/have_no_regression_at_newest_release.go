package matchers

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/history"
)

// HistoryOption adjusts HaveNoRegressionAtNewestRelease.
type HistoryOption func(*newestRegressionMatcher)

// UnderPolicy judges the newest release under policy p
// (history.PolicyRatio or history.PolicyChangepoint) instead of the policy
// the history was analyzed with.
func UnderPolicy(p history.Policy) HistoryOption {
	return func(m *newestRegressionMatcher) { m.policy = p }
}

// WithHistoryTolerances sets the changepoint policy's tolerances, named as
// for compare (default compare.DefaultTolerances()); the ratio policy
// takes none.
func WithHistoryTolerances(ts ...compare.Tolerance) HistoryOption {
	return func(m *newestRegressionMatcher) { m.tolerances = ts }
}

// HaveNoRegressionAtNewestRelease succeeds when a *history.History's newest
// release is no regression under its policy (history.Options.Policy, or
// UnderPolicy): under history.PolicyChangepoint, no change beyond its
// tolerance starts there; under history.PolicyRatio (the PyTorch HUD's
// rule), it and the release before do not both violate the ratio bound on
// one latency or throughput statistic.
//
//	h, _ := history.Analyze(releases, history.Options{Policy: history.PolicyRatio})
//	Expect(h).To(matchers.HaveNoRegressionAtNewestRelease())
//
// A history too short for the policy to judge (insufficient_data: fewer
// than window + 2 releases for the ratio policy, history.History.TooShort
// for the changepoint policy) is an error, not a success.
func HaveNoRegressionAtNewestRelease(opts ...HistoryOption) types.GomegaMatcher {
	m := &newestRegressionMatcher{}
	for _, o := range opts {
		o(m)
	}
	return *m
}

// newestRegressionMatcher holds only its expectation.
type newestRegressionMatcher struct {
	policy     history.Policy
	tolerances []compare.Tolerance
}

// verdict judges actual's newest release.
func (m newestRegressionMatcher) verdict(actual any) (history.Verdict, error) {
	h, ok := actual.(*history.History)
	if !ok || h == nil || len(h.Releases) == 0 {
		return history.Verdict{}, fmt.Errorf("HaveNoRegressionAtNewestRelease expects a non-nil *history.History.  Got:\n%s", format.Object(actual, 1))
	}
	p := m.policy
	if p == "" {
		p = h.Policy
	}
	if p == history.PolicyRatio && h.Ratio == nil {
		return history.Verdict{}, fmt.Errorf("HaveNoRegressionAtNewestRelease: the history holds no ratio analysis; make it with history.Analyze")
	}
	v := h.Judge(p, m.tolerances)
	if v.Outcome == history.InsufficientData {
		return v, fmt.Errorf("HaveNoRegressionAtNewestRelease cannot judge this history under the %s policy: %s", p, strings.Join(v.Reasons, "; "))
	}
	return v, nil
}

// Match reports whether the newest release is no regression.
func (m newestRegressionMatcher) Match(actual any) (bool, error) {
	v, err := m.verdict(actual)
	return err == nil && v.Outcome == history.NoRegression, err
}

// FailureMessage lists what makes the newest release a regression.
func (m newestRegressionMatcher) FailureMessage(actual any) string {
	v, err := m.verdict(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the newest release, %s, to be no regression under the %s policy, but:\n    %s",
		v.Release, v.Policy, strings.Join(v.Reasons, "\n    "))
}

// NegatedFailureMessage says the newest release is no regression.
func (m newestRegressionMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.verdict(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the newest release, %s, to be a regression under the %s policy, but it is not", v.Release, v.Policy)
}
