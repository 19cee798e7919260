package plotsvg

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Lines is one series drawn as a line broken into runs: each run of
// consecutive points is a subpath of a single stroked path, so that a gap
// (a missing reading) leaves the line open instead of joining its
// neighbours, and a long series stays one SVG element. A run of one point
// is drawn as a short horizontal dash, so that it shows.
type Lines struct {
	Runs  [][]vg.Point // data coordinates, in X and Y
	Color color.Color
	Width vg.Length
}

// Plot draws the runs.
func (l *Lines) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	var p vg.Path
	for _, run := range l.Runs {
		if len(run) == 0 {
			continue
		}
		first := vg.Point{X: trX(float64(run[0].X)), Y: trY(float64(run[0].Y))}
		if len(run) == 1 {
			p.Move(vg.Point{X: first.X - 1.5*l.Width, Y: first.Y})
			p.Line(vg.Point{X: first.X + 1.5*l.Width, Y: first.Y})
			continue
		}
		p.Move(first)
		for _, xy := range run[1:] {
			p.Line(vg.Point{X: trX(float64(xy.X)), Y: trY(float64(xy.Y))})
		}
	}
	if len(p) == 0 {
		return
	}
	c.SetColor(l.Color)
	c.SetLineWidth(l.Width)
	c.SetLineDash(nil, 0)
	c.Stroke(p)
}

// DataRange returns the runs' extent.
func (l *Lines) DataRange() (xmin, xmax, ymin, ymax float64) {
	started := false
	for _, run := range l.Runs {
		for _, p := range run {
			x, y := float64(p.X), float64(p.Y)
			if !started {
				xmin, xmax, ymin, ymax, started = x, x, y, y, true
				continue
			}
			xmin, xmax = min(xmin, x), max(xmax, x)
			ymin, ymax = min(ymin, y), max(ymax, y)
		}
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws a stretch of the line for the legend.
func (l *Lines) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	var p vg.Path
	p.Move(vg.Point{X: c.Min.X, Y: y})
	p.Line(vg.Point{X: c.Max.X, Y: y})
	c.SetColor(l.Color)
	c.SetLineWidth(l.Width)
	c.SetLineDash(nil, 0)
	c.Stroke(p)
}
