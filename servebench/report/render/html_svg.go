package render

import (
	"cmp"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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

// cdfChart draws the empirical CDF of the sample as a staircase: at each
// drawn order statistic x(i) (0-based) the curve rises to (i+1)/N. Up to
// cdfMaxSteps values every step is drawn; beyond, evenly spaced order
// statistics are, and the caption says how many. Past cdfExactLimit values
// the order statistics are read from the sample's bins, and the caption
// says so.
func cdfChart(title string, s *cdfSample, bound *cdfBoundSpec) svgCDF {
	c := svgCDF{Title: title}
	n := s.n
	if n == 0 {
		c.Empty = "no successful request has this metric"
		return c
	}
	xy := s.steps(cdfMaxSteps)
	for _, pt := range xy {
		c.Points = append(c.Points, [2]float64{pt.X, pt.Y})
	}
	c.Steps = len(c.Points) - 1
	switch {
	case n <= cdfMaxSteps:
		c.Caption = fmt.Sprintf("%d successful requests; every step drawn.", n)
	case s.binned():
		c.Caption = fmt.Sprintf("%d successful requests; drawn through %d evenly spaced order statistics, each read from bins 1/%d of an octave wide (within 0.1%% below the exact value; the last is the exact maximum).", n, c.Steps, 1<<cdfBinBits)
	default:
		c.Caption = fmt.Sprintf("%d successful requests; drawn through %d evenly spaced order statistics.", n, c.Steps)
	}
	if bound != nil {
		frac := fractionOf(s.atOrBelow, n)
		c.Caption += fmt.Sprintf(" %d of %d (%s) at or below the %s of %s ms.", s.atOrBelow, n, htmlPercent(frac), bound.label, htmlMS(bound.ms))
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
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = min(0, s.min), s.max*1.02, 0, 1
	if !(p.X.Max > p.X.Min) {
		p.X.Max = p.X.Min + 1
	}
	if bound != nil {
		if err := markCDFBound(p, *bound); err != nil {
			c.Empty = err.Error()
			return c
		}
	}
	p.Y.Tick.Marker = plotsvg.ShareTicks{}
	svg, err := plotsvg.Render(p, cdfW, cdfH)
	if err != nil {
		c.Empty = err.Error()
		return c
	}
	c.SVG = template.HTML(svg)
	return c
}

// cdfBoundReach is how far past the largest value a CDF's axis reaches
// to draw a bound as a line, as a share of the axis fitted to the data;
// a bound farther off is marked by a label at the axis's end.
const cdfBoundReach = 0.25

// boundColor is the colour of a declared bound on a chart.
var boundColor = color.RGBA{179, 38, 30, 255}

// markCDFBound draws the bound on a CDF whose axis is fitted to the data:
// a dashed line, the axis stretched to clear it, when it lies within
// cdfBoundReach past the data; otherwise a label at the axis's right end
// pointing past it ("TTFT bound 500 ms →"), so that the data keep the
// width of the chart.
func markCDFBound(p *plot.Plot, b cdfBoundSpec) error {
	text := b.label + " " + htmlMS(b.ms) + " ms"
	if b.ms <= p.X.Max+(p.X.Max-p.X.Min)*cdfBoundReach {
		p.X.Max = max(p.X.Max, b.ms*1.02)
		l, err := plotter.NewLine(plotter.XYs{{X: b.ms, Y: 0}, {X: b.ms, Y: 1}})
		if err != nil {
			return err
		}
		l.Color, l.Dashes, l.Width = boundColor, []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1)
		p.Add(l)
		p.Legend.Add(text, l)
		return nil
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: p.X.Max, Y: 0.06}}, Labels: []string{text + " →"}})
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Color, lb.TextStyle[i].XAlign = boundColor, draw.XRight
		lb.TextStyle[i].Font.Typeface, lb.TextStyle[i].Font.Variant = plotsvg.Sans.Typeface, plotsvg.Sans.Variant
		lb.TextStyle[i].Font.Size = vg.Points(11)
	}
	lb.Offset = vg.Point{X: -vg.Points(4)}
	p.Add(lb)
	return nil
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
var statusClass = map[record.Status]string{
	record.StatusHTTPError: "k2", record.StatusStreamError: "k3", record.StatusTimeout: "k4", record.StatusRejected: "k5",
	record.StatusCancelled: "k6", record.StatusNotSent: "k7", record.StatusEmptyOutput: "k8",
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
func scatterChart(r *report.Report) svgScatter {
	span := newScatterSpan(r)
	if err := r.EachRequest(func(q *report.RequestScore) error { span.add(q); return nil }); err != nil {
		return svgScatter{Empty: err.Error()}
	}
	return scatterChartSpanned(r, &span)
}

// scatterChartSpanned is scatterChart once a first pass over the entries
// has spanned the frame and the series: it reads them a second time for
// the marks.
func scatterChartSpanned(r *report.Report, span *scatterSpan) svgScatter {
	s := svgScatter{}
	var laneOf map[record.Status]int
	var f scatterFrame
	s.Series, laneOf, f = span.result(r)
	if span.entries == 0 {
		s.Empty = "no requests"
		return s
	}
	var marks markCells
	err := r.EachRequest(func(q *report.RequestScore) error {
		if m, ok := f.place(q, laneOf); ok {
			marks.add(m)
			s.Series[m.series].Requests++
		}
		return nil
	})
	if err != nil {
		s.Empty = err.Error()
		return s
	}
	drawn, cell := marks.thin(scatterMaxMarks)
	for _, m := range drawn {
		se := &s.Series[m.series]
		se.Drawn = append(se.Drawn, [2]float64{m.dx, m.dy})
		se.Marks++
	}
	svg, err := renderScatter(s.Series, f)
	if err != nil {
		s.Empty = err.Error()
		return s
	}
	s.SVG = template.HTML(svg)
	s.Caption = scatterCaption(r, s.Series, span.entries, len(drawn), cell, f.ttftBound)
	return s
}

// scatterSpan is what the scatter takes from its first pass over the
// entries: the statuses present, for its series, the frame they span, and
// how many entries there are.
type scatterSpan struct {
	statuses []record.Status
	present  map[record.Status]bool
	frame    scatterFrame
	entries  int
}

// newScatterSpan starts a span at the report's window and statuses.
func newScatterSpan(r *report.Report) scatterSpan {
	return scatterSpan{statuses: statusesIn(r), present: map[record.Status]bool{}, frame: scatterFrame{xMin: r.WindowMS[0], xMax: r.WindowMS[1]}}
}

// add takes one entry.
func (sp *scatterSpan) add(q *report.RequestScore) {
	sp.entries++
	if !sp.present[q.Status] {
		sp.present[q.Status] = true
		if q.Status != record.StatusSuccess && !slices.Contains(sp.statuses, q.Status) {
			sp.statuses = append(sp.statuses, q.Status)
		}
	}
	sp.frame.span(q)
}

// result is the scatter's series (scatterSeries), each failed status's
// series index and the finished frame.
func (sp *scatterSpan) result(r *report.Report) ([]svgSeries, map[record.Status]int, scatterFrame) {
	series, laneOf := scatterSeries(sp.statuses, sp.present)
	return series, laneOf, sp.frame.finish(r)
}

// scatterSeries returns the scatter's series: qualified, unqualified
// successes, then each failed status present, in report order; and each
// failed status's series index.
func scatterSeries(statuses []record.Status, present map[record.Status]bool) ([]svgSeries, map[record.Status]int) {
	series := []svgSeries{
		{Class: "k0", Legend: "success, qualified", Shape: "square"},
		{Class: "k1", Legend: "success, not qualified", Shape: "square"},
	}
	laneOf := map[record.Status]int{}
	for _, st := range statuses {
		if st == record.StatusSuccess || !present[st] {
			continue
		}
		laneOf[st] = len(series)
		class := statusClass[st]
		if class == "" {
			class = "k9"
		}
		series = append(series, svgSeries{Class: class, Legend: string(st), Shape: "tick"})
	}
	return series, laneOf
}

// scatterFrame is the scatter's data window: the scheduled times it spans
// (ms from the run's start), the top of its TTFT axis (ms), the TTFT bound
// it draws (0 when none) and one failure lane's height in data units.
type scatterFrame struct {
	xMin, xMax, yMax, ttftBound, laneStep float64
}

// span widens the frame, which starts at the run's window, to a
// request's finite scheduled time and its TTFT from the scheduled time.
func (f *scatterFrame) span(q *report.RequestScore) {
	if finite(q.ScheduledMS) {
		f.xMin, f.xMax = min(f.xMin, q.ScheduledMS), max(f.xMax, q.ScheduledMS)
	}
	if ttft, ok := scatterTTFT(q); ok {
		f.yMax = max(f.yMax, ttft)
	}
}

// finish completes the frame spanned over every request: it reaches the
// TTFT bound when the report judges TTFT from the scheduled time.
func (f scatterFrame) finish(r *report.Report) scatterFrame {
	if !finite(f.xMin) || !finite(f.xMax) {
		f.xMin, f.xMax = 0, 1
	}
	if !(f.xMax > f.xMin) {
		f.xMax = f.xMin + 1
	}
	if r.SLO.TTFTFromScheduled && r.SLO.TTFT > 0 {
		f.ttftBound = record.Millis(r.SLO.TTFT)
		f.yMax = max(f.yMax, f.ttftBound)
	}
	if !(f.yMax > 0) {
		f.yMax = 1
	}
	f.laneStep = f.yMax * scatterLaneFraction
	return f
}

// scatterTTFT returns a success's finite TTFT from the scheduled time, and
// false for any other request.
func scatterTTFT(q *report.RequestScore) (float64, bool) {
	if q.Status == record.StatusSuccess && q.TTFTFromScheduledMS != nil && finite(*q.TTFTFromScheduledMS) {
		return *q.TTFTFromScheduledMS, true
	}
	return 0, false
}

// laneY is the y, in data units, of failure lane lane (0 the first, just
// below zero).
func (f scatterFrame) laneY(lane int) float64 { return -float64(lane+1) * f.laneStep }

// place returns a request's mark, or false when it cannot be placed: its
// scheduled time is not finite, or it succeeded without a first content
// time.
func (f scatterFrame) place(q *report.RequestScore, laneOf map[record.Status]int) (scatterMark, bool) {
	if !finite(q.ScheduledMS) {
		return scatterMark{}, false
	}
	m := scatterMark{dx: q.ScheduledMS / 1000, x: (q.ScheduledMS - f.xMin) / (f.xMax - f.xMin) * scatterGridW}
	if ttft, ok := scatterTTFT(q); ok {
		m.series = 1
		if q.Qualified {
			m.series = 0
		}
		m.dy = ttft
		m.y = scatterGridH - m.dy/f.yMax*scatterGridH
		return m, true
	}
	if q.Status == record.StatusSuccess {
		return scatterMark{}, false
	}
	m.series = laneOf[q.Status]
	m.dy = f.laneY(m.series - 2)
	m.y = scatterGridH + 6 + scatterLaneGridH*float64(m.series-2) + scatterLaneGridH/2
	return m, true
}

// renderScatter draws the series' drawn marks, the TTFT bound when the
// frame has one, and the failure lanes' labels, as inline SVG.
func renderScatter(series []svgSeries, f scatterFrame) (string, error) {
	lanes := len(series) - 2
	p := plotsvg.New("", "scheduled time (s from the run's start)", "TTFT from scheduled (ms)")
	for i := range series {
		se := &series[i]
		mk := &plotsvg.Marks{Color: classColor[se.Class], Size: vg.Points(scatterMarkSize)}
		if se.Shape == "tick" {
			mk.Shape, mk.Size = plotsvg.Tick, vg.Points(scatterTickMarkSize)
		}
		for _, d := range se.Drawn {
			mk.XYs = append(mk.XYs, vg.Point{X: vg.Length(d[0]), Y: vg.Length(d[1])})
		}
		p.Add(mk)
	}
	if f.ttftBound > 0 {
		b, err := plotter.NewLine(plotter.XYs{{X: f.xMin / 1000, Y: f.ttftBound}, {X: f.xMax / 1000, Y: f.ttftBound}})
		if err == nil {
			b.Color, b.Dashes, b.Width = boundColor, []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1)
			p.Add(b)
			p.Legend.Add("TTFT bound "+htmlMS(f.ttftBound)+" ms (from the scheduled time)", b)
		}
	}
	p.X.Min, p.X.Max = f.xMin/1000, f.xMax/1000
	p.Y.Min, p.Y.Max = f.laneY(lanes)+f.laneStep/2, f.yMax*1.02
	if lanes == 0 {
		p.Y.Min = 0
	}
	lt := laneTicks{}
	for i := 2; i < len(series); i++ {
		lt.at = append(lt.at, f.laneY(i-2))
		lt.labels = append(lt.labels, fmt.Sprintf("%s (%d)", series[i].Legend, series[i].Requests))
	}
	p.Y.Tick.Marker = lt
	return plotsvg.Render(p, scatterW, scatterH+vg.Length(lanes)*vg.Points(10))
}

// scatterCaption says how many requests the scatter places and draws, how
// it was thinned (cell 0: not thinned), what its y axis measures, and why
// a TTFT bound judged from the sent time is not drawn.
func scatterCaption(r *report.Report, series []svgSeries, entries, drawn int, cell, ttftBound float64) string {
	placed := 0
	for _, se := range series {
		placed += se.Requests
	}
	c := fmt.Sprintf("%d of %d offered requests placed; %d marks drawn", placed, entries, drawn)
	if cell > 0 {
		c += fmt.Sprintf(" (thinned: within each kind, the first request of each %s-px cell of a %.0f × %.0f px grid stands for the others in it)",
			strconv.FormatFloat(cell, 'f', 1, 64), scatterGridW, scatterGridH)
	} else {
		c += ", one per request"
	}
	c += ". y: TTFT from the scheduled time, first content − scheduled (ms); requests that did not succeed sit in their status's lane below zero."
	if ttftBound == 0 && r.SLO.TTFT > 0 {
		c += fmt.Sprintf(" The TTFT bound (%s ms) judges first content − sent, so it is not drawn here: the mark's kind carries the verdict.", htmlMS(record.Millis(r.SLO.TTFT)))
	}
	return c
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
	// Each cell size is a multiple of 2 px, about 1.25 times the last, so
	// that a cell is a whole number of 2 px cells: keeping the earliest
	// mark of each 2 px cell first (markCells) changes nothing.
	for cell := 2.0; ; cell = 2 * math.Ceil(cell*1.25/2) {
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

// markCells collects the scatter's marks as the entries pass, in any
// order, in memory bounded by the plot's cells rather than the run's
// length: past markCellsAfter marks (so many that thinMarks will thin
// them) it keeps only the earliest scheduled mark of each 2 px cell of a
// series, which is the one thinMarks keeps at its first cell size.
type markCells struct {
	marks []scatterMark
	cells map[markCell]int // index in marks; nil until the marks are many
}

// markCell is a series' 2 px cell.
type markCell struct {
	series, cx, cy int
}

// markCellsAfter is how many marks are kept whole before the 2 px cells
// take over: beyond scatterMaxMarks, thinMarks thins anyway.
const markCellsAfter = 4 * scatterMaxMarks

func cellOf(m scatterMark) markCell {
	return markCell{m.series, int(math.Floor(m.x / 2)), int(math.Floor(m.y / 2))}
}

// add takes one mark.
func (c *markCells) add(m scatterMark) {
	if c.cells == nil {
		c.marks = append(c.marks, m)
		if len(c.marks) > markCellsAfter {
			c.toCells()
		}
		return
	}
	k := cellOf(m)
	i, seen := c.cells[k]
	switch {
	case !seen:
		c.cells[k] = len(c.marks)
		c.marks = append(c.marks, m)
	case m.dx < c.marks[i].dx:
		c.marks[i] = m
	}
}

// toCells keeps the earliest scheduled mark of each cell.
func (c *markCells) toCells() {
	all := c.marks
	c.marks, c.cells = nil, map[markCell]int{}
	for _, m := range all {
		c.add(m)
	}
}

// thin orders the marks by scheduled time (the entries may come in the
// order requests ended; ties stay in the order they came) and thins them
// as thinMarks does. Marks already kept by 2 px cell were thinned at 2 px
// at least, and the cell returned says so.
func (c *markCells) thin(limit int) ([]scatterMark, float64) {
	slices.SortStableFunc(c.marks, func(a, b scatterMark) int { return cmp.Compare(a.dx, b.dx) })
	drawn, cell := thinMarks(c.marks, limit)
	if c.cells != nil && cell == 0 {
		cell = 2
	}
	return drawn, cell
}
