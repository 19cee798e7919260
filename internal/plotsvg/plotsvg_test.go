package plotsvg

import (
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// A rendered chart is an inline SVG element that parses as XML, scales
// with the page, names its fonts with metric-compatible fallbacks and no
// external address, and draws all the marks of a Marks series as one path.
func TestRenderInlinesAParsableElement(t *testing.T) {
	p := New("title", "x", "y")
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 2}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l, &Marks{XYs: []vg.Point{{X: 0.5, Y: 1}, {X: 0.7, Y: 1.5}, {X: 0.9, Y: 1.8}}, Size: 3})
	p.Legend.Add("line", l)
	svg, err := Render(p, 300, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg, `<svg role="img" width="100%" style="max-width:400px" viewBox="0 0 300 200"`) {
		t.Fatalf("head %.120q", svg)
	}
	for _, bad := range []string{"<?xml", "http://", "font-family:Liberation Sans;"} {
		if strings.Contains(svg, bad) {
			t.Errorf("svg holds %q", bad)
		}
	}
	if !strings.Contains(svg, "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;") {
		t.Error("no font fallback")
	}
	// Three marks: one path of three move-line pairs.
	if !strings.Contains(svg, "stroke-width:3") || strings.Count(svg, "stroke-width:3\"") != 1 {
		t.Errorf("marks are not one path:\n%s", svg)
	}
	for _, d := range pathData.FindAllString(svg, -1) {
		if regexp.MustCompile(`[0-9]\.[0-9]{2}`).MatchString(d) {
			t.Fatalf("path data kept more than a tenth of a point: %s", d)
		}
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("does not parse: %v", err)
		}
	}
}

// Tick labels print the value, not its binary noise.
func TestTicksLabelsRound(t *testing.T) {
	var labels []string
	for _, tk := range (Ticks{}).Ticks(0.2, 1) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	// [0.2, 1] in about six steps: 0.8 / 6 = 0.133, rounded up to 0.2.
	if strings.Join(labels, " ") != "0.2 0.4 0.6 0.8 1" {
		t.Fatalf("labels %q", labels)
	}
}

// [0, 2730] in about six steps: 455 rounds up to 500, so 0 to 2500 are
// labelled, with a mark every 250.
func TestTicksRoundSteps(t *testing.T) {
	ticks := (Ticks{}).Ticks(0, 2730)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if strings.Join(labels, " ") != "0 500 1000 1500 2000 2500" || len(ticks) != 11 {
		t.Fatalf("labels %q, %d ticks", labels, len(ticks))
	}
}
