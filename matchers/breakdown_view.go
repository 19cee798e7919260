package matchers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// breakdownView selects Breakdown[dimension].Values[value] of the actual
// report and returns a report of that subset for another matcher to judge:
// Offered, Qualified, Attainment, WilsonLower (from those counts at the
// report's WilsonConfidence, as the scorer computes it), the report's SLO,
// WilsonConfidence and PercentileMethod, and Percentiles with the value's
// TTFT, TPOT and E2E distributions, and the counts of countSubset.
func breakdownView(actual any, dimension, value string, withRequests bool) (*report.Report, error) {
	const who = "InBreakdown"
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, err
	}
	dim := r.Breakdown[dimension]
	if dim == nil {
		return nil, fmt.Errorf("%s cannot select %s=%s: the report has no breakdown by %s (it has: %s; a dimension no request carried is left out)",
			who, dimension, value, dimension, dimensionNames(r))
	}
	v, ok := dim.Values[value]
	if !ok {
		return nil, fmt.Errorf("%s cannot select %s=%s: the %s breakdown has no value %s (it has: %s)",
			who, dimension, value, dimension, value, valueNames(dim))
	}
	view := &report.Report{
		Schema:           r.Schema,
		Offered:          v.Offered,
		Qualified:        v.Qualified,
		Attainment:       v.Attainment,
		WilsonConfidence: r.WilsonConfidence,
		SLO:              r.SLO,
		PercentileMethod: r.PercentileMethod,
		Endpoint:         r.Endpoint,
		Percentiles: map[record.Metric]report.Distribution{
			record.MetricTTFT: v.TTFT,
			record.MetricTPOT: v.TPOT,
			record.MetricE2E:  v.E2E,
		},
	}
	if v.Offered > 0 {
		if lo, ok := stats.WilsonLower(v.Qualified, v.Offered, r.WilsonConfidence); ok {
			view.WilsonLower = &lo
		}
	}
	countSubset(view, r, dimension, value, withRequests)
	return view, nil
}

// countSubset counts the ProtocolSuccesses, StatusCounts and ReasonCounts
// of the view from the report's entries whose value of the dimension is
// value: those the report holds, or, when withRequests is set, those of
// its requests file. withRequests also keeps the entries in the view, for
// the failure messages. The view is left without counts when the entries
// do not account for every offered request of the value.
func countSubset(view, r *report.Report, dimension, value string, withRequests bool) {
	var of func(*report.RequestScore) string
	for _, s := range report.BreakdownSources() {
		if s.Name == dimension {
			of = s.Of
		}
	}
	if of == nil {
		return
	}
	view.StatusCounts = map[record.Status]int{}
	view.ReasonCounts = map[report.Reason]int{}
	n := 0
	visit := func(rs *report.RequestScore) {
		got := of(rs)
		if got == "" {
			got = report.BreakdownNone
		}
		if got != value {
			return
		}
		n++
		view.StatusCounts[rs.Status]++
		if rs.Status == record.StatusSuccess {
			view.ProtocolSuccesses++
		}
		for _, reason := range rs.Reasons {
			view.ReasonCounts[reason]++
		}
		if withRequests {
			view.Requests = append(view.Requests, *rs)
		}
	}
	var err error
	switch {
	case len(r.Requests) > 0:
		for i := range r.Requests {
			visit(&r.Requests[i])
		}
	case withRequests:
		err = r.EachRequest(func(rs *report.RequestScore) error { visit(rs); return nil })
	}
	if err != nil || n != view.Offered {
		view.StatusCounts, view.ReasonCounts, view.ProtocolSuccesses, view.Requests = nil, nil, 0, nil
	}
}

// dimensionNames lists the dimensions the report is broken down by, in
// report order; "none" when it has no breakdown.
func dimensionNames(r *report.Report) string {
	var names []string
	for _, d := range report.BreakdownDimensions() {
		if r.Breakdown[d] != nil {
			names = append(names, d)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// valueNames lists a dimension's values in sorted order.
func valueNames(d *report.BreakdownDimension) string {
	names := make([]string, 0, len(d.Values))
	for v := range d.Values {
		names = append(names, v)
	}
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
