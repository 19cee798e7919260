package threshold

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// Outcome is a threshold's verdict on one report.
type Outcome string

// The outcomes. A threshold whose statistic the report does not hold (an
// empty population, such as ITL when no event was proven to carry one
// token; a percentile below p100 with fewer than
// report.MinObservationsBeyond observations above it; nothing offered) is
// Unjudged: neither a pass nor a failure, and a failure of the gate only
// when the gate says so (Passes).
const (
	Pass     Outcome = "pass"
	Fail     Outcome = "fail"
	Unjudged Outcome = "unjudged"
)

// Verdict is one threshold's judgment of one report, as thresholds.json
// holds it.
type Verdict struct {
	// Expression is the threshold as given.
	Expression string `json:"expression"`
	// Outcome is pass, fail or unjudged.
	Outcome Outcome `json:"verdict"`
	// Measured is the statistic's value, in milliseconds for a latency
	// threshold and in the ratio's unit otherwise; nil when unjudged.
	Measured *float64 `json:"measured"`
	// Unit is the unit of Measured and of the bound: "ms", "fraction" or
	// "req/s".
	Unit string `json:"unit"`
	// Bound is the threshold's bound in Unit.
	Bound float64 `json:"bound"`
	// Detail says what was measured: the population and its size, or the
	// counts behind a ratio; when unjudged, why no value was measured.
	Detail string `json:"detail"`
}

// Passed reports whether the verdict passes the gate.
func (v Verdict) Passed() bool { return v.Outcome == Pass }

// Line is the verdict's one line for people, the same wherever it is
// shown: "PASS ttft_p99<=500ms: measured 85.2 ms (p99 over 120 successful
// requests)", "UNJUDGED itl_p99<=20ms: no value (…)".
func (v Verdict) Line() string {
	outcome := strings.ToUpper(string(v.Outcome))
	if v.Measured == nil {
		return fmt.Sprintf("%s %s: no value (%s)", outcome, v.Expression, v.Detail)
	}
	value := numfmt.Compact(*v.Measured)
	if v.Unit == "ms" {
		value = numfmt.MS(*v.Measured)
	} else if v.Unit == "req/s" {
		value += " req/s"
	}
	return fmt.Sprintf("%s %s: measured %s (%s)", outcome, v.Expression, value, v.Detail)
}

// Judge judges the threshold on r. A latency percentile is read with
// report.Report.Percentile, over the metric's own population.
func (t Threshold) Judge(r *report.Report) Verdict {
	v := Verdict{Expression: t.Expr, Outcome: Unjudged, Bound: t.Bound, Unit: t.unit()}
	if r == nil {
		v.Detail = "no report"
		return v
	}
	var value float64
	if t.Latency() {
		measured, n, population, err := r.Percentile(t.Metric, t.P)
		if err != nil {
			v.Detail = err.Error()
			return v
		}
		level := "p" + strings.TrimPrefix(report.PercentileKey(t.P), "p")
		if !report.Judgeable(n, t.P) {
			v.Detail = fmt.Sprintf("%s needs at least %d observations for %d to lie beyond it, and its population has %d (%s)",
				level, report.ObservationsNeeded(t.P), report.MinObservationsBeyond, n, population)
			return v
		}
		value = measured
		v.Detail = fmt.Sprintf("%s over %s, n = %d", level, population, n)
	} else {
		rt, _ := ratioNamed(t.Statistic)
		measured, detail, ok := rt.measure(r)
		v.Detail = detail
		if !ok {
			return v
		}
		value = measured
	}
	v.Measured = &value
	v.Outcome = Fail
	if t.Op.holds(value, t.Bound) {
		v.Outcome = Pass
	}
	return v
}

// unit is the unit of the threshold's statistic.
func (t Threshold) unit() string {
	if t.Latency() {
		return "ms"
	}
	rt, _ := ratioNamed(t.Statistic)
	return rt.unit
}

// JudgeAll judges every threshold on r, in order.
func JudgeAll(ts []Threshold, r *report.Report) []Verdict {
	out := make([]Verdict, len(ts))
	for i, t := range ts {
		out[i] = t.Judge(r)
	}
	return out
}

// Passes reports whether the verdicts pass the gate: none fails, and,
// when unjudgedFails (the command's --unjudged fail), none is unjudged.
func Passes(vs []Verdict, unjudgedFails bool) bool {
	for _, v := range vs {
		if v.Outcome == Fail || (v.Outcome == Unjudged && unjudgedFails) {
			return false
		}
	}
	return true
}

// AllPassed reports whether every verdict is a pass: the strict gate, in
// which an unjudged threshold fails (Passes with unjudgedFails).
func AllPassed(vs []Verdict) bool {
	for _, v := range vs {
		if !v.Passed() {
			return false
		}
	}
	return true
}

// Levels lists the percentiles below 100 the latency thresholds name, for
// the scorer to keep (score.Options.Percentiles): a run's report answers
// them without its raw samples.
func Levels(ts []Threshold) []float64 {
	var ps []float64
	for _, t := range ts {
		if t.Latency() && t.P < 100 {
			ps = append(ps, t.P)
		}
	}
	return ps
}

// Objective is the verdict as report.json's objectives list holds it. An
// unjudged threshold is unjudged there, or, when unjudgedFails (the
// command's --unjudged fail), a failure whose reason says it was
// unjudged.
func (v Verdict) Objective(unjudgedFails bool) report.ObjectiveVerdict {
	o := report.ObjectiveVerdict{Name: v.Expression, Source: "threshold", Measured: v.Measured, Bound: new(v.Bound), Unit: v.Unit,
		Verdict: report.ObjectiveOutcome(v.Outcome), Reason: v.Detail}
	if v.Outcome == Unjudged && unjudgedFails {
		o.Verdict = report.ObjectiveFail
		o.Reason = "unjudged: " + v.Detail + " (--unjudged fail makes a threshold without its data a failure)"
	}
	return o
}

// Objectives are the verdicts as report.json's objectives list holds them
// (Verdict.Objective), in order.
func Objectives(vs []Verdict, unjudgedFails bool) []report.ObjectiveVerdict {
	out := make([]report.ObjectiveVerdict, len(vs))
	for i, v := range vs {
		out[i] = v.Objective(unjudgedFails)
	}
	return out
}
