package threshold

import (
	"fmt"
	"math"
	"strconv"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// ratio is a statistic of the report that is a plain number.
type ratio struct {
	// fraction is true for a share in [0, 1], false for a rate in req/s.
	fraction bool
	// measure reads the statistic; ok is false, with the reason, when the
	// report holds none.
	measure func(r *report.Report) (value float64, detail string, ok bool)
}

// ratios are the ratio statistics by name, the names of a contract's
// objectives of the same meaning.
var ratios = map[string]ratio{
	"attainment":     {fraction: true, measure: attainment},
	"wilson_lower":   {fraction: true, measure: wilsonLower},
	"error_rate":     {fraction: true, measure: errorRate},
	"qualified_rate": {fraction: false, measure: qualifiedRate},
}

// ratioOrder is the order RatioNames lists them in.
var ratioOrder = [...]string{"attainment", "wilson_lower", "error_rate", "qualified_rate"}

// RatioNames lists the ratio statistics a threshold may name: attainment
// (qualified of offered), wilson_lower (its one-sided Wilson lower bound at
// the report's confidence, 95% unless the run said otherwise), error_rate
// (offered requests that did not end in protocol success, of offered) and
// qualified_rate (qualified requests per second over the horizon).
func RatioNames() []string { return append([]string(nil), ratioOrder[:]...) }

// bound reads a ratio's bound: a number, in [0, 1] for a fraction and at
// least 0 for a rate.
func (r ratio) bound(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		if r.fraction {
			return 0, fmt.Errorf("the bound %q is not a number (e.g. 0.95)", s)
		}
		return 0, fmt.Errorf("the bound %q is not a number of requests per second (e.g. 10)", s)
	}
	switch {
	case r.fraction && (v < 0 || v > 1):
		return 0, fmt.Errorf("the bound %s is not a fraction in [0, 1]", s)
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
