package matchers

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveStartupWithin succeeds when every start of the engine in the
// report's engine_starts became ready within ready and gave the first token
// of its first request within firstToken, both counted from the
// container's or process's start (an image pull is not counted). A zero
// bound is not judged; a start whose first request gave no token fails a
// firstToken bound.
//
//	Expect(report).To(matchers.HaveStartupWithin(120*time.Second, 150*time.Second))
//
// Both bounds zero or negative, and a report without engine_starts (the
// engine was running before: servebench did not start it), are errors. On
// failure the message lists each start that missed a bound.
func HaveStartupWithin(ready, firstToken time.Duration) types.GomegaMatcher {
	return startupMatcher{ready: ready, firstToken: firstToken}
}

// startupMatcher holds only its bounds; see HaveStartupWithin.
type startupMatcher struct{ ready, firstToken time.Duration }

// evaluate judges actual: the starts and, for each that missed a bound,
// why.
func (m startupMatcher) evaluate(actual any) ([]report.EngineStart, []string, error) {
	const who = "HaveStartupWithin"
	if m.ready < 0 || m.firstToken < 0 || m.ready == 0 && m.firstToken == 0 {
		return nil, nil, fmt.Errorf("%s: give a positive ready or first-token bound, got %v and %v", who, m.ready, m.firstToken)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, nil, err
	}
	if len(r.EngineStarts) == 0 {
		return nil, nil, errors.New(who + ": the report has no engine_starts (servebench did not start the engine)")
	}
	var misses []string
	for i, s := range r.EngineStarts {
		if m.ready > 0 && (s.ReadyMS == nil || *s.ReadyMS > msOf(m.ready)) {
			misses = append(misses, fmt.Sprintf("start %d: ready after %s, bound %v", i+1, msText(s.ReadyMS), m.ready))
		}
		if m.firstToken > 0 && (s.FirstTokenMS == nil || *s.FirstTokenMS > msOf(m.firstToken)) {
			misses = append(misses, fmt.Sprintf("start %d: first token after %s, bound %v", i+1, msText(s.FirstTokenMS), m.firstToken))
		}
	}
	return r.EngineStarts, misses, nil
}

// msOf is d in milliseconds.
func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// msText renders a time in milliseconds, or says it was not measured.
func msText(ms *float64) string {
	if ms == nil {
		return "(none measured)"
	}
	return fmt.Sprintf("%.1f ms", *ms)
}

// Match reports whether every start met both bounds.
func (m startupMatcher) Match(actual any) (bool, error) {
	_, misses, err := m.evaluate(actual)
	return err == nil && len(misses) == 0, err
}

// FailureMessage lists the starts that missed a bound.
func (m startupMatcher) FailureMessage(actual any) string {
	starts, misses, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected each of the %d engine starts: %s\n%s", len(starts), m.bounds(), strings.Join(misses, "\n"))
}

// NegatedFailureMessage says that every start met the bounds.
func (m startupMatcher) NegatedFailureMessage(actual any) string {
	starts, _, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected some of the %d engine starts to miss: %s; none did", len(starts), m.bounds())
}

// String names the objective, for MeetSLOs and spec reports.
func (m startupMatcher) String() string { return "engine " + m.bounds() }

// bounds states the declared bounds.
func (m startupMatcher) bounds() string {
	var parts []string
	if m.ready > 0 {
		parts = append(parts, fmt.Sprintf("ready within %v", m.ready))
	}
	if m.firstToken > 0 {
		parts = append(parts, fmt.Sprintf("first token within %v", m.firstToken))
	}
	return strings.Join(parts, ", ")
}
