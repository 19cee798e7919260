package plotsvg

import (
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// coverageStep is the spacing, in points, of the samples taken along
// what is drawn.
const coverageStep = 3

// coverage is a canvas that records where the plot draws, as points
// sampled every coverageStep along strokes, fill outlines and text, and
// passes every call on. What is drawn in a moved or rotated frame (the
// rotated y-axis label) lies outside the data area and is not recorded.
type coverage struct {
	vg.CanvasSizer
	moved  []bool // per pushed context: whether it moved the frame
	points []vg.Point
}

func newCoverage(c vg.CanvasSizer) *coverage { return &coverage{CanvasSizer: c, moved: []bool{false}} }

func (c *coverage) framed() bool { return c.moved[len(c.moved)-1] }

// Push saves the frame with the canvas's context.
func (c *coverage) Push() {
	c.moved = append(c.moved, c.framed())
	c.CanvasSizer.Push()
}

// Pop restores the frame.
func (c *coverage) Pop() {
	if len(c.moved) > 1 {
		c.moved = c.moved[:len(c.moved)-1]
	}
	c.CanvasSizer.Pop()
}

// Translate moves the frame.
func (c *coverage) Translate(pt vg.Point) {
	c.moved[len(c.moved)-1] = true
	c.CanvasSizer.Translate(pt)
}

// Rotate turns the frame.
func (c *coverage) Rotate(rad float64) {
	c.moved[len(c.moved)-1] = true
	c.CanvasSizer.Rotate(rad)
}

// Scale stretches the frame.
func (c *coverage) Scale(x, y float64) {
	c.moved[len(c.moved)-1] = true
	c.CanvasSizer.Scale(x, y)
}

// Stroke records the path's samples and strokes it.
func (c *coverage) Stroke(p vg.Path) {
	c.sample(p)
	c.CanvasSizer.Stroke(p)
}

// Fill records the path's samples and fills it.
func (c *coverage) Fill(p vg.Path) {
	c.sample(p)
	c.CanvasSizer.Fill(p)
}

// FillString records samples along the text's baseline and draws it.
func (c *coverage) FillString(f font.Face, pt vg.Point, text string) {
	if !c.framed() {
		c.segment(pt, vg.Point{X: pt.X + f.Width(text), Y: pt.Y})
	}
	c.CanvasSizer.FillString(f, pt, text)
}

// sample records the points of a path and of each straight piece between
// them; an arc is recorded by its centre.
func (c *coverage) sample(p vg.Path) {
	if c.framed() {
		return
	}
	var start, at vg.Point
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			start, at = comp.Pos, comp.Pos
			c.points = append(c.points, at)
		case vg.LineComp:
			c.segment(at, comp.Pos)
			at = comp.Pos
		case vg.CloseComp:
			c.segment(at, start)
			at = start
		default:
			at = comp.Pos
			c.points = append(c.points, at)
		}
	}
}

// segment records samples from a to b, both ends included.
func (c *coverage) segment(a, b vg.Point) {
	n := int(math.Ceil(math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)) / coverageStep))
	n = min(n, 2000)
	for i := 0; i <= n; i++ {
		t := 1.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		c.points = append(c.points, vg.Point{X: a.X + vg.Length(t)*(b.X-a.X), Y: a.Y + vg.Length(t)*(b.Y-a.Y)})
	}
}

// within counts the recorded points inside r.
func (c *coverage) within(r vg.Rectangle) int {
	n := 0
	for _, p := range c.points {
		if p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y {
			n++
		}
	}
	return n
}
