package report

import "github.com/servebench/servebench/servebench/record"

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
	// Jain is Jain's fairness index over the values' attainment x₁…xₙ
	// (BreakdownNone left out): J = (Σx)² / (n·Σx²), 1 when every value
	// attained the same, 1/n when one value alone attained anything. Nil
	// with fewer than two values or when none attained anything.
	Jain *float64 `json:"jain"`
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
	// ColdRequest, ColdTTFTMS and WarmTTFT are set for a dimension whose
	// values start cold (the adapter: an engine loads it on its first
	// request). ColdRequest is the value's first request sent in the run
	// and ColdTTFTMS its TTFT (nil unless it succeeded); WarmTTFT is over
	// the value's other successful requests. Their difference is the
	// penalty of a value that was not resident.
	ColdRequest string        `json:"cold_request,omitempty"`
	ColdTTFTMS  *float64      `json:"cold_ttft_ms,omitempty"`
	WarmTTFT    *Distribution `json:"warm_ttft_ms,omitempty"`
	// LoadMS is how long the engine took to load this adapter when the
	// run loaded it before the load (see Report.AdapterLoads); nil
	// otherwise.
	LoadMS *float64 `json:"load_ms,omitempty"`
}

// BreakdownSource is one dimension a report is broken down by: its name
// and each request's value for it.
type BreakdownSource struct {
	Name string
	Of   func(*RequestScore) string
	// ColdStart says that each value's first request sent starts cold,
	// so its TTFT is reported apart from the warm ones'.
	ColdStart bool
	// Unset is the value of a request that carries none, once some
	// request carries one; "" means BreakdownNone.
	Unset string
}

// BreakdownSources are the dimensions a report is broken down by, in
// report order: one mechanism, to which a new dimension is one more entry.
// A dimension no request carries is left out of the report.
func BreakdownSources() []BreakdownSource {
	return []BreakdownSource{
		{Name: "class", Of: func(rs *RequestScore) string { return rs.Class }},
		{Name: "backend", Of: func(rs *RequestScore) string { return rs.Backend }},
		{Name: "adapter", Of: func(rs *RequestScore) string { return rs.Adapter }, ColdStart: true},
		{Name: "tenant", Of: func(rs *RequestScore) string { return rs.Tenant }},
		{Name: "turn", Of: func(rs *RequestScore) string { return rs.Turn }},
		{Name: "cached_fraction", Of: func(rs *RequestScore) string { return rs.CachedFraction }},
		{Name: "modality", Of: func(rs *RequestScore) string { return rs.Modality }, Unset: record.ModalityText},
	}
}

// BreakdownDimensions lists the dimension names, in report order.
func BreakdownDimensions() []string {
	sources := BreakdownSources()
	names := make([]string, len(sources))
	for i, d := range sources {
		names[i] = d.Name
	}
	return names
}

// CachedFractionOf buckets the share of a request's prompt tokens served
// from the engine's prefix cache: "0%", "0-25%", "25-50%", "50-75%" or
// "75-100%" (each bucket holds its lower bound; 100% is in the last), names
// that sort in their order. Empty when either count is unknown or the
// prompt has no tokens.
func CachedFractionOf(cached, prompt *int) string {
	if cached == nil || prompt == nil || *prompt <= 0 {
		return ""
	}
	switch f := float64(*cached) / float64(*prompt); {
	case f <= 0:
		return "0%"
	case f < 0.25:
		return "0-25%"
	case f < 0.5:
		return "25-50%"
	case f < 0.75:
		return "50-75%"
	}
	return "75-100%"
}

// JainIndex is Jain's fairness index of xs: (Σx)² / (n·Σx²). ok is false
// for fewer than two values or when Σx² is 0.
func JainIndex(xs []float64) (j float64, ok bool) {
	if len(xs) < 2 {
		return 0, false
	}
	var sum, squares float64
	for _, x := range xs {
		sum += x
		squares += x * x
	}
	if squares == 0 {
		return 0, false
	}
	return sum * sum / (float64(len(xs)) * squares), true
}
