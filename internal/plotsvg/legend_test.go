package plotsvg_test

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/servebench/servebench/internal/plotsvg"
	"github.com/servebench/servebench/internal/plotsvg/svgcheck"
)

// lineChart is a 400 × 250 pt chart of one line through xys with a
// legend of the given names.
func lineChart(t *testing.T, xys plotter.XYs, names ...string) string {
	t.Helper()
	p := plotsvg.New("", "x", "y")
	l, err := plotter.NewLine(xys)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	for _, n := range names {
		p.Legend.Add(n, l)
	}
	svg, err := plotsvg.Render(p, 400, 250)
	if err != nil {
		t.Fatal(err)
	}
	return svg
}

// legendOf returns the only chart's plot area and legend box.
func legendOf(t *testing.T, svg string) (area, legend svgcheck.Box) {
	t.Helper()
	charts, err := svgcheck.Charts(svg)
	if err != nil || len(charts) != 1 || len(charts[0].Legends) != 1 || !charts[0].HasArea {
		t.Fatalf("charts %+v, %v", charts, err)
	}
	return charts[0].PlotArea, charts[0].Legends[0]
}

// The legend goes where the line is not: a rising line leaves the top
// left free, a falling one the top right (the first choice).
func TestLegendGoesWhereTheDataIsNot(t *testing.T) {
	rising := lineChart(t, plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 10}}, "rising")
	area, l := legendOf(t, rising)
	midX, midY := (area.MinX+area.MaxX)/2, (area.MinY+area.MaxY)/2
	if !(l.MaxX < midX && l.MinY > midY) {
		t.Errorf("rising line: legend %v is not top left of %v", l, area)
	}
	falling := lineChart(t, plotter.XYs{{X: 0, Y: 10}, {X: 10, Y: 0}}, "falling")
	area, l = legendOf(t, falling)
	if !(l.MinX > midX && l.MinY > midY) {
		t.Errorf("falling line: legend %v is not top right of %v", l, area)
	}
}

// Names too long for the plot area shrink the legend's text until its
// box fits; the box lies within the viewBox and the plot area.
func TestLongLegendNamesStayInsideThePlotArea(t *testing.T) {
	long := strings.Repeat("a very long series name ", 3)
	svg := lineChart(t, plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 10}}, long+"1", long+"2", "short")
	if n, err := svgcheck.LegendsInside(svg); n != 1 || err != nil {
		t.Fatalf("%d legends checked: %v", n, err)
	}
	if !strings.Contains(svg, "font-size:7px\">"+long+"1</text>") {
		t.Errorf("the long names were not shrunk to 7 pt:\n%s", svg)
	}
}

// A chart without legend entries has a plot area and no legend group.
func TestNoLegendWithoutEntries(t *testing.T) {
	svg := lineChart(t, plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if strings.Contains(svg, `class="legend"`) || !strings.Contains(svg, `class="plot-area"`) {
		t.Fatalf("legend group or no plot area:\n%s", svg)
	}
}
