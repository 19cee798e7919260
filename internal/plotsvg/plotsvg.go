// Package plotsvg draws gonum.org/v1/plot charts as SVG elements to inline
// in a self-contained HTML page: no XML declaration, a view box that
// scales with the page, and text in Liberation Sans (the metrics gonum/plot
// lays text out with) falling back to its metric-compatible equivalents,
// so labels keep their measured widths without embedding a font file.
package plotsvg

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// pathData matches a path's d attribute; decimal a number with a
// fraction in it.
var (
	pathData = regexp.MustCompile(` d="[^"]*"`)
	decimal  = regexp.MustCompile(`-?[0-9]+\.[0-9]+(e-?[0-9]+)?`)
)

// Sans is the typeface the charts are laid out with.
var Sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// fontFallback lists the browser fonts with Liberation Sans's metrics.
const fontFallback = "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;"

// Palette holds distinguishable colours (Okabe–Ito, safe for colour
// blindness), in the order series take them.
var Palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{153, 153, 153, 255}, // grey
	color.RGBA{0, 0, 0, 255},       // black
}

// Grey is the colour of marks drawn for context only.
var Grey = color.RGBA{170, 170, 170, 255}

// New returns an empty plot with the title and axis labels set in Sans
// and a light grid.
func New(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, s := range []*draw.TextStyle{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		s.Font.Typeface, s.Font.Variant = Sans.Typeface, Sans.Variant
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Tick.Marker, p.Y.Tick.Marker = Ticks{}, Ticks{}
	return p
}

// Ticks are round ticks (1, 2, 2.5 or 5 times a power of ten) cutting
// the axis into about six labelled steps, with an unlabelled mark halfway
// through each, labelled in the fewest digits that tell them apart ("2500",
// "0.6", not "2500.00" or "0.6000000000000001").
type Ticks struct{}

// Ticks returns the tick marks of [lo, hi].
func (Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := niceStep(hi-lo, 6)
	minor := step / 2
	var t []plot.Tick
	for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+minor*1e-9 && len(t) < 200; k++ {
		v := k * minor
		if math.Abs(v) < minor*1e-9 {
			v = 0
		}
		tick := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-9 {
			// Ten significant digits drop the binary noise of a step.
			tick.Label = strconv.FormatFloat(v, 'g', 10, 64)
		}
		t = append(t, tick)
	}
	return t
}

// niceStep is a round step that cuts span into about n intervals.
func niceStep(span float64, n int) float64 {
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// Render draws p at w × h points and returns the SVG element. The legend,
// when p has one, is drawn inside the plot area, on a white box, where it
// hides the least of what the plot draws (legendBox: a corner when one
// is as free as any other place), whatever p's Legend says about its
// place; too long for the plot area, its text shrinks. The element marks
// the plot area with an invisible rect of class plot-area and groups the
// legend's elements in a g of class legend, so that a test can check
// that the one lies within the other.
func Render(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.New(w, h)
	cov := newCoverage(c)
	dc := draw.New(cov)
	legend := p.Legend
	p.Legend = plot.NewLegend()
	p.Draw(dc)
	area := p.DataCanvas(dc).Rectangle
	p.Legend = legend
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("render chart %q: %w", p.Title.Text, err)
	}
	doc := buf.String()
	marks := fmt.Sprintf(`<rect class="plot-area" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="none" />`+"\n",
		area.Min.X.Points(), area.Min.Y.Points(), (area.Max.X - area.Min.X).Points(), (area.Max.Y - area.Min.Y).Points())
	if size := legend.Rectangle(dc).Size(); size.X > 0 && size.Y > 0 {
		g, err := legendGroup(&legend, area, cov, w, h)
		if err != nil {
			return "", fmt.Errorf("render chart %q: %w", p.Title.Text, err)
		}
		marks += g
	}
	// Before the groups vgsvg closes at the end: its origin transform
	// and the svg.
	i := strings.LastIndex(doc, "</g>\n</svg>")
	if i < 0 {
		return "", fmt.Errorf("render chart %q: no closing group in the SVG", p.Title.Text)
	}
	return inline(doc[:i]+marks+doc[i:], w, h), nil
}

// inline turns vgsvg's standalone document into an element for an HTML
// page.
func inline(doc string, w, h vg.Length) string {
	if i := strings.Index(doc, "<svg"); i >= 0 {
		doc = doc[i:]
	}
	// A fixed size in points becomes a width that shrinks with the page.
	if j := strings.Index(doc, "viewBox="); j >= 0 {
		doc = fmt.Sprintf(`<svg role="img" width="100%%" style="max-width:%.0fpx" `, w.Points()*4/3) + doc[j:]
	}
	doc = strings.ReplaceAll(doc, "font-family:Liberation Sans;", fontFallback)
	// Path coordinates to a tenth of a point (vgsvg writes five
	// significant digits): invisible on screen, a third off the bytes of
	// a dense chart.
	doc = pathData.ReplaceAllStringFunc(doc, func(attr string) string {
		return decimal.ReplaceAllStringFunc(attr, func(num string) string {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return num
			}
			out := strconv.FormatFloat(v, 'f', 1, 64)
			out = strings.TrimSuffix(out, ".0")
			if out == "-0" {
				out = "0"
			}
			return out
		})
	})
	// Inline SVG in HTML needs no namespace declarations, and the page
	// then names no external address at all.
	doc = strings.Replace(doc, "\n\txmlns=\"http://www.w3.org/2000/svg\"\n\txmlns:xlink=\"http://www.w3.org/1999/xlink\"", "", 1)
	return doc
}
