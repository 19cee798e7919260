package score

import (
	"cmp"
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// breakdownOf splits requests by every dimension that any of them
// carries; nil when none does.
func breakdownOf(requests []report.RequestScore, method stats.PercentileMethod) map[string]*report.BreakdownDimension {
	out := map[string]*report.BreakdownDimension{}
	for _, dim := range report.BreakdownSources() {
		groups := map[string][]*report.RequestScore{}
		carried := false
		for i := range requests {
			v := dim.Of(&requests[i])
			carried = carried || v != ""
			if v == "" {
				v = cmp.Or(dim.Unset, report.BreakdownNone)
			}
			groups[v] = append(groups[v], &requests[i])
		}
		if !carried {
			continue
		}
		bd := &report.BreakdownDimension{Values: map[string]report.BreakdownValue{}}
		var counts []float64
		for v, rs := range groups {
			bv := breakdownValue(rs, len(requests), method)
			if dim.ColdStart && v != report.BreakdownNone {
				coldStart(&bv, rs, method)
			}
			bd.Values[v] = bv
			if v != report.BreakdownNone {
				counts = append(counts, float64(len(rs)))
			}
		}
		bd.Gini = gini(counts)
		out[dim.Name] = bd
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// breakdownValue computes one value's figures.
func breakdownValue(rs []*report.RequestScore, total int, method stats.PercentileMethod) report.BreakdownValue {
	bv := report.BreakdownValue{Offered: len(rs), Share: float64(len(rs)) / float64(total)}
	var ttft, tpot, e2e []float64
	for _, r := range rs {
		if r.Qualified {
			bv.Qualified++
		}
		if r.Status != record.StatusSuccess {
			continue
		}
		ttft = appendDefined(ttft, r.TTFTMS)
		tpot = appendDefined(tpot, r.TPOTMS)
		e2e = appendDefined(e2e, r.E2EMS)
	}
	bv.Attainment = new(float64(bv.Qualified) / float64(bv.Offered))
	bv.TTFT = sampleDistribution(ttft, method, "successful requests of this value: first content − sent")
	bv.TPOT = sampleDistribution(tpot, method, "successful requests of this value where TPOT is defined")
	bv.E2E = sampleDistribution(e2e, method, "successful requests of this value: terminal − sent")
	return bv
}

func appendDefined(xs []float64, v *float64) []float64 {
	if v == nil {
		return xs
	}
	return append(xs, *v)
}

// sampleDistribution summarizes a sample held in memory, as the report's
// distributions are: nil values for an empty one.
func sampleDistribution(xs []float64, method stats.PercentileMethod, population string) report.Distribution {
	d := report.Distribution{Population: population, N: len(xs)}
	if len(xs) == 0 {
		return d
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	d.Mean = new(sum / float64(len(xs)))
	at := func(p float64) *float64 { v, _ := stats.Percentile(xs, p, method); return new(v) }
	d.P50, d.P90, d.P95, d.P99, d.Max = at(50), at(90), at(95), at(99), new(xs[len(xs)-1])
	return d
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
