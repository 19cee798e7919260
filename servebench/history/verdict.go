package history

import (
	"fmt"

	"github.com/servebench/servebench/servebench/compare"
)

// The outcomes of a newest release's verdict.
const (
	// Regression: the newest release regressed under the policy.
	Regression = "regression"
	// NoRegression: it did not.
	NoRegression = "no_regression"
	// InsufficientData: the history is too short for the policy to judge
	// it.
	InsufficientData = "insufficient_data"
)

// Verdict is the judgment of a history's newest release under one policy.
type Verdict struct {
	Policy Policy `json:"policy"`
	// Release names the newest release.
	Release string `json:"release"`
	// Outcome is regression, no_regression or insufficient_data.
	Outcome string `json:"verdict"`
	// Reasons are, for a regression, the statistics that make it, one
	// line each; for insufficient_data, why the policy cannot judge.
	Reasons []string `json:"reasons"`
}

// Judge judges the newest release under policy p. Under the changepoint
// policy it is a regression when a change beyond its tolerance starts
// there (tolerances named as for compare; none means
// compare.DefaultTolerances, and a metric without one is not judged);
// a history too short to show a change is insufficient_data. Under the
// ratio policy it is a regression when, on one latency or throughput
// statistic, it and the release before both violate; fewer than Window +
// 2 releases is insufficient_data. The tolerances do not apply to it.
func (h *History) Judge(p Policy, tolerances []compare.Tolerance) Verdict {
	v := Verdict{Policy: p, Release: h.Releases[len(h.Releases)-1].Name, Outcome: NoRegression, Reasons: []string{}}
	if p == PolicyRatio {
		return h.judgeRatio(v)
	}
	if notice := h.ShortNotice(); notice != "" {
		v.Outcome, v.Reasons = InsufficientData, []string{notice}
		return v
	}
	if len(tolerances) == 0 {
		tolerances = compare.DefaultTolerances()
	}
	newest := len(h.Releases) - 1
	for _, s := range h.Metrics {
		for _, t := range tolerances {
			if t.Name != s.Metric {
				continue
			}
			for _, c := range s.Changes {
				if c.Index == newest && c.Size > t.Value {
					v.Reasons = append(v.Reasons, fmt.Sprintf("%s (tolerance %g): %s", s.Metric, t.Value, c.Describe(s)))
				}
			}
		}
	}
	if len(v.Reasons) > 0 {
		v.Outcome = Regression
	}
	return v
}

// judgeRatio fills v under the ratio policy.
func (h *History) judgeRatio(v Verdict) Verdict {
	a := h.Ratio
	if need := a.Window + 2; len(h.Releases) < need {
		v.Outcome = InsufficientData
		v.Reasons = []string{fmt.Sprintf("the ratio policy with a window of %d needs at least %d releases (the window, then two releases judged against it); the history has %d",
			a.Window, need, len(h.Releases))}
		return v
	}
	if len(a.Series) == 0 {
		v.Outcome = InsufficientData
		v.Reasons = []string{"no latency or throughput statistic is given by every release: the ratio policy judges nothing else"}
		return v
	}
	for _, s := range a.Series {
		n := len(s.Points)
		last, before := s.Points[n-1], s.Points[n-2]
		if last.Violates && before.Violates {
			v.Reasons = append(v.Reasons, last.Describe(s, a.Ratio)+"; and "+before.Describe(s, a.Ratio))
		}
	}
	if len(v.Reasons) > 0 {
		v.Outcome = Regression
	}
	return v
}
