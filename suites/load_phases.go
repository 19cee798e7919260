package suites

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"

	"go.yaml.in/yaml/v3"
)

// phases reads `arrival.phases: [{name, duration, rate}, ...]`: a plan of
// named phases, each with a positive duration and rate, in place of rate
// or rates.
func (d *decoder) phases(a *mapping) []schedule.Phase {
	n := a.get("phases")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.errorf(n, "arrival.phases", "want a non-empty list of {name, duration, rate}, got %s", describe(n))
		return nil
	}
	var out []schedule.Phase
	for i, e := range n.Content {
		path := fmt.Sprintf("arrival.phases[%d]", i)
		d.line(path, e.Line)
		pm := d.mapping(e, path, "name", "duration", "rate")
		if pm == nil {
			continue
		}
		before := len(d.errs)
		var p schedule.Phase
		if d.required(pm, "name") {
			p.Name = d.str(pm, "name")
		}
		if d.required(pm, "duration") {
			p.DurationMS = record.Millis(d.duration(pm, "duration"))
		}
		if d.required(pm, "rate") {
			if v := d.positive(pm, "rate"); v != nil {
				p.RateRPS = *v
			}
		}
		if len(d.errs) > before {
			continue
		}
		if err := schedule.CheckPhase(p); err != nil {
			d.errorf(e, path, "%v", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// hasBurstPhase reports whether the arrival plan has a phase named burst.
func (a ArrivalSpec) hasBurstPhase() bool {
	for _, p := range a.Phases {
		if p.Name == report.RecoveryBurstPhase {
			return true
		}
	}
	return false
}
