// Package threshold is the command line's gate on a run: k6-style
// expressions such as ttft_p99<=500ms, attainment>=0.95 or
// error_rate<=0.01 (Parse), each judged on a run's report (Judge) as a
// pass, a fail or unjudged when the report holds no measurement of it.
//
// A latency threshold names a population by the metric names of a
// contract's percentile objectives (report.MetricNames: ttft, tpot, itl,
// e2e, …) and a percentile in (0, 100] (ttft_p99, e2e_p99.9; p100 is the
// maximum), and bounds it by a duration (500ms, 2s, 800us). It is read with
// report.Report.Percentile, so it answers what a percentile objective
// answers, and a percentile with fewer than report.MinObservationsBeyond
// observations beyond it is unjudged, as a percentile objective is. A ratio
// threshold names one of the report's rates (RatioNames: attainment,
// wilson_lower, error_rate, qualified_rate, session_attainment,
// session_wilson_lower, acceptance_rate, mean_acceptance_length,
// jain_DIMENSION) and bounds it by a plain number; one the run did not
// measure (no sessions, no speculative-decoding counters, a single tenant)
// is unjudged, with what is missing.
package threshold

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Op is a threshold's comparison.
type Op string

// The comparisons a threshold may use.
const (
	Less         Op = "<"
	AtMost       Op = "<="
	Greater      Op = ">"
	AtLeast      Op = ">="
	opCharacters    = "<>=!"
)

// holds reports whether measured op bound is true.
func (op Op) holds(measured, bound float64) bool {
	switch op {
	case Less:
		return measured < bound
	case AtMost:
		return measured <= bound
	case Greater:
		return measured > bound
	default:
		return measured >= bound
	}
}

// Threshold is one parsed expression: a statistic of a run's report, a
// comparison and a bound.
type Threshold struct {
	// Expr is the expression as given, spaces trimmed.
	Expr string
	// Statistic is the name left of the comparison: "ttft_p99",
	// "attainment".
	Statistic string
	// Metric and P are the population and percentile of a latency
	// threshold; Metric is empty for a ratio threshold.
	Metric record.Metric
	P      float64
	// Op is the comparison.
	Op Op
	// Bound is in milliseconds for a latency threshold, in the ratio's own
	// unit otherwise.
	Bound float64
}

// Latency reports whether the threshold bounds a latency percentile.
func (t Threshold) Latency() bool { return t.Metric != "" }

// Parse reads one expression, STATISTIC OP BOUND: ttft_p99<=500ms,
// e2e_p90<2s, attainment>=0.95. Spaces around the parts are allowed. Its
// error says what is wrong, without repeating the expression.
func Parse(expr string) (Threshold, error) {
	t := Threshold{Expr: strings.TrimSpace(expr)}
	at := strings.IndexAny(t.Expr, opCharacters)
	if at < 0 {
		return t, errors.New("no comparison: want STATISTIC OP BOUND with OP one of <, <=, >, >= (e.g. ttft_p99<=500ms)")
	}
	end := at
	for end < len(t.Expr) && strings.IndexByte(opCharacters, t.Expr[end]) >= 0 {
		end++
	}
	t.Op = Op(t.Expr[at:end])
	switch t.Op {
	case Less, AtMost, Greater, AtLeast:
	default:
		return t, fmt.Errorf("unknown comparison %q (want <, <=, > or >=)", t.Op)
	}
	t.Statistic = strings.TrimSpace(t.Expr[:at])
	bound := strings.TrimSpace(t.Expr[end:])
	switch {
	case t.Statistic == "":
		return t, fmt.Errorf("no statistic before %q (e.g. ttft_p99, attainment)", t.Op)
	case bound == "":
		return t, fmt.Errorf("no bound after %q", t.Op)
	}
	if dimension, jainOf := strings.CutPrefix(t.Statistic, jainPrefix); jainOf && !slices.Contains(report.BreakdownDimensions(), dimension) {
		return t, fmt.Errorf("%q names no breakdown dimension: want %sDIMENSION with DIMENSION one of %s (e.g. jain_tenant)",
			t.Statistic, jainPrefix, strings.Join(report.BreakdownDimensions(), ", "))
	}
	if r, ok := ratioNamed(t.Statistic); ok {
		v, err := r.bound(bound)
		t.Bound = v
		return t, err
	}
	if err := t.parsePercentile(); err != nil {
		return t, err
	}
	v, err := latencyBound(bound)
	t.Bound = v
	return t, err
}

// parsePercentile reads a latency statistic, METRIC_pP, into Metric and P.
func (t *Threshold) parsePercentile() error {
	name, level, found := cutLast(t.Statistic, "_p")
	metric, known := report.MetricNamed(name)
	if !found || !known {
		if m, ok := report.MetricNamed(t.Statistic); ok {
			return fmt.Errorf("%q names no percentile: write %s_p50, %s_p99, …", t.Statistic, trimMS(m), trimMS(m))
		}
		return fmt.Errorf("unknown statistic %q (want %s, or METRIC_pP with METRIC one of %s and P a percentile, e.g. ttft_p99)",
			t.Statistic, strings.Join(RatioNames(), ", "), strings.Join(report.MetricNames(), ", "))
	}
	p, err := strconv.ParseFloat(level, 64)
	if err != nil || math.IsNaN(p) || p <= 0 || p > 100 {
		return fmt.Errorf("the percentile %q of %q is not a number in (0, 100] (e.g. p99, p99.9)", "p"+level, t.Statistic)
	}
	t.Metric, t.P = metric, p
	return nil
}

// latencyBound reads a duration bound into milliseconds.
func latencyBound(s string) (float64, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("the bound %q is not a duration (e.g. 500ms)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("the bound %q is negative", s)
	}
	return float64(d) / float64(time.Millisecond), nil
}

// cutLast splits s around the last instance of sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// trimMS is a metric's short name: "ttft" for ttft_ms.
func trimMS(m record.Metric) string { return strings.TrimSuffix(string(m), "_ms") }
