package render

import (
	"fmt"
	"io"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// writeBreakdownText adds each breakdown dimension to the text report: per
// value, offered requests and share, attainment and p50/p99 TTFT, with the
// dimension's Gini coefficient and Jain's index.
func writeBreakdownText(w io.Writer, rule func(string), bd map[string]*report.BreakdownDimension) {
	for _, name := range report.BreakdownDimensions() {
		dim := bd[name]
		if dim == nil {
			continue
		}
		rule(fmt.Sprintf("Breakdown by %s (Gini of offered requests %s, Jain's index of attainment %s)", name,
			numfmt.OptFixed(dim.Gini, 3), numfmt.OptFixed(dim.Jain, 3)))
		fmt.Fprintf(w, "%-24s %8s %8s %10s %12s %12s\n", name, "offered", "share", "attainment", "TTFT p50 ms", "TTFT p99 ms")
		for _, v := range breakdownValues(dim) {
			x := dim.Values[v]
			fmt.Fprintf(w, "%-24s %8d %8.3f %10s %12s %12s\n", v, x.Offered, x.Share, numfmt.OptFixed(x.Attainment, 3),
				numfmt.OptCompact(x.TTFT.P50), numfmt.OptCompact(x.TTFT.P99))
		}
		writeColdStartText(w, name, dim)
	}
}

// writeColdStartText adds, for a dimension whose values start cold, each
// value's cold (first-sent) request's TTFT beside its warm TTFT p50.
func writeColdStartText(w io.Writer, name string, dim *report.BreakdownDimension) {
	header := false
	for _, v := range breakdownValues(dim) {
		x := dim.Values[v]
		if x.WarmTTFT == nil {
			continue
		}
		if !header {
			fmt.Fprintf(w, "%-24s %14s %14s %14s\n", name, "cold TTFT ms", "warm TTFT p50", "warm TTFT p99")
			header = true
		}
		fmt.Fprintf(w, "%-24s %14s %14s %14s\n", v, numfmt.OptCompact(x.ColdTTFTMS),
			numfmt.OptCompact(x.WarmTTFT.P50), numfmt.OptCompact(x.WarmTTFT.P99))
	}
}

// writeAdapterLoadsText adds a line per LoRA adapter the run loaded before
// its load: its load time, the route and status, and its path.
func writeAdapterLoadsText(w io.Writer, rule func(string), loads []report.AdapterLoad) {
	if len(loads) == 0 {
		return
	}
	rule("Adapters loaded before the run")
	fmt.Fprintf(w, "%-24s %12s %-24s %6s  %s\n", "adapter", "load ms", "route", "status", "path")
	for _, l := range loads {
		fmt.Fprintf(w, "%-24s %12s %-24s %6d  %s\n", l.Adapter, numfmt.Compact(l.LoadMS), l.Route, l.Status, l.Path)
	}
}
