package score

import (
	"cmp"
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// breakdownTally splits the cohort by every dimension of
// report.BreakdownSources as request entries pass, keeping per value only
// counts and counted populations: the in-memory and the streamed scorer
// share it, so a breakdown costs memory per value, not per request.
//
// A dimension no request has carried yet costs nothing: all its requests
// so far are its BreakdownNone value, whose figures are the cohort's own.
// When its first value comes, that value starts from a copy of the
// cohort's populations so far (overall).
type breakdownTally struct {
	dims             []*dimensionTally
	total, qualified int // requests added so far, and how many qualified
	// overall gives the cohort's TTFT, TPOT and E2E populations over the
	// successes added so far.
	overall func() (ttft, tpot, e2e *population)
}

// dimensionTally is one dimension's values so far.
type dimensionTally struct {
	source  report.BreakdownSource
	carried bool // some request had a value
	values  map[string]*valueTally
}

// valueTally is the running figures of one value of a dimension.
type valueTally struct {
	offered, qualified int
	ttft, tpot, e2e    *population
	// For a dimension whose values start cold: the value's first request
	// sent so far, and the TTFTs of its other successful requests.
	cold coldCandidate
	warm *population
}

// coldCandidate is the earliest-sent request of a value seen so far.
type coldCandidate struct {
	seen            bool
	id              string
	sent, scheduled float64
	ttft            *float64 // nil unless it succeeded with a TTFT
}

func newBreakdownTally(overall func() (ttft, tpot, e2e *population)) *breakdownTally {
	t := &breakdownTally{overall: overall}
	for _, src := range report.BreakdownSources() {
		t.dims = append(t.dims, &dimensionTally{source: src, values: map[string]*valueTally{}})
	}
	return t
}

// add counts one request's entry under its value of every dimension. It
// runs before the request joins the overall populations.
func (t *breakdownTally) add(rs *report.RequestScore) {
	for _, d := range t.dims {
		v := d.source.Of(rs)
		switch {
		case v != "" && !d.carried:
			d.carried = true
			t.startNone(d)
		case v == "" && !d.carried:
			continue // counted by the cohort's own figures
		case v == "":
			v = d.none()
		}
		vt := d.values[v]
		if vt == nil {
			vt = &valueTally{ttft: newPopulation(false), tpot: newPopulation(false), e2e: newPopulation(false)}
			if d.source.ColdStart && v != report.BreakdownNone {
				vt.warm = newPopulation(false)
			}
			d.values[v] = vt
		}
		vt.add(rs)
	}
	t.total++
	if rs.Qualified {
		t.qualified++
	}
}

// none is the value of a request that carries none for the dimension:
// its Unset value, or BreakdownNone.
func (d *dimensionTally) none() string { return cmp.Or(d.source.Unset, report.BreakdownNone) }

// startNone gives a dimension that has just carried its first value its
// BreakdownNone value: every request before this one.
func (t *breakdownTally) startNone(d *dimensionTally) {
	if t.total == 0 {
		return
	}
	ttft, tpot, e2e := t.overall()
	d.values[d.none()] = &valueTally{offered: t.total, qualified: t.qualified,
		ttft: ttft.clone(false), tpot: tpot.clone(false), e2e: e2e.clone(false)}
}

// add counts one request into its value.
func (vt *valueTally) add(rs *report.RequestScore) {
	vt.offered++
	if rs.Qualified {
		vt.qualified++
	}
	var ttft *float64
	if rs.Status == record.StatusSuccess {
		addDefined(vt.ttft, rs.TTFTMS)
		addDefined(vt.tpot, rs.TPOTMS)
		addDefined(vt.e2e, rs.E2EMS)
		ttft = rs.TTFTMS
	}
	if vt.warm == nil {
		return
	}
	// The earliest send is the cold one (the earlier scheduled on a tie);
	// a request it displaces joins the warm ones.
	c := &vt.cold
	if rs.SentMS != nil && (!c.seen || *rs.SentMS < c.sent || (*rs.SentMS == c.sent && rs.ScheduledMS < c.scheduled)) {
		if c.seen {
			addDefined(vt.warm, c.ttft)
		}
		*c = coldCandidate{seen: true, id: rs.ID, sent: *rs.SentMS, scheduled: rs.ScheduledMS}
		if ttft != nil {
			c.ttft = new(*ttft)
		}
		return
	}
	addDefined(vt.warm, ttft)
}

func addDefined(p *population, v *float64) {
	if v != nil {
		p.add(*v)
	}
}

// report gives the breakdown of every dimension some request carried; nil
// when none did. It releases the populations.
func (t *breakdownTally) report(method stats.PercentileMethod, levels []float64) (map[string]*report.BreakdownDimension, error) {
	defer t.close()
	out := map[string]*report.BreakdownDimension{}
	for _, d := range t.dims {
		if !d.carried {
			continue
		}
		bd := &report.BreakdownDimension{Values: map[string]report.BreakdownValue{}}
		var counts, attainments []float64
		for v, vt := range d.values {
			bv, err := vt.value(t.total, method, levels)
			if err != nil {
				return nil, err
			}
			bd.Values[v] = bv
			if v != report.BreakdownNone {
				counts = append(counts, float64(vt.offered))
				attainments = append(attainments, *bv.Attainment)
			}
		}
		bd.Gini = gini(counts)
		slices.Sort(attainments) // the sum's rounding does not follow the map's order
		if j, ok := report.JainIndex(attainments); ok {
			bd.Jain = &j
		}
		out[d.source.Name] = bd
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// value computes one value's figures.
func (vt *valueTally) value(total int, method stats.PercentileMethod, levels []float64) (report.BreakdownValue, error) {
	bv := report.BreakdownValue{Offered: vt.offered, Share: float64(vt.offered) / float64(total), Qualified: vt.qualified,
		Attainment: new(float64(vt.qualified) / float64(vt.offered))}
	var err error
	dist := func(p *population, population string) report.Distribution {
		d, e := distributionOfPopulation(p, method, levels)
		if e != nil {
			err = e
		}
		d.Population = population
		return d
	}
	bv.TTFT = dist(vt.ttft, "successful requests of this value: first content − sent")
	bv.TPOT = dist(vt.tpot, "successful requests of this value where TPOT is defined")
	bv.E2E = dist(vt.e2e, "successful requests of this value: terminal − sent")
	if vt.warm != nil {
		if vt.cold.seen {
			bv.ColdRequest, bv.ColdTTFTMS = vt.cold.id, vt.cold.ttft
		}
		w := dist(vt.warm, "successful requests of this value but its first sent: first content − sent")
		bv.WarmTTFT = &w
	}
	return bv, err
}

// close removes any temporary file of the values' populations.
func (t *breakdownTally) close() {
	for _, d := range t.dims {
		for _, vt := range d.values {
			for _, p := range []*population{vt.ttft, vt.tpot, vt.e2e, vt.warm} {
				if p != nil {
					p.close()
				}
			}
		}
	}
}

// gini is the Gini coefficient of counts: Σ|xi − xj| / (2 k² mean). Nil
// for fewer than two counts or a zero total.
func gini(counts []float64) *float64 {
	k := len(counts)
	if k < 2 {
		return nil
	}
	var sum, diff float64
	for i, x := range counts {
		sum += x
		for _, y := range counts[:i] {
			diff += 2 * max(x-y, y-x)
		}
	}
	if sum == 0 {
		return nil
	}
	mean := sum / float64(k)
	return new(diff / (2 * float64(k*k) * mean))
}
