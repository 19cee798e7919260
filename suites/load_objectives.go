package suites

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
)

// pointObjectiveFields are the keys of objectives: judged at each load
// point, the keys a tier takes.
var pointObjectiveFields = []string{
	"valid_load", "attainment", "wilson_lower", "confidence", "percentiles", "error_rate", "qualified_rate",
	"joules_per_output_token", "joules_per_qualified_request", "drift", "prefix_cache_hit_rate", "prefix_reuse_achieved", "breakdown", "sessions",
	"fairness", "speculative_decoding", "recovery_within",
}

// objectives reads the objectives section.
func (d *decoder) objectives(m *mapping, c *Contract) {
	d.objAt = "objectives"
	if o, ok := d.objectivesAt(orEmpty(m.get("objectives")), c, true); ok {
		c.Objectives = o
	}
}

// objectivesAt reads one mapping of objectives at d.objAt: the contract's
// objectives (top, which may also declare the capacity and concurrency of
// a sweep or search, and whose valid_load defaults to true) or a tier's.
func (d *decoder) objectivesAt(n *yaml.Node, c *Contract, top bool) (Objectives, bool) {
	fields := pointObjectiveFields
	if top {
		fields = append(append([]string(nil), fields...), "capacity", "concurrency", "startup", "shed_order")
	}
	o := d.mapping(n, d.objAt, fields...)
	if o == nil {
		return Objectives{}, false
	}
	obj := Objectives{
		ValidLoad:   d.boolean(o, "valid_load", top),
		Attainment:  d.fraction(o, "attainment"),
		WilsonLower: d.fraction(o, "wilson_lower"),
		ErrorRate:   d.fraction(o, "error_rate"),
		Confidence:  0.95,

		PrefixCacheHitRate:  d.fraction(o, "prefix_cache_hit_rate"),
		PrefixReuseAchieved: d.fraction(o, "prefix_reuse_achieved"),
	}
	if v := d.fraction(o, "confidence"); v != nil {
		if *v <= 0 || *v >= 1 {
			d.errorf(o.get("confidence"), d.objAt+".confidence", "want a confidence strictly between 0 and 1, got %g", *v)
		} else {
			obj.Confidence = *v
		}
	}
	obj.Breakdown = d.breakdownObjectives(o)
	obj.Sessions = d.sessions(o)
	obj.Fairness = d.fairness(o)
	obj.SpeculativeDecoding = d.speculativeDecoding(o)
	obj.RecoveryWithin = d.duration(o, "recovery_within")
	if obj.RecoveryWithin > 0 && !c.Arrival.hasBurstPhase() {
		d.errorf(o.get("recovery_within"), d.objAt+".recovery_within", "needs arrival.phases with a phase named %s to recover from", report.RecoveryBurstPhase)
	}
	if o.has("confidence") && !o.has("wilson_lower") && !o.has("capacity") && !obj.breakdownWilson() {
		d.errorf(o.get("confidence"), d.objAt+".confidence", "applies to wilson_lower or capacity, and neither is declared")
	}
	if o.has("qualified_rate") {
		if v, ok := d.number(o.get("qualified_rate"), d.objAt+".qualified_rate"); ok {
			if v < 0 {
				d.errorf(o.get("qualified_rate"), d.objAt+".qualified_rate", "want a rate of at least 0, got %g", v)
			} else {
				obj.QualifiedRate = &v
			}
		}
	}
	obj.JoulesPerOutputToken = d.joules(o, "joules_per_output_token")
	obj.JoulesPerQualifiedRequest = d.joules(o, "joules_per_qualified_request")
	obj.Percentiles = d.percentiles(o)
	obj.Drift = d.drift(o)
	if top {
		obj.Capacity = d.capacity(o, obj, c.Arrival.Sweep())
		obj.Concurrency = d.concurrency(o, c.Arrival.UsersAuto)
		obj.Startup = d.startup(o, c)
		obj.ShedOrder = d.shedOrder(o) // it declares the critical objectives the scorer needs
	}
	return obj, true
}

// percentiles reads the percentile objectives.
func (d *decoder) percentiles(o *mapping) []PercentileObjective {
	return d.percentileList(o.get("percentiles"), d.objAt+".percentiles")
}

// percentileList reads a list of percentile bounds {metric, p, below} at
// path; nil when n is nil.
func (d *decoder) percentileList(n *yaml.Node, at string) []PercentileObjective {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, at, "want a list of {metric, p, below}, got %s", describe(n))
		return nil
	}
	var out []PercentileObjective
	for i, e := range n.Content {
		path := fmt.Sprintf("%s[%d]", at, i)
		d.line(path, e.Line)
		pm := d.mapping(e, path, "metric", "p", "below")
		if pm == nil {
			continue
		}
		var po PercentileObjective
		ok := true
		if d.required(pm, "metric") {
			name := d.str(pm, "metric")
			if po.Metric, ok = report.MetricNamed(name); !ok && name != "" {
				d.errorf(pm.get("metric"), pm.field("metric"), "unknown metric %q (want one of %s)", name, strings.Join(metricNames(), ", "))
			}
		}
		if d.required(pm, "p") {
			v, isNumber := d.number(pm.get("p"), pm.field("p"))
			switch {
			case !isNumber:
				ok = false
			case v <= 0 || v > 100:
				d.errorf(pm.get("p"), pm.field("p"), "want a percentile in (0, 100], got %g", v)
				ok = false
			default:
				po.P = v
			}
		}
		if d.required(pm, "below") {
			po.Below = d.duration(pm, "below")
		}
		if ok && po.Below > 0 && po.P > 0 {
			out = append(out, po)
		}
	}
	return out
}

// capacity reads the capacity objective: a rate, or a mapping with the
// rate and the capacity rule. Its α defaults to the attainment objective
// (else 0.95) and its confidence to the objectives' confidence.
func (d *decoder) capacity(o *mapping, obj Objectives, sweep bool) *CapacityObjective {
	n := o.get("capacity")
	if n == nil {
		return nil
	}
	if !sweep {
		d.errorf(n, d.objAt+".capacity", "applies to a sweep: give arrival.rates, a list of at least two offered rates")
		return nil
	}
	co := &CapacityObjective{Rule: capacity.Rule{MinAttainment: 0.95, Confidence: obj.Confidence}}
	if obj.Attainment != nil && *obj.Attainment > 0 {
		co.Rule.MinAttainment = *obj.Attainment
	}
	if n.Kind == yaml.ScalarNode {
		if v, ok := d.number(n, d.objAt+".capacity"); ok {
			co.AtLeast = v
		}
	} else {
		cm := d.mapping(n, d.objAt+".capacity", "at_least", "attainment", "use_wilson_lower", "no_backlog_growth")
		if cm == nil {
			return nil
		}
		if d.required(cm, "at_least") {
			if v, ok := d.number(cm.get("at_least"), cm.field("at_least")); ok {
				co.AtLeast = v
			}
		}
		if a := d.fraction(cm, "attainment"); a != nil {
			if *a == 0 {
				d.errorf(cm.get("attainment"), cm.field("attainment"), "want an attainment greater than 0")
			}
			co.Rule.MinAttainment = *a
		}
		co.Rule.UseWilsonLower = d.boolean(cm, "use_wilson_lower", false)
		co.Rule.RequireNoBacklogGrowth = d.boolean(cm, "no_backlog_growth", false)
	}
	if co.AtLeast < 0 {
		d.errorf(n, d.objAt+".capacity", "want a rate of at least 0, got %g", co.AtLeast)
	}
	return co
}

// metricNames lists the metric names a contract may use, sorted.
func metricNames() []string { return sorted(report.MetricNames()) }

// drift reads `drift: {max_growth: G}`: no p99 may grow by more than the
// fraction G of its start value over the run.
func (d *decoder) drift(o *mapping) *float64 {
	if !o.has("drift") {
		return nil
	}
	dm := d.mapping(o.get("drift"), d.objAt+".drift", "max_growth")
	if dm == nil {
		return nil
	}
	n := dm.get("max_growth")
	if n == nil {
		d.errorf(o.get("drift"), d.objAt+".drift.max_growth", "required: the largest growth of p99 over the run, as a fraction (0.2 is 20%%)")
		return nil
	}
	v, ok := d.number(n, d.objAt+".drift.max_growth")
	if !ok {
		return nil
	}
	if v < 0 {
		d.errorf(n, d.objAt+".drift.max_growth", "want a growth of at least 0, got %g", v)
		return nil
	}
	return &v
}

// joules reads an energy bound in joules; it must be above 0.
func (d *decoder) joules(o *mapping, key string) *float64 {
	if !o.has(key) {
		return nil
	}
	v, ok := d.number(o.get(key), d.objAt+"."+key)
	if !ok {
		return nil
	}
	if v <= 0 {
		d.errorf(o.get(key), d.objAt+"."+key, "want an energy in joules above 0, got %g", v)
		return nil
	}
	return &v
}

// percentileLevels are the levels the percentile objectives name, for the
// scorer to keep (score.Options.Percentiles): a run's report answers them
// without its raw samples.
func (o Objectives) percentileLevels() []float64 {
	var ps []float64
	for _, p := range o.Percentiles {
		if p.P < 100 {
			ps = append(ps, p.P)
		}
	}
	for _, b := range o.Breakdown {
		for _, p := range b.Percentiles {
			if p.P < 100 {
				ps = append(ps, p.P)
			}
		}
	}
	return ps
}
