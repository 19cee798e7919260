package threshold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// The units of a ratio statistic, as Verdict.Unit names them.
const (
	unitFraction = "fraction"
	unitRate     = "req/s"
	unitTokens   = "tokens"
	unitIndex    = "index"
)

// ratio is a statistic of the report that is a plain number.
type ratio struct {
	// unit is a share in [0, 1] ("fraction"), Jain's index in [0, 1]
	// ("index"), a rate in req/s, or a number of tokens of at least 1.
	unit string
	// measure reads the statistic; ok is false, with the reason, when the
	// report holds none.
	measure func(r *report.Report) (value float64, detail string, ok bool)
}

// ratios are the ratio statistics by name, the names of a contract's
// objectives of the same meaning; Jain's index is jainPrefix and a
// dimension (ratioNamed).
var ratios = map[string]ratio{
	"attainment":             {unit: unitFraction, measure: attainment},
	"wilson_lower":           {unit: unitFraction, measure: wilsonLower},
	"error_rate":             {unit: unitFraction, measure: errorRate},
	"qualified_rate":         {unit: unitRate, measure: qualifiedRate},
	"session_attainment":     {unit: unitFraction, measure: sessionAttainment},
	"session_wilson_lower":   {unit: unitFraction, measure: sessionWilsonLower},
	"acceptance_rate":        {unit: unitFraction, measure: acceptanceRate},
	"mean_acceptance_length": {unit: unitTokens, measure: meanAcceptanceLength},
}

// ratioOrder is the order RatioNames lists them in.
var ratioOrder = [...]string{"attainment", "wilson_lower", "error_rate", "qualified_rate",
	"session_attainment", "session_wilson_lower", "acceptance_rate", "mean_acceptance_length"}

// jainPrefix starts the name of Jain's index over a breakdown dimension's
// values: jain_tenant.
const jainPrefix = "jain_"

// RatioNames lists the ratio statistics a threshold may name: attainment
// (qualified of offered), wilson_lower (its one-sided Wilson lower bound at
// the report's confidence, 95% unless the run said otherwise), error_rate
// (offered requests that did not end in protocol success, of offered),
// qualified_rate (qualified requests per second over the horizon),
// session_attainment and session_wilson_lower (the sessions whose every
// turn qualified, of those not truncated, and its Wilson bound),
// acceptance_rate and mean_acceptance_length (the engine's speculative
// decoding: accepted of draft tokens, and 1 + accepted tokens / drafts),
// and jain_DIMENSION (Jain's index over the attainment of a breakdown
// dimension's values, e.g. jain_tenant).
func RatioNames() []string {
	return append(append([]string(nil), ratioOrder[:]...), jainPrefix+"DIMENSION")
}

// ratioNamed is the ratio statistic called name; ok is false for none.
func ratioNamed(name string) (ratio, bool) {
	if r, ok := ratios[name]; ok {
		return r, true
	}
	dimension, found := strings.CutPrefix(name, jainPrefix)
	if !found || !slices.Contains(report.BreakdownDimensions(), dimension) {
		return ratio{}, false
	}
	return ratio{unit: unitIndex, measure: func(r *report.Report) (float64, string, bool) { return jain(r, dimension) }}, true
}

// bound reads a ratio's bound: a number, in [0, 1] for a fraction or an
// index, at least 1 for tokens and at least 0 for a rate.
func (r ratio) bound(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		switch r.unit {
		case unitRate:
			return 0, fmt.Errorf("the bound %q is not a number of requests per second (e.g. 10)", s)
		case unitTokens:
			return 0, fmt.Errorf("the bound %q is not a number of tokens (e.g. 2.5)", s)
		}
		return 0, fmt.Errorf("the bound %q is not a number (e.g. 0.95)", s)
	}
	switch {
	case (r.unit == unitFraction || r.unit == unitIndex) && (v < 0 || v > 1):
		return 0, fmt.Errorf("the bound %s is not a fraction in [0, 1]", s)
	case r.unit == unitTokens && v < 1:
		return 0, fmt.Errorf("the bound %s is below 1: a mean acceptance length counts the target model's own token", s)
	case v < 0:
		return 0, fmt.Errorf("the bound %s is negative", s)
	}
	return v, nil
}

// attainment is qualified of offered.
func attainment(r *report.Report) (float64, string, bool) {
	if r.Attainment == nil {
		return 0, "nothing was offered", false
	}
	return *r.Attainment, fmt.Sprintf("%d of %d offered qualified", r.Qualified, r.Offered), true
}

// wilsonLower is the report's Wilson lower bound of attainment.
func wilsonLower(r *report.Report) (float64, string, bool) {
	if r.WilsonLower == nil {
		return 0, "nothing was offered", false
	}
	return *r.WilsonLower, fmt.Sprintf("%s confidence, %d of %d offered qualified", numfmt.Level(r.WilsonConfidence), r.Qualified, r.Offered), true
}

// errorRate is report.Report.ErrorRate.
func errorRate(r *report.Report) (float64, string, bool) {
	rate, errs, ok := r.ErrorRate()
	if !ok {
		return 0, "nothing was offered", false
	}
	return rate, fmt.Sprintf("%d of %d offered did not succeed", errs, r.Offered), true
}

// qualifiedRate is the report's qualified requests per second.
func qualifiedRate(r *report.Report) (float64, string, bool) {
	if r.QualifiedRPS == nil {
		return 0, "the run has no horizon to divide by", false
	}
	return *r.QualifiedRPS, fmt.Sprintf("%d qualified, req/s over the horizon", r.Qualified), true
}

// sessionAttainment is report.Report.SessionAttainmentValue.
func sessionAttainment(r *report.Report) (float64, string, bool) {
	v, why, ok := r.SessionAttainmentValue()
	if !ok {
		return 0, why, false
	}
	return v, sessionCounts(r.Sessions), true
}

// sessionWilsonLower is report.Report.SessionWilsonLowerValue.
func sessionWilsonLower(r *report.Report) (float64, string, bool) {
	v, why, ok := r.SessionWilsonLowerValue()
	if !ok {
		return 0, why, false
	}
	return v, numfmt.Level(r.WilsonConfidence) + " confidence, " + sessionCounts(r.Sessions), true
}

// sessionCounts says what a session figure was measured over.
func sessionCounts(s *report.Sessions) string {
	return fmt.Sprintf("%d of %d sessions qualified, %d truncated", s.Qualified, s.Judged(), s.Truncated)
}

// acceptanceRate is the speculative decoding's accepted of draft tokens.
func acceptanceRate(r *report.Report) (float64, string, bool) {
	v, why, ok := r.SpeculativeValue(false)
	if !ok {
		return 0, why, false
	}
	sd := r.SpeculativeDecoding
	return v, fmt.Sprintf("%d accepted of %d draft tokens", sd.AcceptedTokens, sd.DraftTokens), true
}

// meanAcceptanceLength is 1 + accepted tokens / drafts.
func meanAcceptanceLength(r *report.Report) (float64, string, bool) {
	v, why, ok := r.SpeculativeValue(true)
	if !ok {
		return 0, why, false
	}
	sd := r.SpeculativeDecoding
	return v, fmt.Sprintf("1 + %d accepted tokens / %d drafts", sd.AcceptedTokens, sd.Drafts), true
}

// jain is Jain's index over the attainment of dimension's values.
func jain(r *report.Report, dimension string) (float64, string, bool) {
	v, why, ok := r.JainValue(dimension)
	if !ok {
		return 0, why, false
	}
	n := len(r.Breakdown[dimension].Values)
	if _, none := r.Breakdown[dimension].Values[report.BreakdownNone]; none {
		n--
	}
	return v, fmt.Sprintf("over the attainment of %d values of %s", n, dimension), true
}
