package plotsvg

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MarkShape is how a Marks series draws each point.
type MarkShape int

// The shapes of Marks.
const (
	// Square is a filled square of side Size.
	Square MarkShape = iota
	// Tick is a vertical stroke Size tall.
	Tick
)

// Marks is a scatter drawn compactly: all its points form one stroked
// path (a short thick segment per point), so that a chart of a few
// thousand marks stays a few tens of kilobytes of SVG, where one element
// per glyph would take several times that.
type Marks struct {
	XYs   []vg.Point // data coordinates, in X and Y
	Color color.Color
	Shape MarkShape
	Size  vg.Length
}

// Plot draws the marks.
func (m *Marks) Plot(c draw.Canvas, plt *plot.Plot) {
	if len(m.XYs) == 0 {
		return
	}
	trX, trY := plt.Transforms(&c)
	var p vg.Path
	half := m.Size / 2
	for _, xy := range m.XYs {
		x, y := trX(float64(xy.X)), trY(float64(xy.Y))
		if m.Shape == Tick {
			p.Move(vg.Point{X: x, Y: y - half})
			p.Line(vg.Point{X: x, Y: y + half})
		} else {
			p.Move(vg.Point{X: x - half, Y: y})
			p.Line(vg.Point{X: x + half, Y: y})
		}
	}
	c.SetColor(m.Color)
	if m.Shape == Tick {
		c.SetLineWidth(vg.Points(1.2))
	} else {
		c.SetLineWidth(m.Size)
	}
	c.SetLineDash(nil, 0)
	c.Stroke(p)
}

// DataRange returns the marks' extent.
func (m *Marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	if len(m.XYs) == 0 {
		return 0, 0, 0, 0
	}
	xmin, ymin = float64(m.XYs[0].X), float64(m.XYs[0].Y)
	xmax, ymax = xmin, ymin
	for _, p := range m.XYs {
		xmin, xmax = min(xmin, float64(p.X)), max(xmax, float64(p.X))
		ymin, ymax = min(ymin, float64(p.Y)), max(ymax, float64(p.Y))
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws one mark for the legend.
func (m *Marks) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	y := (c.Min.Y + c.Max.Y) / 2
	half := m.Size / 2
	var p vg.Path
	c.SetColor(m.Color)
	if m.Shape == Tick {
		p.Move(vg.Point{X: x, Y: y - half})
		p.Line(vg.Point{X: x, Y: y + half})
		c.SetLineWidth(vg.Points(1.2))
	} else {
		p.Move(vg.Point{X: x - half, Y: y})
		p.Line(vg.Point{X: x + half, Y: y})
		c.SetLineWidth(m.Size)
	}
	c.Stroke(p)
}
