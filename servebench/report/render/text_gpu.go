package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// writeGPUTelemetryText adds the GPU section to the text report: the
// energy and what it bought, then each GPU's means and maxima; or why no
// telemetry was sampled.
func writeGPUTelemetryText(w io.Writer, rule func(string), g *report.GPUTelemetry) {
	if g == nil {
		return
	}
	rule("GPU telemetry and energy")
	if !g.Available() {
		fmt.Fprintf(w, "GPU telemetry %s\n", g.Status)
		return
	}
	energy := "n/a"
	if g.EnergyJ != nil {
		energy = fmt.Sprintf("%.1f J (%s)", *g.EnergyJ, strings.ReplaceAll(g.EnergyMethod, "_", " "))
	}
	fmt.Fprintf(w, "source %s every %s ms; energy %s\n", g.Source, numfmt.Shortest(g.SampleIntervalMS), energy)
	fmt.Fprintf(w, "joules per qualified request %s (%d qualified); joules per output token %s (%d tokens)\n",
		numfmt.OptFixed(g.JoulesPerQualifiedRequest, 3), g.Qualified, numfmt.OptFixed(g.JoulesPerOutputToken, 4), g.OutputTokens)
	for _, e := range g.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	for i := range g.GPUs {
		s := &g.GPUs[i]
		fmt.Fprintf(w, "GPU %d %s: %d readings", s.Index, s.Name, s.Samples)
		for _, q := range gpuQuantities {
			st := q.stat(s)
			fmt.Fprintf(w, "; %s %s/%s %s", q.name, numfmt.OptFixed(st.Mean, q.decimals), numfmt.OptFixed(st.Max, q.decimals), q.unit)
		}
		if s.EnergyJ != nil {
			fmt.Fprintf(w, "; energy %.1f J", *s.EnergyJ)
		}
		fmt.Fprintln(w, " (mean/max)")
	}
}
