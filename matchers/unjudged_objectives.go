package matchers

import (
	"fmt"
	"math"
	"strings"

	"github.com/servebench/servebench/servebench/report"
)

// MinRequestsPerValue is how many requests each value of a breakdown
// dimension must have been offered for Jain's index over their attainment
// to be judged (HaveJainIndexAtLeast; report.MinRequestsPerValue). With
// fewer, one request moves a value's attainment by more than a tenth: over
// two values of one request each, a single failure takes the index from 1
// to 1/2.
const MinRequestsPerValue = report.MinRequestsPerValue

// Unjudged reports a report without sessions to judge: a workload without
// conversations, or offered sessions all truncated by the run's deadline
// (report.Report.SessionAttainmentValue).
func (m sessionAttainmentMatcher) Unjudged(actual any) (string, bool) {
	return unjudgedBy("HaveSessionAttainmentAtLeast", actual, fractionError("", "", m.target) == nil, (*report.Report).SessionAttainmentValue)
}

// Unjudged reports a report without sessions to judge, as
// HaveSessionAttainmentAtLeast's.
func (m sessionWilsonMatcher) Unjudged(actual any) (string, bool) {
	return unjudgedBy("HaveSessionWilsonLowerBoundAbove", actual, fractionError("", "", m.bound) == nil, (*report.Report).SessionWilsonLowerValue)
}

// Unjudged reports a report without the engine's speculative-decoding
// counters, or one whose engine made no draft (no draft token, for the
// acceptance rate) over the measurement (report.Report.SpeculativeValue).
func (m acceptanceMatcher) Unjudged(actual any) (string, bool) {
	who, _ := m.names()
	valid := (m.length && m.target >= 1) || (!m.length && fractionError(who, "", m.target) == nil)
	return unjudgedBy(who, actual, valid, func(r *report.Report) (float64, string, bool) { return r.SpeculativeValue(m.length) })
}

// Unjudged reports a dimension no request carried, fewer than two values
// of it, a value offered fewer than MinRequestsPerValue requests, or
// values none of which attained anything (report.Report.JainValue).
func (m jainMatcher) Unjudged(actual any) (string, bool) {
	return unjudgedBy("HaveJainIndexAtLeast", actual, fractionError("", "", m.bound) == nil,
		func(r *report.Report) (float64, string, bool) { return r.JainValue(m.dimension) })
}

// unjudgedBy asks value why actual's report has no figure to judge; a
// matcher whose own bound is not valid (valid false) or whose actual is
// no report is left to Match's error.
func unjudgedBy(who string, actual any, valid bool, value func(*report.Report) (float64, string, bool)) (string, bool) {
	r, err := reportFrom(who, actual)
	if err != nil || !valid {
		return "", false
	}
	_, why, ok := value(r)
	return why, !ok
}

// Unjudged reports a drift analysis with too few intervals to judge.
func (m driftMatcher) Unjudged(actual any) (string, bool) {
	r, err := reportFrom("HaveNoDrift", actual)
	if err != nil || math.IsNaN(m.maxGrowth) || math.IsInf(m.maxGrowth, 0) || m.maxGrowth < 0 || r.Drift == nil || r.Drift.Judged {
		return "", false
	}
	return "the drift was not measured: " + r.Drift.Note, true
}

// Unjudged reports a run in which no window held both a critical and a
// sheddable request.
func (m shedOrderMatcher) Unjudged(actual any) (string, bool) {
	r, err := reportFrom("HaveNoShedOrderViolations", actual)
	if err != nil || r.ShedOrder == nil || r.ShedOrder.Windows > 0 {
		return "", false
	}
	_, err = m.evaluate(actual)
	return "the shed order was not measured: " + strings.TrimPrefix(err.Error(), "HaveNoShedOrderViolations: "), true
}

// Unjudged reports a recovery with nothing to bound it (no TTFT SLO and no
// steady phase with a p99 TTFT) or with no window of requests after the
// burst to measure it on.
func (m recoveryMatcher) Unjudged(actual any) (string, bool) {
	if m.within <= 0 {
		return "", false
	}
	r, err := reportFrom("HaveRecoveredWithin", actual)
	if err != nil || r.Recovery == nil {
		return "", false
	}
	switch rec := r.Recovery; {
	case rec.BoundMS == nil:
		return "the recovery was not measured: " + rec.Reason, true
	case !rec.Recovered && rec.Windows == 0:
		return fmt.Sprintf("the recovery was not measured: fewer than %d requests were scheduled after the burst, so no window had a p99 TTFT", rec.WindowRequests), true
	}
	return "", false
}

// Unjudged reports a run without the expected prefix reuse: no request
// reported cached_tokens, or the workload's rows declare no reusable
// tokens.
func (m prefixReuseMatcher) Unjudged(actual any) (string, bool) {
	const who = "HavePrefixReuseAchievedAtLeast"
	r, err := reportFrom(who, actual)
	if err != nil || fractionError(who, "a reuse target", m.target) != nil {
		return "", false
	}
	if pc := r.PrefixCache; pc != nil && pc.ReuseAchieved != nil {
		return "", false
	}
	_, _, err = m.evaluate(actual)
	return "the prefix reuse achieved was not measured: " + strings.TrimPrefix(err.Error(), who+" cannot judge a report without expected prefix reuse: "), true
}
