package servebench

import (
	"slices"

	"github.com/servebench/servebench/servebench/record"

	"github.com/servebench/servebench/servebench/stats"
)

// BreakdownNone is the value under which a dimension counts the requests
// that carry no value for it (a request never sent has no backend).
const BreakdownNone = "(none)"

// BreakdownDimension is a report split by one dimension of its requests.
type BreakdownDimension struct {
	// Values maps each value of the dimension to its requests' figures.
	Values map[string]BreakdownValue `json:"values"`
	// Gini is the Gini coefficient of the offered requests over the values
	// (BreakdownNone left out): 0 when every value got the same share,
	// (k - 1)/k when one of k values got them all. Nil with fewer than two
	// values. For the backend dimension it measures load balance.
	Gini *float64 `json:"gini"`
}

// BreakdownValue is the figures of the requests with one value of a
// dimension, computed as the report's own are, on that subset.
type BreakdownValue struct {
	// Offered counts the requests; Share is Offered over the report's.
	Offered int     `json:"offered"`
	Share   float64 `json:"share"`
	// Qualified counts those that qualified; Attainment is Qualified /
	// Offered.
	Qualified  int      `json:"qualified"`
	Attainment *float64 `json:"attainment"`
	// TTFT, TPOT and E2E are over the successful requests of the subset.
	TTFT Distribution `json:"ttft_ms"`
	TPOT Distribution `json:"tpot_ms"`
	E2E  Distribution `json:"e2e_ms"`
}

// BreakdownDimensions are the dimensions a report is broken down by, each
// with the request's value for it: one mechanism, to which a new
// dimension is one more entry. A dimension no request carries is left
// out of the report.
var breakdownDimensions = []struct {
	name string
	of   func(*RequestScore) string
}{
	{"class", func(rs *RequestScore) string { return rs.Class }},
	{"backend", func(rs *RequestScore) string { return rs.Backend }},
}

// BreakdownDimensions lists the dimension names, in report order.
func BreakdownDimensions() []string {
	names := make([]string, len(breakdownDimensions))
	for i, d := range breakdownDimensions {
		names[i] = d.name
	}
	return names
}

// breakdownOf splits requests by every dimension that any of them
// carries; nil when none does.
func breakdownOf(requests []RequestScore, method stats.PercentileMethod) map[string]*BreakdownDimension {
	out := map[string]*BreakdownDimension{}
	for _, dim := range breakdownDimensions {
		groups := map[string][]*RequestScore{}
		carried := false
		for i := range requests {
			v := dim.of(&requests[i])
			carried = carried || v != ""
			if v == "" {
				v = BreakdownNone
			}
			groups[v] = append(groups[v], &requests[i])
		}
		if !carried {
			continue
		}
		bd := &BreakdownDimension{Values: map[string]BreakdownValue{}}
		var counts []float64
		for v, rs := range groups {
			bd.Values[v] = breakdownValue(rs, len(requests), method)
			if v != BreakdownNone {
				counts = append(counts, float64(len(rs)))
			}
		}
		bd.Gini = gini(counts)
		out[dim.name] = bd
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// breakdownValue computes one value's figures.
func breakdownValue(rs []*RequestScore, total int, method stats.PercentileMethod) BreakdownValue {
	bv := BreakdownValue{Offered: len(rs), Share: float64(len(rs)) / float64(total)}
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
func sampleDistribution(xs []float64, method stats.PercentileMethod, population string) Distribution {
	d := Distribution{Population: population, N: len(xs)}
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
