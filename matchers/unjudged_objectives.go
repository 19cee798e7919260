package matchers

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/report"
)

// MinRequestsPerValue is how many requests each value of a breakdown
// dimension must have been offered for Jain's index over their attainment
// to be judged (HaveJainIndexAtLeast). With fewer, one request moves a
// value's attainment by more than a tenth: over two values of one request
// each, a single failure takes the index from 1 to 1/2.
const MinRequestsPerValue = 10

// Unjudged reports a report without sessions to judge: a workload without
// conversations, or offered sessions all truncated by the run's deadline.
func (m sessionAttainmentMatcher) Unjudged(actual any) (string, bool) {
	return sessionsUnjudged("HaveSessionAttainmentAtLeast", actual, m.target)
}

// Unjudged reports a report without sessions to judge, as
// HaveSessionAttainmentAtLeast's.
func (m sessionWilsonMatcher) Unjudged(actual any) (string, bool) {
	return sessionsUnjudged("HaveSessionWilsonLowerBoundAbove", actual, m.bound)
}

// sessionsUnjudged is the reason a session objective (its bound valid) has
// no sessions to judge.
func sessionsUnjudged(who string, actual any, bound float64) (string, bool) {
	if fractionError(who, "a bound", bound) != nil {
		return "", false
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return "", false
	}
	switch s := r.Sessions; {
	case s == nil:
		return "the session attainment was not measured: the report has no sessions (the workload has no conversations)", true
	case s.Judged() <= 0 && s.Offered == 0:
		return "the session attainment was not measured: no session was offered", true
	case s.Judged() <= 0:
		return fmt.Sprintf("the session attainment was not measured: all %d offered sessions were truncated by the run's deadline", s.Offered), true
	}
	return "", false
}

// Unjudged reports a report without the engine's speculative-decoding
// counters, or one whose engine made no draft (no draft token, for the
// acceptance rate) over the measurement.
func (m acceptanceMatcher) Unjudged(actual any) (string, bool) {
	who, figure := m.names()
	if (m.length && m.target < 1) || (!m.length && fractionError(who, "a bound", m.target) != nil) {
		return "", false
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return "", false
	}
	sd := r.SpeculativeDecoding
	switch {
	case sd == nil && r.EngineMetrics == nil:
		return fmt.Sprintf("the %s was not measured: the run scraped no engine metrics (give it the engine's metrics URL)", figure), true
	case sd == nil:
		return fmt.Sprintf("the %s was not measured: the engine at %s exposes no speculative-decoding counter (vllm:spec_decode_num_drafts_total)",
			figure, r.EngineMetrics.URL), true
	case m.length && sd.MeanAcceptanceLength == nil, !m.length && sd.AcceptanceRate == nil:
		return fmt.Sprintf("the %s was not measured: the engine made %d drafts of %d tokens over the measurement", figure, sd.Drafts, sd.DraftTokens), true
	}
	return "", false
}

// Unjudged reports a dimension no request carried, fewer than two values
// of it, a value offered fewer than MinRequestsPerValue requests, or
// values none of which attained anything.
func (m jainMatcher) Unjudged(actual any) (string, bool) {
	const who = "HaveJainIndexAtLeast"
	if fractionError(who, "a bound", m.bound) != nil {
		return "", false
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return "", false
	}
	dim := r.Breakdown[m.dimension]
	if dim == nil {
		return fmt.Sprintf("Jain's index over %s was not measured: no request carried a %s", m.dimension, m.dimension), true
	}
	values := make([]string, 0, len(dim.Values))
	for v := range dim.Values {
		if v != report.BreakdownNone {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	if len(values) < 2 {
		return fmt.Sprintf("Jain's index over %s needs two values or more, and the requests carried %d (%s)", m.dimension, len(values), strings.Join(values, ", ")), true
	}
	var few []string
	for _, v := range values {
		if n := dim.Values[v].Offered; n < MinRequestsPerValue {
			few = append(few, fmt.Sprintf("%s %d", v, n))
		}
	}
	if len(few) > 0 {
		return fmt.Sprintf("Jain's index over %s needs at least %d offered requests for each value, and %d %s had fewer (%s)",
			m.dimension, MinRequestsPerValue, len(few), plural(len(few), "value", "values"), strings.Join(few, ", ")), true
	}
	if dim.Jain == nil {
		return fmt.Sprintf("Jain's index over %s is undefined: no value attained anything (%s)", m.dimension, attainments(dim)), true
	}
	return "", false
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
