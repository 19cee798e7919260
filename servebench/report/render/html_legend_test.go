package render_test

import (
	"testing"
	"time"

	"github.com/servebench/servebench/internal/plotsvg/svgcheck"
)

// Every legend of report.html lies within its chart's viewBox and plot
// area: the CDFs' bounds, the timeline's bound (a long name) and the
// engine timeline's series, in a small report and a large one.
func TestHTMLLegendsStayInsideTheirCharts(t *testing.T) {
	r := smallHTMLReport(t)
	r.SLO.TTFTFromScheduled, r.SLO.E2E = true, 220*time.Millisecond
	r.EngineSeries, r.Drift, r.GPUTelemetry = engineSeries(), driftReport(), gpuTelemetry()
	n, err := svgcheck.LegendsInside(renderHTML(t, r))
	if err != nil {
		t.Fatal(err)
	}
	// The E2E bound on its CDF, the TTFT bound on the scatter, and the
	// engine timeline's two charts with their series.
	t.Logf("n=%d", n)
	if n < 4 {
		t.Errorf("%d legends checked, want at least 4", n)
	}
	big := largeHTMLReport(t, 5000)
	big.SLO.E2E = 400 * time.Millisecond
	if n, err := svgcheck.LegendsInside(renderHTML(t, big)); err != nil || n < 1 {
		t.Fatalf("large report: %d legends checked: %v", n, err)
	}
}
