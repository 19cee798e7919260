package svgcheck

import (
	"strings"
	"testing"
)

// chart is a 100 × 80 chart with a plot area of [20, 90] × [10, 70] and
// one legend drawn as a box from (x0, y0) to (x1, y1) holding a 10 px
// "ab" whose baseline starts at (tx, ty) in the y-up frame.
func chart(x0, y0, x1, y1, tx, ty string) string {
	return `<svg role="img" viewBox="0 0 100 80"><g transform="scale(1, -1) translate(0, -80)">` +
		`<path d="M0,0L100,0L100,80L0,80Z" style="fill:#FFFFFF" />` +
		`<rect class="plot-area" x="20" y="10" width="70" height="60" fill="none" stroke="none" />` +
		`<g class="legend"><path d="M` + x0 + `,` + y0 + `L` + x1 + `,` + y0 + `L` + x1 + `,` + y1 + `L` + x0 + `,` + y1 + `Z" />` +
		`<text x="` + tx + `" y="-` + ty + `" transform="scale(1, -1)" style="font-size:10px">ab</text></g>` +
		`</g></svg>`
}

func TestLegendsInside(t *testing.T) {
	for _, c := range []struct{ name, svg, err string }{
		{"inside", chart("30", "40", "60", "60", "32", "45"), ""},
		{"off the right edge", chart("70", "40", "110", "60", "72", "45"),
			"chart 1: legend [70.0, 110.0]×[40.0, 60.0] leaves the viewBox [0.0, 100.0]×[0.0, 80.0]"},
		{"over the axis", chart("10", "40", "40", "60", "12", "45"),
			"chart 1: legend [10.0, 40.0]×[40.0, 60.0] leaves the plot area [20.0, 90.0]×[10.0, 70.0]"},
		// The box fits, its text does not: "ab" at 10 px is 11.1 px wide.
		{"text past the box", chart("30", "40", "60", "60", "85", "45"),
			"chart 1: legend [30.0, 96.1]×[40.0, 60.0] leaves the plot area [20.0, 90.0]×[10.0, 70.0]"},
	} {
		n, err := LegendsInside("<p>page</p>" + c.svg)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if n != 1 || got != c.err {
			t.Errorf("%s: %d legends, error %q, want 1 and %q", c.name, n, got, c.err)
		}
	}
}

// A legend in a chart that does not mark its plot area is an error: the
// check could not be made.
func TestLegendWithoutPlotArea(t *testing.T) {
	svg := strings.Replace(chart("30", "40", "60", "60", "32", "45"), `class="plot-area"`, `class="other"`, 1)
	if _, err := LegendsInside(svg); err == nil || err.Error() != "chart 1: a legend but no plot area" {
		t.Fatalf("error %v", err)
	}
}
