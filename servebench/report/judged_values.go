package report

import (
	"fmt"
	"slices"
	"strings"
)

// MinRequestsPerValue is how many requests each value of a breakdown
// dimension must have been offered for Jain's index over their attainment
// to be judged. With fewer, one request moves a value's attainment by more
// than a tenth: over two values of one request each, a single failure
// takes the index from 1 to 1/2.
const MinRequestsPerValue = 10

// SessionAttainmentValue is the session attainment (Sessions.Attainment),
// or, when ok is false, why the report has none: no sessions (the workload
// has no conversations), none offered, or every one truncated.
func (r *Report) SessionAttainmentValue() (value float64, why string, ok bool) {
	if why, ok := r.sessionsMissing(); !ok {
		return 0, why, false
	}
	return float64(r.Sessions.Qualified) / float64(r.Sessions.Judged()), "", true
}

// SessionWilsonLowerValue is the session attainment's Wilson lower bound,
// or why the report has none (SessionAttainmentValue's reasons).
func (r *Report) SessionWilsonLowerValue() (value float64, why string, ok bool) {
	if why, ok := r.sessionsMissing(); !ok {
		return 0, why, false
	}
	if r.Sessions.WilsonLower == nil {
		return 0, "the session attainment has no Wilson lower bound", false
	}
	return *r.Sessions.WilsonLower, "", true
}

// sessionsMissing says why the report has no sessions to judge; ok when
// it has some.
func (r *Report) sessionsMissing() (why string, ok bool) {
	switch s := r.Sessions; {
	case s == nil:
		return "the session attainment was not measured: the report has no sessions (the workload has no conversations)", false
	case s.Judged() <= 0 && s.Offered == 0:
		return "the session attainment was not measured: no session was offered", false
	case s.Judged() <= 0:
		return fmt.Sprintf("the session attainment was not measured: all %d offered sessions were truncated by the run's deadline", s.Offered), false
	}
	return "", true
}

// SpeculativeValue is the mean acceptance length (length) or the
// acceptance rate of the engine's speculative decoding, or why the report
// has none: no engine metrics scraped, no speculative-decoding counter,
// no draft.
func (r *Report) SpeculativeValue(length bool) (value float64, why string, ok bool) {
	figure := "acceptance rate"
	if length {
		figure = "mean acceptance length"
	}
	sd := r.SpeculativeDecoding
	switch {
	case sd == nil && r.EngineMetrics == nil:
		return 0, fmt.Sprintf("the %s was not measured: the run scraped no engine metrics (give it the engine's metrics URL)", figure), false
	case sd == nil:
		return 0, fmt.Sprintf("the %s was not measured: the engine at %s exposes no speculative-decoding counter (%s)",
			figure, r.EngineMetrics.URL, vllmSpecDrafts), false
	}
	v := sd.AcceptanceRate
	if length {
		v = sd.MeanAcceptanceLength
	}
	if v == nil {
		return 0, fmt.Sprintf("the %s was not measured: the engine made %d drafts of %d tokens over the measurement", figure, sd.Drafts, sd.DraftTokens), false
	}
	return *v, "", true
}

// JainValue is Jain's index over the attainment of the values of
// dimension, or why it cannot be judged: no request carried the
// dimension, fewer than two values, a value offered fewer than
// MinRequestsPerValue requests, or no value attained anything.
func (r *Report) JainValue(dimension string) (value float64, why string, ok bool) {
	dim := r.Breakdown[dimension]
	if dim == nil {
		return 0, fmt.Sprintf("Jain's index over %s was not measured: no request carried a %s", dimension, dimension), false
	}
	values := make([]string, 0, len(dim.Values))
	for v := range dim.Values {
		if v != BreakdownNone {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	if len(values) < 2 {
		return 0, fmt.Sprintf("Jain's index over %s needs two values or more, and the requests carried %d (%s)", dimension, len(values), strings.Join(values, ", ")), false
	}
	var few []string
	for _, v := range values {
		if n := dim.Values[v].Offered; n < MinRequestsPerValue {
			few = append(few, fmt.Sprintf("%s %d", v, n))
		}
	}
	if len(few) > 0 {
		what := "values"
		if len(few) == 1 {
			what = "value"
		}
		return 0, fmt.Sprintf("Jain's index over %s needs at least %d offered requests for each value, and %d %s had fewer (%s)",
			dimension, MinRequestsPerValue, len(few), what, strings.Join(few, ", ")), false
	}
	if dim.Jain == nil {
		parts := make([]string, len(values))
		for i, v := range values {
			parts[i] = fmt.Sprintf("%s %d of %d", v, dim.Values[v].Qualified, dim.Values[v].Offered)
		}
		return 0, fmt.Sprintf("Jain's index over %s is undefined: no value attained anything (%s)", dimension, strings.Join(parts, ", ")), false
	}
	return *dim.Jain, "", true
}
