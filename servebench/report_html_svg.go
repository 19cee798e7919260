package servebench

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/plotsvg"
)

// The HTML report's charts stay light whatever the run's size.
const (
	// cdfMaxSteps bounds the steps drawn for one empirical CDF; a larger
	// population is drawn through this many evenly spaced order
	// statistics (the first and the last among them).
	cdfMaxSteps = 400
	// scatterMaxMarks bounds the marks of the timeline scatter.
	scatterMaxMarks = 2000
)

// The charts' sizes in points.
const (
	cdfW, cdfH          = 5.4 * vg.Inch, 3 * vg.Inch
	scatterW, scatterH  = 11 * vg.Inch, 4 * vg.Inch
	scatterGridW        = 960.0 // the nominal plot the thinning grid divides, in px
	scatterGridH        = 300.0
	scatterLaneGridH    = 16.0
	scatterLaneFraction = 0.07 // a lane's height, as a share of the y axis above zero
	scatterMarkSize     = 3.2  // points
	scatterTickMarkSize = 7.0
)

// svgCDF is one empirical CDF chart, drawn with gonum/plot.
type svgCDF struct {
	Title, Caption, Empty string
	SVG                   template.HTML
	// Points are the staircase's corners in data units (ms, share): the
	// start at the smallest value, then one per drawn order statistic.
	Points [][2]float64
	Steps  int
}

// cdfBoundSpec is a declared bound to mark on a CDF.
type cdfBoundSpec struct {
	ms    float64
	label string
}

// cdfBound returns the bound to draw when it is declared and judges the
// plotted metric; nil otherwise.
func cdfBound(ms float64, judgesThisMetric bool, label string) *cdfBoundSpec {
	if ms <= 0 || !judgesThisMetric {
		return nil
	}
	return &cdfBoundSpec{ms: ms, label: label}
}

// successValues collects one finite metric over successful requests.
func successValues(r *Report, get func(*RequestScore) *float64) []float64 {
	var xs []float64
	for i := range r.Requests {
		q := &r.Requests[i]
		if q.Status != StatusSuccess {
			continue
		}
		if v := get(q); v != nil && finite(*v) {
			xs = append(xs, *v)
		}
	}
	return xs
}

// cdfChart draws the empirical CDF of xs as a staircase: at each drawn
// order statistic x(i) (0-based) the curve rises to (i+1)/N. Up to
// cdfMaxSteps values every step is drawn; beyond, evenly spaced order
// statistics are, and the caption says how many.
func cdfChart(title string, xs []float64, bound *cdfBoundSpec) svgCDF {
	c := svgCDF{Title: title}
	n := len(xs)
	if n == 0 {
		c.Empty = "no successful request has this metric"
		return c
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	xy := plotsvg.CDFSteps(xs, cdfMaxSteps)
	for _, pt := range xy {
		c.Points = append(c.Points, [2]float64{pt.X, pt.Y})
	}
	c.Steps = len(c.Points) - 1
	if n <= cdfMaxSteps {
		c.Caption = fmt.Sprintf("%d successful requests; every step drawn.", n)
	} else {
		c.Caption = fmt.Sprintf("%d successful requests; drawn through %d evenly spaced order statistics.", n, c.Steps)
	}
	if bound != nil {
		frac := fractionOf(countAtMost(xs, bound.ms), n)
		c.Caption += fmt.Sprintf(" %d of %d (%s) at or below the %s of %s ms.", countAtMost(xs, bound.ms), n, htmlPercent(frac), bound.label, htmlMS(bound.ms))
	}

	p := plotsvg.New("", "milliseconds", "share of requests")
	line, err := plotter.NewLine(xy)
	if err != nil {
		c.Empty = err.Error()
		return c
	}
	line.StepStyle = plotter.PostStep
	line.Color, line.Width = plotsvg.Palette[0], vg.Points(1.4)
	p.Add(line)
	p.X.Min, p.Y.Min, p.Y.Max = min(0, xs[0]), 0, 1
	if bound != nil {
		p.X.Max = max(p.X.Max, bound.ms*1.05) // the bound's line clears the frame
		b, err := plotter.NewLine(plotter.XYs{{X: bound.ms, Y: 0}, {X: bound.ms, Y: 1}})
		if err == nil {
			b.Color, b.Dashes, b.Width = color.RGBA{179, 38, 30, 255}, []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1)
			p.Add(b)
			p.Legend.Add(bound.label+" "+htmlMS(bound.ms)+" ms", b)
		}
	}
	p.Y.Tick.Marker = plotsvg.ShareTicks{}
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.YOffs = vg.Points(14)
	svg, err := plotsvg.RenderLegendInside(p, cdfW, cdfH)
	if err != nil {
		c.Empty = err.Error()
		return c
	}
	c.SVG = template.HTML(svg)
	return c
}

// countAtMost counts the sorted values at or below v.
func countAtMost(sorted []float64, v float64) int {
	i, found := slices.BinarySearch(sorted, v)
	for found && i < len(sorted) && sorted[i] == v {
		i++
	}
	return i
}

// svgScatter is the timeline chart: scheduled time against TTFT from the
// scheduled time, with failed requests in lanes under the plot.
type svgScatter struct {
	Caption, Empty string
	SVG            template.HTML
	Series         []svgSeries
}

// svgSeries is one kind of mark: a CSS class (k0 qualified, k1
// unqualified success, k2 and up a failed status) that colours its legend
// swatch, its legend, how many requests it holds, how many marks stand for
// them, and the drawn marks in data units (s from the run's start, ms or
// the lane's position).
type svgSeries struct {
	Class, Legend, Shape string
	Requests, Marks      int
	Drawn                [][2]float64
}

// statusClass gives each status a fixed colour class, so that a status
// looks the same in every report.
var statusClass = map[Status]string{
	StatusHTTPError: "k2", StatusStreamError: "k3", StatusTimeout: "k4", StatusRejected: "k5",
	StatusCancelled: "k6", StatusNotSent: "k7", StatusEmptyOutput: "k8",
}

// classColor is each class's colour, as the page's CSS has it.
var classColor = map[string]color.RGBA{
	"k0": {0x00, 0x9E, 0x73, 255}, "k1": {0xD5, 0x5E, 0x00, 255}, "k2": {0, 0, 0, 255}, "k3": {0xCC, 0x79, 0xA7, 255},
	"k4": {0x00, 0x72, 0xB2, 255}, "k5": {0xE6, 0x9F, 0x00, 255}, "k6": {0x7f, 0x7f, 0x7f, 255}, "k7": {0x56, 0xB4, 0xE9, 255},
	"k8": {0x8B, 0x45, 0x13, 255}, "k9": {0xbb, 0xbb, 0xbb, 255},
}

// scatterMark is one request's place in the scatter: its data point and
// its position on the nominal thinning grid.
type scatterMark struct {
	x, y   float64 // nominal px
	dx, dy float64 // data
	series int
}

// scatterChart draws each request at its scheduled time: a success at its
// TTFT from the scheduled time (round marks when qualified, square when
// not), any other status as a tick in that status's lane below the plot.
// Beyond scatterMaxMarks marks the chart is thinned deterministically:
// within each series only the first request (in schedule order) of each
// square cell of a nominal 960 × 300 px plot is drawn, the cell growing
// from 2 px until the marks fit, so isolated outliers always stay.
func scatterChart(r *Report) svgScatter {
	s := svgScatter{}
	if len(r.Requests) == 0 {
		s.Empty = "no requests"
		return s
	}
	// Series: qualified, unqualified successes, then each failed status
	// present, in report order.
	s.Series = []svgSeries{
		{Class: "k0", Legend: "success, qualified", Shape: "square"},
		{Class: "k1", Legend: "success, not qualified", Shape: "square"},
	}
	laneOf := map[Status]int{}
	statuses := statusesIn(r)
	present := map[Status]bool{}
	for i := range r.Requests {
		q := &r.Requests[i]
		present[q.Status] = true
		if q.Status != StatusSuccess && !slices.Contains(statuses, q.Status) {
			statuses = append(statuses, q.Status)
		}
	}
	for _, st := range statuses {
		if st == StatusSuccess || !present[st] {
			continue
		}
		laneOf[st] = len(s.Series)
		class := statusClass[st]
		if class == "" {
			class = "k9"
		}
		s.Series = append(s.Series, svgSeries{Class: class, Legend: string(st), Shape: "tick"})
	}
	lanes := len(s.Series) - 2

	xMin, xMax := r.WindowMS[0], r.WindowMS[1]
	yMax := 0.0
	for i := range r.Requests {
		q := &r.Requests[i]
		if finite(q.ScheduledMS) {
			xMin, xMax = min(xMin, q.ScheduledMS), max(xMax, q.ScheduledMS)
		}
		if q.Status == StatusSuccess && q.TTFTFromScheduledMS != nil && finite(*q.TTFTFromScheduledMS) {
			yMax = max(yMax, *q.TTFTFromScheduledMS)
		}
	}
	if !finite(xMin) || !finite(xMax) {
		xMin, xMax = 0, 1
	}
	if !(xMax > xMin) {
		xMax = xMin + 1
	}
	ttftBound := 0.0
	if r.SLO.TTFTFromScheduled && r.SLO.TTFT > 0 {
		ttftBound = millis(r.SLO.TTFT)
		yMax = max(yMax, ttftBound)
	}
	if !(yMax > 0) {
		yMax = 1
	}
	laneStep := yMax * scatterLaneFraction
	laneY := func(lane int) float64 { return -float64(lane+1) * laneStep }

	marks := make([]scatterMark, 0, len(r.Requests))
	for i := range r.Requests {
		q := &r.Requests[i]
		if !finite(q.ScheduledMS) {
			continue
		}
		m := scatterMark{dx: q.ScheduledMS / 1000, x: (q.ScheduledMS - xMin) / (xMax - xMin) * scatterGridW}
		switch {
		case q.Status == StatusSuccess && q.TTFTFromScheduledMS != nil && finite(*q.TTFTFromScheduledMS):
			m.series = 1
			if q.Qualified {
				m.series = 0
			}
			m.dy = *q.TTFTFromScheduledMS
			m.y = scatterGridH - m.dy/yMax*scatterGridH
		case q.Status != StatusSuccess:
			m.series = laneOf[q.Status]
			m.dy = laneY(m.series - 2)
			m.y = scatterGridH + 6 + scatterLaneGridH*float64(m.series-2) + scatterLaneGridH/2
		default:
			continue // a success without a first content time cannot be placed
		}
		marks = append(marks, m)
		s.Series[m.series].Requests++
	}
	drawn, cell := thinMarks(marks, scatterMaxMarks)
	for _, m := range drawn {
		se := &s.Series[m.series]
		se.Drawn = append(se.Drawn, [2]float64{m.dx, m.dy})
		se.Marks++
	}

	p := plotsvg.New("", "scheduled time (s from the run's start)", "TTFT from scheduled (ms)")
	for i := range s.Series {
		se := &s.Series[i]
		mk := &plotsvg.Marks{Color: classColor[se.Class], Size: vg.Points(scatterMarkSize)}
		if se.Shape == "tick" {
			mk.Shape, mk.Size = plotsvg.Tick, vg.Points(scatterTickMarkSize)
		}
		for _, d := range se.Drawn {
			mk.XYs = append(mk.XYs, vg.Point{X: vg.Length(d[0]), Y: vg.Length(d[1])})
		}
		p.Add(mk)
	}
	if ttftBound > 0 {
		b, err := plotter.NewLine(plotter.XYs{{X: xMin / 1000, Y: ttftBound}, {X: xMax / 1000, Y: ttftBound}})
		if err == nil {
			b.Color, b.Dashes, b.Width = color.RGBA{179, 38, 30, 255}, []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1)
			p.Add(b)
			p.Legend.Add("TTFT bound "+htmlMS(ttftBound)+" ms (from the scheduled time)", b)
		}
	}
	p.X.Min, p.X.Max = xMin/1000, xMax/1000
	p.Y.Min, p.Y.Max = laneY(lanes)+laneStep/2, yMax*1.02
	if lanes == 0 {
		p.Y.Min = 0
	}
	lt := laneTicks{}
	for i := 2; i < len(s.Series); i++ {
		lt.at = append(lt.at, laneY(i-2))
		lt.labels = append(lt.labels, fmt.Sprintf("%s (%d)", s.Series[i].Legend, s.Series[i].Requests))
	}
	p.Y.Tick.Marker = lt
	svg, err := plotsvg.Render(p, scatterW, scatterH+vg.Length(lanes)*vg.Points(10))
	if err != nil {
		s.Empty = err.Error()
		return s
	}
	s.SVG = template.HTML(svg)

	placed := 0
	for _, se := range s.Series {
		placed += se.Requests
	}
	s.Caption = fmt.Sprintf("%d of %d offered requests placed; %d marks drawn", placed, len(r.Requests), len(drawn))
	if cell > 0 {
		s.Caption += fmt.Sprintf(" (thinned: within each kind, the first request of each %s-px cell of a %.0f × %.0f px grid stands for the others in it)",
			strconv.FormatFloat(cell, 'f', 1, 64), scatterGridW, scatterGridH)
	} else {
		s.Caption += ", one per request"
	}
	s.Caption += ". y: TTFT from the scheduled time, first content − scheduled (ms); requests that did not succeed sit in their status's lane below zero."
	if ttftBound == 0 && r.SLO.TTFT > 0 {
		s.Caption += fmt.Sprintf(" The TTFT bound (%s ms) judges first content − sent, so it is not drawn here: the mark's kind carries the verdict.", htmlMS(millis(r.SLO.TTFT)))
	}
	return s
}

// laneTicks labels the y axis with gonum/plot's ticks above zero and the
// failure lanes, by status and count, below it.
type laneTicks struct {
	at     []float64
	labels []string
}

// Ticks returns the ticks of [lo, hi].
func (l laneTicks) Ticks(lo, hi float64) []plot.Tick {
	t := plotsvg.Ticks{}.Ticks(max(lo, 0), hi)
	for i, y := range l.at {
		t = append(t, plot.Tick{Value: y, Label: l.labels[i]})
	}
	return t
}

// thinMarks returns marks unchanged when they fit in limit; otherwise it
// keeps, per series, the first mark of each cell of a square grid, growing
// the cell from 2 px by a quarter at a time until the kept marks fit, and
// returns the cell size.
func thinMarks(marks []scatterMark, limit int) ([]scatterMark, float64) {
	if len(marks) <= limit {
		return marks, 0
	}
	type key struct {
		series int
		cx, cy int
	}
	kept := make([]scatterMark, 0, limit)
	for cell := 2.0; ; cell *= 1.25 {
		seen := make(map[key]bool, limit)
		kept = kept[:0]
		for _, m := range marks {
			k := key{m.series, int(math.Floor(m.x / cell)), int(math.Floor(m.y / cell))}
			if !seen[k] {
				seen[k] = true
				kept = append(kept, m)
			}
		}
		if len(kept) <= limit || cell > 4096 {
			return kept, cell
		}
	}
}
