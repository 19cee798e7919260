package matchers

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveRecoveredWithin succeeds when a phased run recovered within d of the
// end of its first burst phase: report.json's recovery_ms, the start of the
// first window of 100 requests after the burst whose p99 TTFT is within
// the TTFT SLO (else 1.1 × the steady phase's p99), is at most d.
//
//	Expect(report).To(matchers.HaveRecoveredWithin(30 * time.Second))
//
// A run that never recovered fails, saying why. A d that is not positive,
// a report without a burst phase, and one with nothing to bound the
// recovery by are errors, never a verdict.
func HaveRecoveredWithin(d time.Duration) types.GomegaMatcher {
	return recoveryMatcher{within: d}
}

// recoveryMatcher holds only its expectation; see HaveRecoveredWithin.
type recoveryMatcher struct{ within time.Duration }

// evaluate returns the report's recovery.
func (m recoveryMatcher) evaluate(actual any) (*report.Report, error) {
	const who = "HaveRecoveredWithin"
	if m.within <= 0 {
		return nil, fmt.Errorf("%s needs a positive duration, got %v", who, m.within)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Recovery == nil:
		return nil, fmt.Errorf("%s: the report has no recovery: the run's arrival plan has no phase named %s (--phases)", who, report.RecoveryBurstPhase)
	case r.Recovery.BoundMS == nil:
		return nil, fmt.Errorf("%s: %s", who, r.Recovery.Reason)
	}
	return r, nil
}

// Match reports whether the run recovered within the bound.
func (m recoveryMatcher) Match(actual any) (bool, error) {
	r, err := m.evaluate(actual)
	if err != nil {
		return false, err
	}
	return r.RecoveryMS != nil && *r.RecoveryMS <= record.Millis(m.within), nil
}

// FailureMessage explains why the run did not recover in time.
func (m recoveryMatcher) FailureMessage(actual any) string { return m.message(actual, "to be at most") }

// NegatedFailureMessage explains why it did.
func (m recoveryMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at most")
}

// message states the recovery time, or why there is none, against the
// bound.
func (m recoveryMatcher) message(actual any, relation string) string {
	r, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	if r.RecoveryMS == nil {
		return fmt.Sprintf("Expected a recovery within %v after the burst, but it did not recover: %s", m.within, r.Recovery.Reason)
	}
	return fmt.Sprintf("Expected recovery %s ms after the burst (p99 TTFT within %s ms, %s) %s %s ms", numfmt.Compact(*r.RecoveryMS),
		numfmt.Compact(*r.Recovery.BoundMS), r.Recovery.Bound, relation, numfmt.Compact(record.Millis(m.within)))
}

// String names the objective, for MeetSLOs and spec reports.
func (m recoveryMatcher) String() string {
	return fmt.Sprintf("recovery after the burst <= %v", m.within)
}

// Measured states the recovery time: "2000 ms", or "none".
func (m recoveryMatcher) Measured(actual any) (string, error) {
	r, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	if r.RecoveryMS == nil {
		return "none", nil
	}
	return numfmt.Compact(*r.RecoveryMS) + " ms", nil
}
