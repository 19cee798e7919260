package matchers

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/history"
)

// HaveNoChangeAtNewestRelease succeeds when, in a *history.History, no
// metric's level shifts starting at the newest release by more than its
// tolerance on the worse side. Tolerances are named as for compare
// (attainment and error_rate in points, latency percentiles relative);
// none means compare.DefaultTolerances, and a metric without a tolerance
// is not judged.
//
//	h, _ := history.Analyze(releases, history.Options{})
//	Expect(h).To(matchers.HaveNoChangeAtNewestRelease(compare.Tolerance{Name: "tpot_p50", Value: 0.05}))
//
// A change is found only where the permutation test can see it: a shift
// at the newest release alone is a segment of one release, which needs
// about 2/FalseAlarm releases before it (40 at 0.05) to be significant.
// A history too short to show any change (history.History.TooShort) is
// an error, not a success.
func HaveNoChangeAtNewestRelease(tolerances ...compare.Tolerance) types.GomegaMatcher {
	if len(tolerances) == 0 {
		tolerances = compare.DefaultTolerances()
	}
	return newestChangeMatcher{tolerances: tolerances}
}

// newestChangeMatcher holds only its expectation.
type newestChangeMatcher struct{ tolerances []compare.Tolerance }

// offending lists the changes starting at the newest release beyond their
// tolerance.
func (m newestChangeMatcher) offending(actual any) (*history.History, []string, error) {
	h, ok := actual.(*history.History)
	if !ok || h == nil {
		return nil, nil, fmt.Errorf("HaveNoChangeAtNewestRelease expects a non-nil *history.History.  Got:\n%s", format.Object(actual, 1))
	}
	if notice := h.ShortNotice(); notice != "" {
		return nil, nil, fmt.Errorf("HaveNoChangeAtNewestRelease cannot judge this history: %s", notice)
	}
	return h, h.Judge(history.PolicyChangepoint, m.tolerances).Reasons, nil
}

// Match reports whether the newest release starts no change beyond
// tolerance.
func (m newestChangeMatcher) Match(actual any) (bool, error) {
	_, bad, err := m.offending(actual)
	return err == nil && len(bad) == 0, err
}

// FailureMessage lists each change the newest release starts.
func (m newestChangeMatcher) FailureMessage(actual any) string {
	h, bad, err := m.offending(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the newest release, %s, to start no change beyond tolerance, but it starts:\n    %s\nmethod: %s",
		h.Releases[len(h.Releases)-1].Name, strings.Join(bad, "\n    "), h.Method)
}

// NegatedFailureMessage says the newest release starts no such change.
func (m newestChangeMatcher) NegatedFailureMessage(actual any) string {
	h, _, err := m.offending(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected the newest release, %s, to start a change beyond tolerance, but it starts none", h.Releases[len(h.Releases)-1].Name)
}
