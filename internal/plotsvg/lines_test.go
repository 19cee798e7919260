package plotsvg

import (
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// A line with two gaps is one path of three subpaths: a run of two points
// (one segment), a lone point (a dash, one segment), and a run of three
// points (two segments).
func TestLinesBreakAtEachGapInOnePath(t *testing.T) {
	p := New("", "x", "y")
	l := &Lines{Color: color.RGBA{1, 2, 3, 255}, Width: 1.5, Runs: [][]vg.Point{
		{{X: 0, Y: 1}, {X: 1, Y: 2}},
		{{X: 3, Y: 2}},
		{{X: 5, Y: 0}, {X: 6, Y: 4}, {X: 7, Y: 3}},
	}}
	p.Add(l)
	if xmin, xmax, ymin, ymax := l.DataRange(); xmin != 0 || xmax != 7 || ymin != 0 || ymax != 4 {
		t.Fatalf("range x [%v, %v] y [%v, %v]", xmin, xmax, ymin, ymax)
	}
	svg, err := Render(p, 300, 200)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, el := range strings.Split(svg, "<path")[1:] {
		if strings.Contains(el, "stroke:#010203") {
			paths = append(paths, el)
		}
	}
	if len(paths) != 1 {
		t.Fatalf("%d paths in the line's colour, want 1", len(paths))
	}
	d := pathData.FindString(paths[0])
	if m, ln := strings.Count(d, "M"), strings.Count(d, "L"); m != 3 || ln != 4 {
		t.Fatalf("path %s: %d moves and %d lines, want 3 and 4", d, m, ln)
	}
}
