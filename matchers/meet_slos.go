package matchers

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"
)

// MeetSLOs succeeds when the actual value meets every objective, each a
// matcher from this package (or any Gomega matcher). Unlike gomega.And it
// does not stop at the first violation: the failure message lists every
// violated objective with its own explanation, and the objectives that
// held.
//
//	Expect(report).To(matchers.MeetSLOs(
//		matchers.BeValidLoad(),
//		matchers.HaveAttainmentAtLeast(0.95),
//		matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 200*time.Millisecond),
//		matchers.HaveErrorRateBelow(0.01),
//	))
//
// No objectives, a nil objective, and any objective that cannot judge the
// actual value are errors.
func MeetSLOs(objectives ...types.GomegaMatcher) types.GomegaMatcher {
	return meetSLOsMatcher{objectives: append([]types.GomegaMatcher(nil), objectives...)}
}

// meetSLOsMatcher holds only its objectives; see MeetSLOs.
type meetSLOsMatcher struct{ objectives []types.GomegaMatcher }

// evaluate judges actual against every objective and returns the indexes of
// the violated ones; it keeps nothing, so every method may call it.
func (m meetSLOsMatcher) evaluate(actual any) ([]int, error) {
	if len(m.objectives) == 0 {
		return nil, fmt.Errorf("MeetSLOs needs at least one objective")
	}
	var violated []int
	for i, o := range m.objectives {
		if o == nil {
			return nil, fmt.Errorf("MeetSLOs objective %d is nil", i+1)
		}
		ok, err := o.Match(actual)
		if err != nil {
			return nil, fmt.Errorf("MeetSLOs objective %d (%s) cannot be judged: %w", i+1, objectiveName(o), err)
		}
		if !ok {
			violated = append(violated, i)
		}
	}
	return violated, nil
}

// Match reports whether no objective was violated.
func (m meetSLOsMatcher) Match(actual any) (bool, error) {
	violated, err := m.evaluate(actual)
	return err == nil && len(violated) == 0, err
}

// FailureMessage lists every violated objective with its explanation, then
// the objectives that held.
func (m meetSLOsMatcher) FailureMessage(actual any) string {
	violated, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Expected all %d objectives to be met, but %d %s violated:",
		len(m.objectives), len(violated), plural(len(violated), "was", "were"))
	isViolated := map[int]bool{}
	for _, i := range violated {
		isViolated[i] = true
		o := m.objectives[i]
		fmt.Fprintf(&b, "\n%d. %s\n%s", i+1, objectiveName(o), format.IndentString(o.FailureMessage(actual), 1))
	}
	var met []string
	for i, o := range m.objectives {
		if !isViolated[i] {
			met = append(met, objectiveName(o))
		}
	}
	if len(met) > 0 {
		fmt.Fprintf(&b, "\nmet: %s", strings.Join(met, "; "))
	}
	return b.String()
}

// NegatedFailureMessage says that every objective was met.
func (m meetSLOsMatcher) NegatedFailureMessage(actual any) string {
	if _, err := m.evaluate(actual); err != nil {
		return err.Error()
	}
	names := make([]string, len(m.objectives))
	for i, o := range m.objectives {
		names[i] = objectiveName(o)
	}
	return fmt.Sprintf("Expected at least one of %d objectives to be violated, but all were met: %s",
		len(m.objectives), strings.Join(names, "; "))
}

// String names the objectives, for nesting and spec reports.
func (m meetSLOsMatcher) String() string {
	names := make([]string, len(m.objectives))
	for i, o := range m.objectives {
		names[i] = objectiveName(o)
	}
	return "all of: " + strings.Join(names, "; ")
}

// objectiveName is an objective's own name when it has one (every matcher
// in this package does), else its type.
func objectiveName(o types.GomegaMatcher) string {
	if s, ok := o.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", o)
}
