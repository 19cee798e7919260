package suites

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/servebench/report"
)

// breakdownMetrics are the metrics a breakdown value keeps distributions
// of, by their contract names.
var breakdownMetrics = []string{"ttft", "tpot", "e2e"}

// breakdownObjectives reads `breakdown:`, a list of {dimension, value,
// attainment, wilson_lower_bound, percentiles}.
func (d *decoder) breakdownObjectives(o *mapping) []BreakdownObjective {
	n := o.get("breakdown")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, d.objAt+".breakdown", "want a list of {dimension, value, attainment, wilson_lower_bound, percentiles}, got %s", describe(n))
		return nil
	}
	var out []BreakdownObjective
	for i, e := range n.Content {
		path := fmt.Sprintf(d.objAt+".breakdown[%d]", i)
		d.line(path, e.Line)
		if b, ok := d.breakdownObjective(e, path); ok {
			out = append(out, b)
		}
	}
	return out
}

// breakdownObjective reads one entry of `breakdown:`; ok is false when it
// has an error.
func (d *decoder) breakdownObjective(e *yaml.Node, path string) (BreakdownObjective, bool) {
	bm := d.mapping(e, path, "dimension", "value", "attainment", "wilson_lower_bound", "wilson_lower", "percentiles")
	if bm == nil {
		return BreakdownObjective{}, false
	}
	before := len(d.errs)
	var b BreakdownObjective
	if d.required(bm, "dimension") {
		b.Dimension = d.str(bm, "dimension")
		if b.Dimension != "" && !slices.Contains(report.BreakdownDimensions(), b.Dimension) {
			d.errorf(bm.get("dimension"), bm.field("dimension"), "unknown dimension %q (want one of %s)",
				b.Dimension, strings.Join(report.BreakdownDimensions(), ", "))
		}
	}
	if d.required(bm, "value") {
		b.Value = d.str(bm, "value")
	}
	b.Attainment = d.fraction(bm, "attainment")
	b.WilsonLower = d.fraction(bm, "wilson_lower_bound")
	if bm.has("wilson_lower") {
		if bm.has("wilson_lower_bound") {
			d.errorf(bm.get("wilson_lower"), bm.field("wilson_lower"), "give wilson_lower_bound or wilson_lower, not both")
		} else {
			b.WilsonLower = d.fraction(bm, "wilson_lower")
		}
	}
	if list := bm.get("percentiles"); list != nil {
		b.Percentiles = d.percentileList(list, bm.field("percentiles"))
		d.breakdownPercentiles(list, bm.field("percentiles"))
	}
	if !bm.has("attainment") && !bm.has("wilson_lower_bound") && !bm.has("wilson_lower") && !bm.has("percentiles") {
		d.errorf(bm.node, path, "declares no objective: give attainment, wilson_lower_bound or percentiles")
	}
	return b, len(d.errs) == before
}

// breakdownPercentiles refuses the percentile bounds a breakdown value
// cannot answer: a metric other than TTFT, TPOT and E2E. Any level is
// answered: the contract asks the scorer to keep the levels it names
// (Objectives.percentileLevels).
func (d *decoder) breakdownPercentiles(list *yaml.Node, at string) {
	if list.Kind != yaml.SequenceNode {
		return
	}
	for i, e := range list.Content {
		e = resolve(e)
		path := fmt.Sprintf("%s[%d]", at, i)
		if mn := childValue(e, "metric"); mn != nil && mn.Kind == yaml.ScalarNode {
			name := strings.TrimSuffix(mn.Value, "_ms")
			if _, known := report.MetricNamed(name); known && !slices.Contains(breakdownMetrics, name) {
				d.errorf(mn, path+".metric", "a breakdown value keeps only %s: %s is judged on the whole cohort (objectives.percentiles)",
					strings.Join(breakdownMetrics, ", "), mn.Value)
			}
		}
	}
}
