package suites

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/schedule"

	"go.yaml.in/yaml/v3"
)

// arrivalFields lists, for each process, the fields it accepts beyond
// process and seed.
var arrivalFields = map[schedule.Process][]string{
	schedule.ProcessConstant: {"rate", "rates", "phases"},
	schedule.ProcessPoisson:  {"rate", "rates", "phases"},
	schedule.ProcessGamma:    {"rate", "rates", "phases", "burstiness"},
	schedule.ProcessBurst:    {"rate", "rates", "phases", "burst_size"},
	schedule.ProcessReplay:   {"time_scale"},
	schedule.ProcessClosed:   {"users", "think_time"},
}

// arrival reads the arrival section. users without a process declares the
// closed loop.
func (d *decoder) arrival(m *mapping, c *Contract) {
	if !d.required(m, "arrival") {
		return
	}
	a := d.mapping(m.get("arrival"), "arrival", "process", "rate", "rates", "burstiness", "burst_size", "users", "think_time", "time_scale", "seed", "phases")
	if a == nil {
		return
	}
	process, ok := d.arrivalProcess(a)
	if !ok {
		return
	}
	spec := ArrivalSpec{ArrivalSpec: schedule.ArrivalSpec{Process: process, Seed: 1}}
	allowed := arrivalFields[spec.Process]
	for _, f := range []string{"rate", "rates", "phases", "burstiness", "burst_size", "users", "think_time", "time_scale"} {
		if a.has(f) && !contains(allowed, f) {
			d.errorf(a.get(f), a.field(f), "does not apply to the %s process", spec.Process)
		}
	}
	if a.has("seed") {
		var seed int64
		if n := a.get("seed"); n.ShortTag() != "!!int" || n.Decode(&seed) != nil {
			d.errorf(n, "arrival.seed", "want an integer, got %s", describe(n))
		} else {
			spec.Seed = seed
		}
	}
	d.arrivalParameters(a, &spec)
	c.Arrival = spec
}

// arrivalProcess reads the arrival's process: users alone declare the
// closed loop; false when the process is missing or unknown (reported).
func (d *decoder) arrivalProcess(a *mapping) (schedule.Process, bool) {
	if a.has("users") && !a.has("process") {
		return schedule.ProcessClosed, true
	}
	if !d.required(a, "process") {
		return "", false
	}
	process, err := schedule.ParseProcess(d.str(a, "process"))
	if err != nil {
		d.errorf(a.get("process"), "arrival.process", "%v", err)
		return "", false
	}
	return process, true
}

// arrivalParameters reads the parameters of spec's process into spec.
func (d *decoder) arrivalParameters(a *mapping, spec *ArrivalSpec) {
	switch {
	case spec.Process.Sampled() && a.has("phases"):
		if a.has("rate") || a.has("rates") {
			d.errorf(a.get("phases"), "arrival.phases", "give phases or rate (rates), not both: each phase gives its rate")
			return
		}
		if phases := d.phases(a); phases != nil {
			spec.ArrivalSpec = spec.WithPhases(phases)
			spec.Rates = []float64{spec.RateRPS}
		}
	case spec.Process.Sampled():
		spec.Rates = d.rates(a)
		if len(spec.Rates) == 1 {
			spec.RateRPS = spec.Rates[0]
		}
	case spec.Process == schedule.ProcessClosed:
		if n := a.get("users"); n != nil && n.Kind == yaml.ScalarNode && n.Value == "auto" {
			spec.UsersAuto = true
		} else if d.required(a, "users") {
			spec.Users = d.integer(a, "users", 1)
		}
		spec.ThinkTimeMS = float64(d.duration(a, "think_time")) / float64(time.Millisecond)
	case spec.Process == schedule.ProcessReplay:
		spec.TimeScale = 1
		if v := d.positive(a, "time_scale"); v != nil {
			spec.TimeScale = *v
		}
	}
	switch spec.Process {
	case schedule.ProcessGamma:
		if d.required(a, "burstiness") {
			if v := d.positive(a, "burstiness"); v != nil {
				spec.Burstiness = *v
			}
		}
	case schedule.ProcessBurst:
		if d.required(a, "burst_size") {
			spec.BurstSize = d.integer(a, "burst_size", 1)
		}
	}
}

// rates reads rate (one load point) or rates (a sweep, ascending).
func (d *decoder) rates(a *mapping) []float64 {
	switch {
	case a.has("rate") && a.has("rates"):
		d.errorf(a.get("rates"), "arrival.rates", "give either rate or rates, not both")
		return nil
	case a.has("rate"):
		if v := d.positive(a, "rate"); v != nil {
			return []float64{*v}
		}
		return nil
	case a.has("rates"):
		n := a.get("rates")
		if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
			d.errorf(n, "arrival.rates", "want a non-empty list of rates in requests per second, got %s", describe(n))
			return nil
		}
		var out []float64
		for i, e := range n.Content {
			field := fmt.Sprintf("arrival.rates[%d]", i)
			v, ok := d.number(e, field)
			switch {
			case !ok:
			case v <= 0:
				d.errorf(resolve(e), field, "want a rate greater than 0, got %s", resolve(e).Value)
			case len(out) > 0 && v <= out[len(out)-1]:
				d.errorf(resolve(e), field, "rates must increase, but %s follows %g", resolve(e).Value, out[len(out)-1])
			default:
				out = append(out, v)
			}
		}
		return out
	}
	d.errorf(a.node, "arrival.rate", "required for the open-loop processes: the offered rate in requests per second (or rates, a list, for a sweep)")
	return nil
}

// contains reports whether xs holds x.
func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
