package suites

import (
	"fmt"

	"github.com/servebench/servebench/matchers"
)

// BreakdownObjective bounds the requests of one value of one breakdown
// dimension (report.BreakdownDimensions), e.g. those sent to adapter sql:
// each bound it declares is one spec judged with matchers.InBreakdown.
type BreakdownObjective struct {
	// Dimension is one of report.BreakdownDimensions ("adapter", "class",
	// "backend", "turn", "modality", "cached_fraction"); Value is one of
	// its values.
	Dimension string
	Value     string
	// Attainment is the value's minimum qualified / offered.
	Attainment *float64
	// WilsonLower is the minimum one-sided Wilson lower bound of the
	// value's attainment at the objectives' confidence.
	WilsonLower *float64
	// Percentiles bound the value's TTFT, TPOT or E2E at any level (the
	// contract asks the scorer to keep the levels it names).
	Percentiles []PercentileObjective
}

// breakdownPointObjectives lists the specs of the breakdown objectives, in
// contract order: for each entry its attainment, its Wilson bound and its
// percentiles, each at the line of the field that declares it.
func (o Objectives) breakdownPointObjectives(path string) []Objective {
	var out []Objective
	for i, b := range o.Breakdown {
		at := fmt.Sprintf("%s.breakdown[%d]", path, i)
		in := func(field string, m Objective) Objective {
			m.Field = at + "." + field
			return m
		}
		if b.Attainment != nil {
			out = append(out, in("attainment", objective("", matchers.InBreakdown(b.Dimension, b.Value,
				matchers.HaveAttainmentAtLeast(*b.Attainment)))))
		}
		if b.WilsonLower != nil {
			out = append(out, in("wilson_lower_bound", objective("", matchers.InBreakdown(b.Dimension, b.Value,
				matchers.HaveWilsonLowerBoundAbove(*b.WilsonLower, matchers.WithConfidence(o.Confidence))))))
		}
		for j, po := range b.Percentiles {
			out = append(out, in(fmt.Sprintf("percentiles[%d]", j), objective("", matchers.InBreakdown(b.Dimension, b.Value,
				matchers.HaveLatencyPercentileBelow(po.Metric, po.P, po.Below)))))
		}
	}
	return out
}

// breakdownWilson reports whether a breakdown objective bounds a Wilson
// lower bound, to which the objectives' confidence applies.
func (o Objectives) breakdownWilson() bool {
	for _, b := range o.Breakdown {
		if b.WilsonLower != nil {
			return true
		}
	}
	return false
}
