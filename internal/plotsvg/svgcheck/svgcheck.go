// Package svgcheck checks the layout of the charts plotsvg draws, from
// their SVG alone: each legend's box, computed from its elements'
// coordinates, must lie within the chart's viewBox and within its plot
// area. Tests of the pages that embed charts run it over every chart.
package svgcheck

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/plotsvg"
)

// Box is a rectangle in the chart's drawing coordinates (points, y up,
// as plotsvg draws).
type Box struct{ MinX, MinY, MaxX, MaxY float64 }

// String prints the box's corners.
func (b Box) String() string {
	return fmt.Sprintf("[%.1f, %.1f]×[%.1f, %.1f]", b.MinX, b.MaxX, b.MinY, b.MaxY)
}

func (b Box) contains(o Box) bool {
	const slack = 0.5 // points of rounding
	return o.MinX >= b.MinX-slack && o.MaxX <= b.MaxX+slack && o.MinY >= b.MinY-slack && o.MaxY <= b.MaxY+slack
}

func (b *Box) add(x, y float64) {
	b.MinX, b.MaxX = math.Min(b.MinX, x), math.Max(b.MaxX, x)
	b.MinY, b.MaxY = math.Min(b.MinY, y), math.Max(b.MaxY, y)
}

func empty() Box { return Box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} }

// Chart is what one chart's SVG says about its layout.
type Chart struct {
	ViewBox  Box
	PlotArea Box
	HasArea  bool
	Legends  []Box
}

var (
	svgElement = regexp.MustCompile(`(?s)<svg\b.*?</svg>`)
	number     = regexp.MustCompile(`-?[0-9]*\.?[0-9]+(e-?[0-9]+)?`)
	fontSize   = regexp.MustCompile(`font-size:([0-9.]+)px`)
)

// Charts returns the layout of every svg element in page.
func Charts(page string) ([]Chart, error) {
	var out []Chart
	for i, svg := range svgElement.FindAllString(page, -1) {
		c, err := Parse(svg)
		if err != nil {
			return nil, fmt.Errorf("chart %d: %w", i+1, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Parse reads one chart's viewBox, plot area and legend boxes. A legend's
// box spans every point of its paths and the extent of its text, measured
// in Liberation Sans at the text's size.
func Parse(svg string) (Chart, error) {
	var c Chart
	dec := xml.NewDecoder(strings.NewReader(svg))
	depth, legendDepth := 0, -1
	var legend Box
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return c, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if t.Name.Local == "text" && legendDepth > 0 {
				// Read whole, its end element with it.
				if err := addText(t, dec, &legend); err != nil {
					return c, err
				}
				depth--
				continue
			}
			if err := c.start(t, depth, &legendDepth, &legend); err != nil {
				return c, err
			}
		case xml.EndElement:
			if depth == legendDepth {
				c.Legends = append(c.Legends, legend)
				legendDepth = -1
			}
			depth--
		}
	}
	return c, nil
}

// start reads one element.
func (c *Chart) start(t xml.StartElement, depth int, legendDepth *int, legend *Box) error {
	switch t.Name.Local {
	case "svg":
		v := numbers(attr(t, "viewBox"))
		if len(v) != 4 {
			return fmt.Errorf("viewBox %q", attr(t, "viewBox"))
		}
		c.ViewBox = Box{v[0], v[1], v[0] + v[2], v[1] + v[3]}
	case "rect":
		if attr(t, "class") == "plot-area" {
			x, y, w, h := numbers(attr(t, "x")), numbers(attr(t, "y")), numbers(attr(t, "width")), numbers(attr(t, "height"))
			if len(x) != 1 || len(y) != 1 || len(w) != 1 || len(h) != 1 {
				return fmt.Errorf("plot area without a position")
			}
			c.PlotArea, c.HasArea = Box{x[0], y[0], x[0] + w[0], y[0] + h[0]}, true
		}
	case "g":
		if attr(t, "class") == "legend" {
			*legendDepth, *legend = depth, empty()
		}
	case "path":
		if *legendDepth > 0 {
			addPath(attr(t, "d"), legend)
		}
	}
	return nil
}

// addText adds a text element's extent: plotsvg writes text flipped
// (scale(1, -1)) in the y-up frame, so its baseline lies at −y.
func addText(t xml.StartElement, dec *xml.Decoder, b *Box) error {
	var s string
	if err := dec.DecodeElement(&s, &t); err != nil {
		return err
	}
	x, y := numbers(attr(t, "x")), numbers(attr(t, "y"))
	m := fontSize.FindStringSubmatch(attr(t, "style"))
	if len(x) != 1 || len(y) != 1 || m == nil {
		return fmt.Errorf("legend text %q without a position or size", s)
	}
	size, _ := strconv.ParseFloat(m[1], 64)
	f := plotsvg.Sans
	f.Size = vg.Points(size)
	face := font.DefaultCache.Lookup(f, f.Size)
	ext := face.Extents()
	base := -y[0]
	b.add(x[0], base-ext.Descent.Points())
	b.add(x[0]+face.Width(s).Points(), base+ext.Ascent.Points())
	return nil
}

// pathCommand is one command of a path's data with its numbers.
var pathCommand = regexp.MustCompile(`[MLAZ][^MLAZ]*`)

// addPath adds the points of a path's data, as vgsvg writes it (M, L, A
// and Z); an arc adds the box around the circle it is drawn on.
func addPath(d string, b *Box) {
	for _, cmd := range pathCommand.FindAllString(d, -1) {
		v := numbers(cmd[1:])
		switch {
		case cmd[0] == 'A' && len(v) == 7:
			r := math.Max(v[0], v[1])
			b.add(v[5]-2*r, v[6]-2*r)
			b.add(v[5]+2*r, v[6]+2*r)
		case cmd[0] == 'M' || cmd[0] == 'L':
			for i := 0; i+1 < len(v); i += 2 {
				b.add(v[i], v[i+1])
			}
		}
	}
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func numbers(s string) []float64 {
	var v []float64
	for _, n := range number.FindAllString(s, -1) {
		f, err := strconv.ParseFloat(n, 64)
		if err == nil {
			v = append(v, f)
		}
	}
	return v
}

// LegendsInside checks every chart of page: each legend's box lies within
// the chart's viewBox and its plot area. It returns how many legends it
// checked.
func LegendsInside(page string) (int, error) {
	charts, err := Charts(page)
	if err != nil {
		return 0, err
	}
	n := 0
	for i, c := range charts {
		for _, l := range c.Legends {
			n++
			if !c.ViewBox.contains(l) {
				return n, fmt.Errorf("chart %d: legend %v leaves the viewBox %v", i+1, l, c.ViewBox)
			}
			if !c.HasArea {
				return n, fmt.Errorf("chart %d: a legend but no plot area", i+1)
			}
			if !c.PlotArea.contains(l) {
				return n, fmt.Errorf("chart %d: legend %v leaves the plot area %v", i+1, l, c.PlotArea)
			}
		}
	}
	return n, nil
}
