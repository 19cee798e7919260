package sweepreport

import (
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/servebench/servebench/internal/plotsvg"
)

// The Pareto chart's label metrics, in points: the font size, the
// width of an average character of Liberation Sans at that size, the
// label's height, the gap between a mark and its label, and the plot
// area's approximate size inside the chart (axes and the legend column
// taken out), which turns a label's size into data units.
const (
	paretoLabelSize  = 7.5
	paretoCharWidth  = 0.56 * paretoLabelSize
	paretoLabelH     = 1.3 * paretoLabelSize
	paretoLabelGap   = 4
	paretoPlotWidth  = chartW - 60 // chartW less the y axis
	paretoPlotHeight = chartH - 60 // chartH less the x axis
)

// missedColour draws the runs that did not meet the SLO: a grey dark
// enough to read on white.
var missedColour = color.RGBA{105, 105, 105, 255}

// boldCross is draw.CrossGlyph stroked 1.6 points wide, so that a run
// that did not meet the SLO stays visible beside the coloured circles.
type boldCross struct{}

// DrawGlyph draws an × of the style's radius.
func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(1.6)}
	r := sty.Radius * 0.7071
	c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
	c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
}

// labelBox is a placed label's extent in data units.
type labelBox struct{ x0, x1, y0, y1 float64 }

func (a labelBox) overlaps(b labelBox) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// paretoLabels places "config @rate" labels right of their marks, or left
// when the right side would leave the plot or cover a placed label, front
// points first; a label that fits neither side is left out. It returns the
// plotters to add and how many labels were left out.
func paretoLabels(order []ParetoPoint, xMax, yMax float64) ([]plot.Plotter, int) {
	perX, perY := xMax/paretoPlotWidth, yMax/paretoPlotHeight // data units per point
	var placed []labelBox
	var right, left plotter.XYLabels
	omitted := 0
	for _, pt := range order {
		text := pt.Config + " @" + strconv.FormatFloat(pt.RateRPS, 'g', -1, 64)
		w := (float64(len(text))*paretoCharWidth + paretoLabelGap) * perX
		x, y := pt.OutputTokensPerS, pt.PerUserTokensPerS
		y0, y1 := y-paretoLabelH/2*perY, y+paretoLabelH/2*perY
		boxes := []labelBox{{x, x + w, y0, y1}, {x - w, x, y0, y1}}
		side := -1
		for i, b := range boxes {
			if b.x1 > xMax || b.x0 < 0 || len(placed) >= paretoLabelLimit {
				continue
			}
			free := true
			for _, q := range placed {
				if q.overlaps(b) {
					free = false
					break
				}
			}
			if free {
				side = i
				break
			}
		}
		if side < 0 {
			omitted++
			continue
		}
		placed = append(placed, boxes[side])
		dst := &right
		if side == 1 {
			dst = &left
		}
		dst.XYs = append(dst.XYs, plotter.XY{X: x, Y: y})
		dst.Labels = append(dst.Labels, text)
	}
	var out []plot.Plotter
	for i, set := range []plotter.XYLabels{right, left} {
		if len(set.XYs) == 0 {
			continue
		}
		labels, err := plotter.NewLabels(set)
		if err != nil {
			continue
		}
		for j := range labels.TextStyle {
			labels.TextStyle[j].Font = plotsvg.Sans
			labels.TextStyle[j].Font.Size = vg.Points(paretoLabelSize)
			labels.TextStyle[j].YAlign = draw.YCenter
			if i == 1 {
				labels.TextStyle[j].XAlign = draw.XRight
			}
		}
		labels.Offset = vg.Point{X: vg.Points(paretoLabelGap)}
		if i == 1 {
			labels.Offset.X = -vg.Points(paretoLabelGap)
		}
		out = append(out, labels)
	}
	return out, omitted
}
