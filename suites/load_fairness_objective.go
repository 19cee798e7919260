package suites

import (
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/report"
)

// FairnessObjective bounds Jain's fairness index over the attainment of a
// breakdown dimension's values (matchers.HaveJainIndexAtLeast).
type FairnessObjective struct {
	// Dimension is one of report.BreakdownDimensions, "tenant" usually.
	Dimension string
	// JainAtLeast is the lowest index allowed, in [0, 1].
	JainAtLeast float64
}

// fairness reads `fairness: {dimension: tenant, jain_at_least: 0.9}`; both
// fields are required, and the bound is a fraction (Jain's index is never
// above 1).
func (d *decoder) fairness(o *mapping) *FairnessObjective {
	if !o.has("fairness") {
		return nil
	}
	fm := d.mapping(o.get("fairness"), d.objAt+".fairness", "dimension", "jain_at_least")
	if fm == nil {
		return nil
	}
	before := len(d.errs)
	var f FairnessObjective
	if d.required(fm, "dimension") {
		f.Dimension = d.str(fm, "dimension")
		if f.Dimension != "" && !slices.Contains(report.BreakdownDimensions(), f.Dimension) {
			d.errorf(fm.get("dimension"), fm.field("dimension"), "unknown dimension %q (want one of %s)",
				f.Dimension, strings.Join(report.BreakdownDimensions(), ", "))
		}
	}
	if d.required(fm, "jain_at_least") {
		if v := d.fraction(fm, "jain_at_least"); v != nil {
			f.JainAtLeast = *v
		}
	}
	if len(d.errs) > before {
		return nil
	}
	return &f
}

// ShedOrderObjective declares the critical objective values and asks that
// none of their requests be shed while a sheddable one is admitted
// (matchers.HaveNoShedOrderViolations).
type ShedOrderObjective struct {
	// Critical are the objective header's values that must not be shed.
	Critical []string
}

// shedOrder reads `shed_order: {critical: [a, b]}`; critical is required
// and non-empty.
func (d *decoder) shedOrder(o *mapping) *ShedOrderObjective {
	if !o.has("shed_order") {
		return nil
	}
	sm := d.mapping(o.get("shed_order"), d.objAt+".shed_order", "critical")
	if sm == nil || !d.required(sm, "critical") {
		return nil
	}
	before := len(d.errs)
	critical := d.strings(sm, "critical")
	if len(critical) == 0 {
		if len(d.errs) == before {
			d.errorf(sm.get("critical"), sm.field("critical"), "name at least one critical objective")
		}
		return nil
	}
	return &ShedOrderObjective{Critical: critical}
}

// criticalObjectives are the shed-order objective's critical values; nil
// without one.
func (o Objectives) criticalObjectives() []string {
	if o.ShedOrder == nil {
		return nil
	}
	return o.ShedOrder.Critical
}
