package suites

import (
	"fmt"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
)

// Objective is one declared objective: the name of its spec and the matcher
// that judges a load point's *servebench.RunResult (or, for capacity, the
// *capacity.Sweep).
type Objective struct {
	Name string
	// Field is the contract field that declares it, e.g.
	// "objectives.attainment"; empty for an objective every contract has.
	Field   string
	Matcher types.GomegaMatcher
	// Tier names the tier that declares it (`tiers.NAME`); empty for
	// `objectives:`. Informational is true for a tier above the enforced
	// one: its failure is reported, labelled informational, and fails
	// nothing.
	Tier          string
	Informational bool
}

// objective names a matcher by its own description.
func objective(field string, m types.GomegaMatcher) Objective {
	name := "objective"
	if s, ok := m.(interface{ String() string }); ok {
		name = s.String()
	}
	return Objective{Name: name, Field: field, Matcher: m}
}

// PointObjectives lists the objectives judged at load point p, in the order
// of their specs. No request may ever be lost. In a sweep with a capacity
// objective, the other objectives are promised up to the declared capacity:
// they are judged at the tested rates up to it, and the rates above it,
// which explore the boundary, are judged by the capacity rule alone.
func (c *Contract) PointObjectives(p LoadPoint) []Objective {
	out := []Objective{objective("", matchers.HaveNoLostRequests())}
	if co := c.Objectives.Capacity; co != nil && p.RateRPS > co.AtLeast {
		return out
	}
	out = append(out, c.Objectives.pointObjectives("objectives")...)
	for _, t := range c.Tiers {
		for _, o := range t.Objectives.pointObjectives("tiers." + t.Name) {
			o.Tier, o.Informational = t.Name, t.Informational
			label := t.Name
			if t.Informational {
				label += " (informational)"
			}
			o.Name = label + ": " + o.Name
			out = append(out, o)
		}
	}
	return out
}

// pointObjectives lists the objectives o declares at path at
// ("objectives", "tiers.complete"), in the order of their specs.
func (o Objectives) pointObjectives(at string) []Objective {
	var out []Objective
	if o.ValidLoad {
		out = append(out, objective(at+".valid_load", matchers.BeValidLoad()))
	}
	if o.Attainment != nil {
		out = append(out, objective(at+".attainment", matchers.HaveAttainmentAtLeast(*o.Attainment)))
	}
	if o.WilsonLower != nil {
		out = append(out, objective(at+".wilson_lower", matchers.HaveWilsonLowerBoundAbove(*o.WilsonLower, matchers.WithConfidence(o.Confidence))))
	}
	for i, po := range o.Percentiles {
		out = append(out, objective(fmt.Sprintf("%s.percentiles[%d]", at, i), matchers.HaveLatencyPercentileBelow(po.Metric, po.P, po.Below)))
	}
	out = append(out, o.breakdownPointObjectives(at)...)
	if o.ErrorRate != nil {
		out = append(out, objective(at+".error_rate", matchers.HaveErrorRateBelow(*o.ErrorRate)))
	}
	if o.Drift != nil {
		out = append(out, objective(at+".drift", matchers.HaveNoDrift(*o.Drift)))
	}
	if o.QualifiedRate != nil {
		out = append(out, objective(at+".qualified_rate", matchers.HaveQualifiedRateAtLeast(*o.QualifiedRate)))
	}
	if o.PrefixCacheHitRate != nil {
		out = append(out, objective(at+".prefix_cache_hit_rate", matchers.HavePrefixCacheHitRateAtLeast(*o.PrefixCacheHitRate)))
	}
	if o.PrefixReuseAchieved != nil {
		out = append(out, objective(at+".prefix_reuse_achieved", matchers.HavePrefixReuseAchievedAtLeast(*o.PrefixReuseAchieved)))
	}
	if s := o.Sessions; s != nil && s.Attainment != nil {
		out = append(out, objective(at+".sessions.attainment", matchers.HaveSessionAttainmentAtLeast(*s.Attainment)))
	}
	if s := o.Sessions; s != nil && s.WilsonLower != nil {
		out = append(out, objective(at+".sessions.wilson_lower", matchers.HaveSessionWilsonLowerBoundAbove(*s.WilsonLower)))
	}
	if o.ShedOrder != nil {
		out = append(out, objective(at+".shed_order", matchers.HaveNoShedOrderViolations()))
	}
	if o.RecoveryWithin > 0 {
		out = append(out, objective(at+".recovery_within", matchers.HaveRecoveredWithin(o.RecoveryWithin)))
	}
	if f := o.Fairness; f != nil {
		out = append(out, objective(at+".fairness", matchers.HaveJainIndexAtLeast(f.Dimension, f.JainAtLeast)))
	}
	if s := o.SpeculativeDecoding; s != nil && s.MeanAcceptanceLengthAtLeast != nil {
		out = append(out, objective(at+".speculative_decoding.mean_acceptance_length_at_least", matchers.HaveMeanAcceptanceLengthAtLeast(*s.MeanAcceptanceLengthAtLeast)))
	}
	if s := o.SpeculativeDecoding; s != nil && s.AcceptanceRateAtLeast != nil {
		out = append(out, objective(at+".speculative_decoding.acceptance_rate_at_least", matchers.HaveAcceptanceRateAtLeast(*s.AcceptanceRateAtLeast)))
	}
	if s := o.Startup; s != nil {
		out = append(out, objective("objectives.startup", matchers.HaveStartupWithin(s.ReadyWithin, s.FirstTokenWithin)))
	}
	if o.JoulesPerOutputToken != nil {
		out = append(out, objective(at+".joules_per_output_token", matchers.HaveEnergyPerOutputTokenBelow(*o.JoulesPerOutputToken)))
	}
	if o.JoulesPerQualifiedRequest != nil {
		out = append(out, objective(at+".joules_per_qualified_request", matchers.HaveEnergyPerQualifiedRequestBelow(*o.JoulesPerQualifiedRequest)))
	}
	return out
}

// CapacityObjective returns the sweep's capacity objective; ok is false
// when the contract declares none.
func (c *Contract) CapacityObjective() (o Objective, rule capacity.Rule, ok bool) {
	co := c.Objectives.Capacity
	if co == nil {
		return Objective{}, capacity.Rule{}, false
	}
	return objective("objectives.capacity", matchers.HaveCapacityAtLeast(co.AtLeast)), co.Rule, true
}

// percentileLevels are the levels the percentile objectives of Objectives
// and of every tier name, for the scorer to keep.
func (c *Contract) percentileLevels() []float64 {
	ps := c.Objectives.percentileLevels()
	for _, t := range c.Tiers {
		ps = append(ps, t.Objectives.percentileLevels()...)
	}
	return ps
}
