package plotsvg

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The legend's box: its padding around the entries and its distance from
// the plot area's edges, in points.
const (
	legendPad   = vg.Length(4)
	legendInset = vg.Length(4)
)

// legendBackground is the legend box's fill: white, a little
// translucent, so that a mark it covers still shows.
var legendBackground = color.NRGBA{255, 255, 255, 217}

// legendBorder is the legend box's outline.
var legendBorder = color.RGBA{200, 205, 210, 255}

// legendBox returns where the legend goes in the plot area: of the
// places tried, the one whose box covers the fewest recorded points. The
// corners are tried first (top right, top left, bottom right, bottom
// left), then the places between them, so that a tie goes to a corner.
// The box is a sixth wider than Liberation Sans needs, for a browser that
// falls back to a wider face.
func legendBox(l *plot.Legend, area vg.Rectangle, cov *coverage) vg.Rectangle {
	bw, bh := legendSize(l, area)
	left, right := area.Min.X+legendInset, area.Max.X-legendInset-bw
	bottom, top := area.Min.Y+legendInset, area.Max.Y-legendInset-bh
	places := []vg.Point{{X: right, Y: top}, {X: left, Y: top}, {X: right, Y: bottom}, {X: left, Y: bottom}}
	for _, x := range []vg.Length{right, left, (left + right) / 2} {
		for k := 1; k < legendRows; k++ {
			places = append(places, vg.Point{X: x, Y: top + (bottom-top)*vg.Length(k)/legendRows})
		}
	}
	places = append(places, vg.Point{X: (left + right) / 2, Y: top}, vg.Point{X: (left + right) / 2, Y: bottom})
	best, bestN := vg.Rectangle{}, -1
	for _, c := range places {
		r := vg.Rectangle{Min: c, Max: vg.Point{X: c.X + bw, Y: c.Y + bh}}
		if n := cov.within(r); bestN < 0 || n < bestN {
			best, bestN = r, n
		}
	}
	return best
}

// legendMinFont is the smallest size, in points, a legend's text shrinks
// to when the legend does not fit its plot area.
const legendMinFont = 6

// legendSize returns the legend box's size, shrinking the legend's text
// a point at a time (down to legendMinFont) until the box fits the plot
// area.
func legendSize(l *plot.Legend, area vg.Rectangle) (w, h vg.Length) {
	fits := func() bool {
		size := l.Rectangle(draw.Canvas{Rectangle: area}).Size()
		w, h = size.X*7/6+2*legendPad, size.Y+2*legendPad
		return w <= area.Size().X-2*legendInset && h <= area.Size().Y-2*legendInset
	}
	for !fits() && l.TextStyle.Font.Size > legendMinFont {
		l.TextStyle.Font.Size = max(l.TextStyle.Font.Size-1, legendMinFont)
	}
	return w, h
}

// legendRows is how many steps the places tried between the top and
// the bottom of the plot area are apart.
const legendRows = 6

// legendGroup draws the legend on its box, as SVG elements in a g of
// class legend to splice into the chart's origin-moved group.
func legendGroup(l *plot.Legend, area vg.Rectangle, cov *coverage, w, h vg.Length) (string, error) {
	box := legendBox(l, area, cov)
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	var frame vg.Path
	frame.Move(box.Min)
	frame.Line(vg.Point{X: box.Max.X, Y: box.Min.Y})
	frame.Line(box.Max)
	frame.Line(vg.Point{X: box.Min.X, Y: box.Max.Y})
	frame.Close()
	dc.SetColor(legendBackground)
	dc.Fill(frame)
	dc.SetColor(legendBorder)
	dc.SetLineWidth(vg.Points(0.6))
	dc.Stroke(frame)
	entries := *l
	entries.Top, entries.Left, entries.XOffs, entries.YOffs = true, true, 0, 0
	inner := vg.Rectangle{Min: vg.Point{X: box.Min.X + legendPad, Y: box.Min.Y + legendPad}, Max: vg.Point{X: box.Max.X - legendPad, Y: box.Max.Y - legendPad}}
	entries.Draw(draw.Canvas{Canvas: dc, Rectangle: inner})
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	doc := buf.String()
	// The elements lie between the origin transform vgsvg opens and the
	// group and svg it closes.
	open := strings.Index(doc, "<g transform=")
	end := strings.LastIndex(doc, "</g>\n</svg>")
	if open < 0 || end < open {
		return "", fmt.Errorf("legend: unexpected SVG layout")
	}
	body := doc[open:end]
	body = body[strings.Index(body, ">")+1:]
	return `<g class="legend">` + strings.TrimLeft(body, "\n") + "</g>\n", nil
}
