package servebench

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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

// svgText is one label placed in a chart.
type svgText struct {
	X, Y, Text, Anchor string
}

// svgAxes is a chart's frame: its size, plot rectangle, grid and labels.
type svgAxes struct {
	W, H                        int
	Left, Top, PlotW, PlotH     string
	Grid                        string
	XTicks, YTicks              []svgText
	XLabel, YLabel              svgText
	left, top, right, bottom    float64
	xLo, xHi, yLo, yHi, xFactor float64
}

// x maps a data value to its horizontal position.
func (a *svgAxes) x(v float64) float64 {
	return a.left + (v*a.xFactor-a.xLo)/(a.xHi-a.xLo)*(a.right-a.left)
}

// y maps a data value to its vertical position.
func (a *svgAxes) y(v float64) float64 {
	return a.bottom - (v-a.yLo)/(a.yHi-a.yLo)*(a.bottom-a.top)
}

// newAxes lays out a frame whose x axis spans [0 or xMin, xMax] in data
// units shown multiplied by xFactor, and whose y axis spans [0, yMax];
// gridBottom is where vertical grid lines end (below the plot when lanes
// hang under it).
func newAxes(w, h int, left, top, right, bottom, gridBottom float64, xMin, xMax, xFactor, yMax float64, yPercent bool, xLabel, yLabel string) *svgAxes {
	a := &svgAxes{W: w, H: h, left: left, top: top, right: right, bottom: bottom, xFactor: xFactor}
	a.Left, a.Top, a.PlotW, a.PlotH = svgNum(left), svgNum(top), svgNum(right-left), svgNum(bottom-top)
	var grid strings.Builder
	xStep := niceStep((xMax-xMin)*xFactor, 8)
	a.xLo = math.Floor(xMin*xFactor/xStep) * xStep
	a.xHi = math.Ceil(xMax*xFactor/xStep) * xStep
	if a.xHi <= a.xLo {
		a.xHi = a.xLo + xStep
	}
	if !(a.xHi > a.xLo) { // a span below the values' precision
		a.xLo, a.xHi = xMin*xFactor-1, xMax*xFactor+1
		xStep = a.xHi - a.xLo
	}
	for k := 0; k <= min(50, int(math.Round((a.xHi-a.xLo)/xStep))); k++ {
		v := a.xLo + float64(k)*xStep
		px := left + (v-a.xLo)/(a.xHi-a.xLo)*(right-left)
		fmt.Fprintf(&grid, "M%s %sV%s", svgNum(px), svgNum(top), svgNum(gridBottom))
		a.XTicks = append(a.XTicks, svgText{X: svgNum(px), Y: svgNum(gridBottom + 14), Text: svgTickLabel(v, xStep), Anchor: "middle"})
	}
	a.yLo = 0
	yStep := 0.25
	if !yPercent {
		yStep = niceStep(yMax, 5)
	}
	a.yHi = math.Ceil(yMax/yStep) * yStep
	if a.yHi <= 0 {
		a.yHi = yStep
	}
	for k := 0; k <= min(50, int(math.Round(a.yHi/yStep))); k++ {
		v := float64(k) * yStep
		py := a.y(v)
		fmt.Fprintf(&grid, "M%s %sH%s", svgNum(left), svgNum(py), svgNum(right))
		label := svgTickLabel(v, yStep)
		if yPercent {
			label = strconv.FormatFloat(v*100, 'f', 0, 64) + "%"
		}
		a.YTicks = append(a.YTicks, svgText{X: svgNum(left - 6), Y: svgNum(py + 4), Text: label, Anchor: "end"})
	}
	a.Grid = grid.String()
	a.XLabel = svgText{X: svgNum((left + right) / 2), Y: svgNum(gridBottom + 32), Text: xLabel, Anchor: "middle"}
	// The y label is drawn rotated a quarter turn: x is minus the
	// vertical position.
	a.YLabel = svgText{X: svgNum(-(top + bottom) / 2), Y: "12", Text: yLabel, Anchor: "middle"}
	return a
}

// niceStep is a round step (1, 2, 2.5 or 5 times a power of ten) that cuts
// span into about n intervals.
func niceStep(span float64, n int) float64 {
	if !(span > 0) || !finite(span) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// svgTickLabel prints a tick value with no more decimals than its step.
func svgTickLabel(v, step float64) string {
	decimals := 0
	for s := step; s < 1 && decimals < 6; s *= 10 {
		decimals++
	}
	if math.Abs(v) < step/1e6 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// svgNum prints a coordinate with one decimal, "12" rather than "12.0".
func svgNum(v float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}

// svgLine is a labelled reference line, such as a declared bound.
type svgLine struct {
	D     string
	Label svgText
}

// svgCDF is one empirical CDF chart.
type svgCDF struct {
	Title, Caption, Empty string
	Axes                  *svgAxes
	Path                  string
	Steps                 int
	Bound                 *svgLine
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
	xMax := xs[n-1]
	if bound != nil {
		xMax = max(xMax, bound.ms*1.05) // the bound's line clears the frame
	}
	a := newAxes(540, 270, 56, 10, 524, 220, 220, min(0, xs[0]), xMax, 1, 1, true, "milliseconds", "share of requests")
	c.Axes = a
	ranks := make([]int, 0, min(n, cdfMaxSteps))
	if n <= cdfMaxSteps {
		for i := range n {
			ranks = append(ranks, i)
		}
	} else {
		for k := range cdfMaxSteps {
			ranks = append(ranks, int(math.Round(float64(k)*float64(n-1)/float64(cdfMaxSteps-1))))
		}
	}
	c.Steps = len(ranks)
	var d strings.Builder
	fmt.Fprintf(&d, "M%s %s", svgNum(a.x(xs[0])), svgNum(a.y(0)))
	for _, i := range ranks {
		fmt.Fprintf(&d, "H%sV%s", svgNum(a.x(xs[i])), svgNum(a.y(float64(i+1)/float64(n))))
	}
	fmt.Fprintf(&d, "H%s", svgNum(a.right))
	c.Path = d.String()
	if n <= cdfMaxSteps {
		c.Caption = fmt.Sprintf("%d successful requests; every step drawn.", n)
	} else {
		c.Caption = fmt.Sprintf("%d successful requests; drawn through %d evenly spaced order statistics.", n, c.Steps)
	}
	if bound != nil {
		bx := a.x(bound.ms)
		label := svgText{X: svgNum(bx + 4), Y: svgNum(a.bottom - 8), Text: bound.label + " " + htmlMS(bound.ms) + " ms", Anchor: "start"}
		if bx > (a.left+a.right)/2 {
			label.X, label.Anchor = svgNum(bx-4), "end"
		}
		c.Bound = &svgLine{D: fmt.Sprintf("M%s %sV%s", svgNum(bx), svgNum(a.top), svgNum(a.bottom)), Label: label}
		frac := fractionOf(countAtMost(xs, bound.ms), n)
		c.Caption += fmt.Sprintf(" %d of %d (%s) at or below the %s of %s ms.", countAtMost(xs, bound.ms), n, htmlPercent(frac), bound.label, htmlMS(bound.ms))
	}
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
	Axes           *svgAxes
	Series         []svgSeries
	Lanes          []svgText
	Bound          *svgLine
}

// svgSeries is one kind of mark: a CSS class (k0 qualified, k1
// unqualified success, k2 and up a failed status), its legend, how many
// requests it holds and how many marks stand for them.
type svgSeries struct {
	Class, Legend, D, Shape string
	Requests, Marks         int
}

// statusClass gives each status a fixed colour class, so that a status
// looks the same in every report.
var statusClass = map[Status]string{
	StatusHTTPError: "k2", StatusStreamError: "k3", StatusTimeout: "k4", StatusRejected: "k5",
	StatusCancelled: "k6", StatusNotSent: "k7", StatusEmptyOutput: "k8",
}

// scatterMark is one request's place in the scatter.
type scatterMark struct {
	x, y   float64
	series int
}

// scatterChart draws each request at its scheduled time: a success at its
// TTFT from the scheduled time (round marks when qualified, square when
// not), any other status as a tick in that status's lane below the plot.
// Beyond scatterMaxMarks marks the chart is thinned deterministically:
// within each series only the first request (in schedule order) of each
// square cell is drawn, the cell growing from 2 px until the marks fit,
// so isolated outliers always stay.
func scatterChart(r *Report) svgScatter {
	s := svgScatter{}
	if len(r.Requests) == 0 {
		s.Empty = "no requests"
		return s
	}
	// Series: qualified, unqualified successes, then each failed status
	// present, in report order.
	s.Series = []svgSeries{
		{Class: "k0", Legend: "success, qualified", Shape: "dot"},
		{Class: "k1", Legend: "success, not qualified", Shape: "square"},
	}
	laneOf := map[Status]int{}
	statuses := statusesIn(r)
	for _, q := range r.Requests {
		if q.Status != StatusSuccess && !slices.Contains(statuses, q.Status) {
			statuses = append(statuses, q.Status)
		}
	}
	present := map[Status]bool{}
	for i := range r.Requests {
		present[r.Requests[i].Status] = true
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
	ttftBound := 0.0
	if r.SLO.TTFTFromScheduled && r.SLO.TTFT > 0 {
		ttftBound = millis(r.SLO.TTFT)
		yMax = max(yMax, ttftBound)
	}
	const top, right, plotH, laneH = 10.0, 1064.0, 300.0, 16.0
	left := 64.0 // room for the y ticks, widened for the lane labels
	for _, se := range s.Series[2:] {
		label := fmt.Sprintf("%s (%d)", se.Legend, len(r.Requests))
		left = min(max(left, 12+6.6*float64(utf8.RuneCountInString(label))), 260)
	}
	bottom := top + plotH
	gridBottom := bottom + 6 + laneH*float64(lanes)
	a := newAxes(1080, int(gridBottom+44), left, top, right, bottom, gridBottom, xMin, xMax, 0.001, yMax, false, "scheduled time (s from the run's start)", "TTFT from scheduled (ms)")
	s.Axes = a
	laneY := func(lane int) float64 { return bottom + 6 + laneH*float64(lane) + laneH/2 }

	marks := make([]scatterMark, 0, len(r.Requests))
	for i := range r.Requests {
		q := &r.Requests[i]
		if !finite(q.ScheduledMS) {
			continue
		}
		x := a.x(q.ScheduledMS)
		switch {
		case q.Status == StatusSuccess && q.TTFTFromScheduledMS != nil && finite(*q.TTFTFromScheduledMS):
			series := 1
			if q.Qualified {
				series = 0
			}
			marks = append(marks, scatterMark{x: x, y: a.y(*q.TTFTFromScheduledMS), series: series})
		case q.Status != StatusSuccess:
			lane := laneOf[q.Status]
			marks = append(marks, scatterMark{x: x, y: laneY(lane - 2), series: lane})
		default:
			continue // a success without a first content time cannot be placed
		}
		s.Series[marks[len(marks)-1].series].Requests++
	}
	drawn, cell := thinMarks(marks, scatterMaxMarks)
	paths := make([]strings.Builder, len(s.Series))
	for _, m := range drawn {
		p := &paths[m.series]
		if s.Series[m.series].Shape == "tick" {
			fmt.Fprintf(p, "M%s %sv10", svgNum(m.x), svgNum(m.y-5))
		} else {
			fmt.Fprintf(p, "M%s %sh0", svgNum(m.x), svgNum(m.y))
		}
		s.Series[m.series].Marks++
	}
	for i := range s.Series {
		s.Series[i].D = paths[i].String()
		if i >= 2 {
			s.Lanes = append(s.Lanes, svgText{X: svgNum(left - 6), Y: svgNum(laneY(i-2) + 4),
				Text: fmt.Sprintf("%s (%d)", s.Series[i].Legend, s.Series[i].Requests), Anchor: "end"})
		}
	}
	if ttftBound > 0 {
		by := a.y(ttftBound)
		s.Bound = &svgLine{D: fmt.Sprintf("M%s %sH%s", svgNum(left), svgNum(by), svgNum(right)),
			Label: svgText{X: svgNum(right - 4), Y: svgNum(by - 4), Text: "TTFT bound " + htmlMS(ttftBound) + " ms (judged from the scheduled time)", Anchor: "end"}}
	}
	placed := 0
	for _, se := range s.Series {
		placed += se.Requests
	}
	s.Caption = fmt.Sprintf("%d of %d offered requests placed; %d marks drawn", placed, len(r.Requests), len(drawn))
	if cell > 0 {
		s.Caption += fmt.Sprintf(" (thinned: within each kind, the first request of each %s-px cell stands for the others in it)", svgNum(cell))
	} else {
		s.Caption += ", one per request"
	}
	s.Caption += ". y: TTFT from the scheduled time, first content − scheduled (ms); requests that did not succeed sit in their status's lane."
	if ttftBound == 0 && r.SLO.TTFT > 0 {
		s.Caption += fmt.Sprintf(" The TTFT bound (%s ms) judges first content − sent, so it is not drawn here: the mark's kind carries the verdict.", htmlMS(millis(r.SLO.TTFT)))
	}
	return s
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
