package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// passOrFail is the heading's word for an exit code.
func passOrFail(code int) string {
	if code == 0 {
		return "pass"
	}
	return "fail"
}

// runStepSummary is run's markdown verdict: a heading with the exit code,
// then a row per gate: the valid load, --require-attainment (when given)
// and each threshold.
func runStepSummary(r *report.Report, requireAttainment float64, vs []threshold.Verdict, code int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### servebench run: %s (exit %d)\n\n", passOrFail(code), code)
	rows := []stepsummary.ObjectiveRow{validLoadRow(r)}
	if requireAttainment >= 0 {
		rows = append(rows, attainmentRow(r, requireAttainment))
	}
	for _, v := range vs {
		rows = append(rows, thresholdRow(v, ""))
	}
	b.WriteString(stepsummary.Objectives(rows))
	b.WriteString("\n")
	return b.String()
}

// validLoadRow is whether the run delivered its load.
func validLoadRow(r *report.Report) stepsummary.ObjectiveRow {
	row := stepsummary.ObjectiveRow{Objective: "valid load", Bound: "delivered", Measured: fmt.Sprintf("%d offered, %d late", r.Offered, r.LateCount), Verdict: "pass"}
	if !r.Valid {
		row.Verdict, row.Measured = "fail", strings.Join(r.InvalidReasons, "; ")
	}
	return row
}

// attainmentRow is --require-attainment's row.
func attainmentRow(r *report.Report, required float64) stepsummary.ObjectiveRow {
	row := stepsummary.ObjectiveRow{Objective: "attainment", Bound: fmt.Sprintf(">= %.3f", required), Measured: "undefined", Verdict: "fail"}
	if r.Attainment != nil {
		row.Measured = fmt.Sprintf("%.3f (%d of %d)", *r.Attainment, r.Qualified, r.Offered)
		if *r.Attainment >= required {
			row.Verdict = "pass"
		}
	}
	return row
}

// thresholdRow is one threshold's row; where names the judged point of a
// sweep.
func thresholdRow(v threshold.Verdict, where string) stepsummary.ObjectiveRow {
	stat, bound := v.Expression, ""
	for _, op := range []string{"<=", ">=", "<", ">"} {
		if i := strings.Index(v.Expression, op); i > 0 {
			stat, bound = strings.TrimSpace(v.Expression[:i]), op+" "+strings.TrimSpace(v.Expression[i+len(op):])
			break
		}
	}
	measured := "no value: " + v.Detail
	if v.Measured != nil {
		measured = numfmt.Compact(*v.Measured)
		if v.Unit == "ms" {
			measured = numfmt.MS(*v.Measured)
		} else if v.Unit == "req/s" {
			measured += " req/s"
		}
		measured += " (" + v.Detail + ")"
	}
	return stepsummary.ObjectiveRow{Objective: stat, Where: where, Measured: measured, Bound: bound, Verdict: string(v.Outcome)}
}

// sweepStepSummary is sweep's markdown verdict: the heading with the
// selected point and exit code, a row per tested point (its attainment
// against the rule's), then the thresholds judged at the selected point.
func sweepStepSummary(sw *capacity.Sweep, judged []threshold.Judgment, code int) string {
	var b strings.Builder
	answer := "no tested point passed"
	if sw.Selection.RPS != nil {
		answer = fmt.Sprintf("%s %g req/s", sw.Selection.Label, *sw.Selection.RPS)
	}
	fmt.Fprintf(&b, "### servebench sweep: %s (exit %d)\n\n", answer, code)
	alpha := sw.Rule.MinAttainment
	if alpha == 0 {
		alpha = 0.95
	}
	var rows []stepsummary.ObjectiveRow
	for _, v := range sw.Selection.Verdicts {
		where := fmt.Sprintf("%g req/s", v.OfferedRPS)
		if v.Users > 0 {
			where = fmt.Sprintf("%d users", v.Users)
		}
		measured := "undefined"
		value := v.Attainment
		if v.Judged == "wilson_lower" {
			value = v.WilsonLower
		}
		if value != nil {
			measured = fmt.Sprintf("%.3f", *value)
		}
		rows = append(rows, stepsummary.ObjectiveRow{Objective: v.Judged, Where: where, Measured: measured,
			Bound: fmt.Sprintf(">= %.3f", alpha), Verdict: v.Verdict})
	}
	for _, j := range judged {
		where := j.RunDir
		for _, v := range j.Verdicts {
			rows = append(rows, thresholdRow(v, where))
		}
	}
	b.WriteString(stepsummary.Objectives(rows))
	b.WriteString("\n")
	return b.String()
}

// comparisonStepSummary is ab's and compare's markdown verdict: the
// heading with the verdict and exit code, a row per statistic, then each
// statistic's advice where the comparison gives one.
func comparisonStepSummary(command string, c *compare.Comparison, code int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### servebench %s: %s (exit %d)\n\n", command, c.Verdict, code)
	rows := make([]stepsummary.ComparisonRow, len(c.Comparisons))
	for i, m := range c.Comparisons {
		rows[i] = stepsummary.ComparisonRow{Statistic: m.Name, Baseline: comparisonValue(m, m.Baseline), Candidate: comparisonValue(m, m.Candidate),
			Change: comparisonChange(m, m.Change), Tolerance: comparisonTolerance(m), Verdict: string(m.Verdict)}
		if !math.IsNaN(m.CILow) && !math.IsNaN(m.CIHigh) {
			rows[i].Interval = fmt.Sprintf("[%s, %s]", comparisonChange(m, m.CILow), comparisonChange(m, m.CIHigh))
		}
	}
	b.WriteString(stepsummary.Comparisons(rows))
	b.WriteString("\n")
	for _, m := range c.Comparisons {
		if m.Decide != "" {
			fmt.Fprintf(&b, "- %s: %s\n", m.Name, stepsummary.Cell(m.Decide))
		}
	}
	return b.String()
}

// comparisonValue prints a compared value in its unit.
func comparisonValue(m compare.MetricComparison, v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "+inf"
	case m.Unit == "fraction":
		return fmt.Sprintf("%.4f", v)
	case m.Unit == "rps":
		return fmt.Sprintf("%.3f/s", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

// comparisonChange prints a change: a percentage for a relative
// comparison, points for an absolute one.
func comparisonChange(m compare.MetricComparison, v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 0):
		return fmt.Sprintf("%+.0f", v)
	case m.Kind == compare.KindRelative:
		return fmt.Sprintf("%+.2f%%", 100*v)
	}
	return fmt.Sprintf("%+.2f pt", 100*v)
}

// comparisonTolerance prints the tolerance in the comparison's terms.
func comparisonTolerance(m compare.MetricComparison) string {
	pct := math.Round(100*m.Tolerance*1e9) / 1e9
	if m.Kind == compare.KindRelative {
		return fmt.Sprintf("%g%%", pct)
	}
	return fmt.Sprintf("%g pt", pct)
}
