package render

import (
	"fmt"
	"io"
	"slices"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// writeEngineMetricsText adds the engine's own view of the measurement to
// the text report: each histogram's observations and mean, each counter
// that moved, each gauge at the end, and any scrape error.
func writeEngineMetricsText(w io.Writer, rule func(string), em *report.EngineMetrics) {
	if em == nil {
		return
	}
	rule("Engine metrics (the engine's own view, " + em.URL + ")")
	for _, e := range em.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	for _, k := range sortedKeys(em.Histograms) {
		h := em.Histograms[k]
		mean := numfmt.Undefined
		if h.Mean != nil {
			mean = numfmt.Sig6(*h.Mean)
		}
		fmt.Fprintf(w, "%s: %g observations, mean %s\n", k, h.Count, mean)
	}
	for _, k := range sortedKeys(em.Counters) {
		if v := em.Counters[k]; v != 0 {
			fmt.Fprintf(w, "%s: +%g\n", k, v)
		}
	}
	for _, k := range sortedKeys(em.Gauges) {
		fmt.Fprintf(w, "%s: %g at the end\n", k, em.Gauges[k])
	}
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
