package render

import (
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/plotsvg"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// timelineHTMLTemplateText is the Timeline section of the page, a template
// named "timeline" added to the page's.
//
//go:embed templates/timeline.html.tmpl
var timelineHTMLTemplateText string

// The "timeline" template joins the page's template set.
var _ = template.Must(reportHTMLTemplate.New("timeline.html.tmpl").Parse(timelineHTMLTemplateText))

// htmlTimeline is the Timeline section, formatted: the engine's series and
// the client's drift intervals on one time axis.
type htmlTimeline struct {
	Caption string
	// AxisMS is the time span every chart draws, in ms on the run's clock.
	AxisMS [2]float64
	// Engine is nil when the run did not scrape the engine over time.
	Engine *htmlTimelineEngine
	// Client is nil when the report has no drift intervals.
	Client *htmlTimelineClient
}

// htmlTimelineEngine is the engine's part of the Timeline.
type htmlTimelineEngine struct {
	Caption, Failure string
	Charts           []svgLines
	// Other names the engine's other gauges, which are not drawn;
	// OtherMore counts those beyond the names shown.
	Other     []string
	OtherMore int
}

// htmlTimelineClient is the client's part of the Timeline.
type htmlTimelineClient struct {
	Caption, Note string
	Charts        []svgLines
}

// svgLines is one timeline chart of one or more quantities, drawn with
// gonum/plot, each line broken where a value is missing.
type svgLines struct {
	Title, Caption, Empty string
	// Finding is the drift trend of the drawn quantity, in words; Drifting
	// marks one whose growth interval lies above zero.
	Finding  string
	Drifting bool
	SVG      template.HTML
	Series   []svgLine
	// N counts the drawn points over the series, Runs their unbroken runs.
	N, Runs int
}

// svgLine is one quantity of a timeline chart: the drawn points in data
// units (ms on the run's clock, the quantity) and how many unbroken runs
// they form.
type svgLine struct {
	Name   string
	Points [][2]float64
	Runs   int
}

// The Timeline's charts, in points, and its bounds.
const (
	timelineChartW, timelineChartH = 5.4 * vg.Inch, 2.4 * vg.Inch
	// timelineErrorRunes bounds the scrape error quoted in the caption.
	timelineErrorRunes = 200
)

// timelineFailColor marks failed scrapes on the time axis.
var timelineFailColor = color.RGBA{179, 38, 30, 255}

// timelineQuantity is one quantity to draw: its legend and its value at
// each time (nil for none, which breaks the line).
type timelineQuantity struct {
	name string
	at   []float64 // ms on the run's clock
	ys   []*float64
}

// present reports whether any time has a value.
func (q timelineQuantity) present() bool {
	return slices.ContainsFunc(q.ys, func(v *float64) bool { return v != nil && finite(*v) })
}

// htmlTimelineOf formats the Timeline; nil when the report has neither an
// engine series nor two drift intervals (one is no line in time).
func htmlTimelineOf(r *report.Report) *htmlTimeline {
	es, d := r.EngineSeries, r.Drift
	if d != nil && len(d.Intervals) < 2 {
		d = nil
	}
	if es == nil && d == nil {
		return nil
	}
	// One time axis for every chart: from the run's start (or earlier
	// data) to the last sample or interval end.
	axis := [2]float64{0, 0}
	if es != nil {
		for _, s := range es.Samples {
			axis[0], axis[1] = min(axis[0], s.AtMS), max(axis[1], s.AtMS)
		}
	}
	if d != nil {
		axis[0] = min(axis[0], d.Intervals[0].StartMS)
		axis[1] = max(axis[1], d.Intervals[len(d.Intervals)-1].StartMS+d.IntervalMS)
	}
	if !(axis[1] > axis[0]) {
		axis[1] = axis[0] + 1
	}
	t := &htmlTimeline{AxisMS: axis, Caption: "Time is in seconds since the measurement started, on the run's clock, the same axis in every chart."}
	if es != nil {
		t.Engine = htmlTimelineEngineOf(es, axis)
	}
	if d != nil {
		t.Client = htmlTimelineClientOf(d, axis)
	}
	return t
}

// htmlTimelineEngineOf draws the engine's queue and running requests, its
// KV-cache usage and its preemptions, each when the engine exposed it,
// with failed scrapes as gaps and as ticks on the time axis.
func htmlTimelineEngineOf(es *report.EngineSeries, axis [2]float64) *htmlTimelineEngine {
	e := &htmlTimelineEngine{}
	engine := "an engine of unknown metric names"
	if es.Engine != "" {
		engine = es.Engine
	}
	e.Caption = fmt.Sprintf("The engine's own state, %s metrics scraped from %s every %s ms: %d samples, %d failed.",
		engine, numfmt.Or(es.URL), numfmt.Shortest(es.IntervalMS), len(es.Samples), es.FailedScrapes)
	at := make([]float64, len(es.Samples))
	var failed []float64
	for i, s := range es.Samples {
		at[i] = s.AtMS
		if s.Error != "" {
			failed = append(failed, s.AtMS)
			if e.Failure == "" {
				e.Failure = fmt.Sprintf("First failed scrape at %s s: %s", numfmt.Compact(record.RoundMS(s.AtMS)/1000), cutRunes(s.Error, timelineErrorRunes))
			}
		}
	}
	value := func(get func(*report.EngineSample) *float64, scale float64) []*float64 {
		ys := make([]*float64, len(es.Samples))
		for i := range es.Samples {
			s := &es.Samples[i]
			if v := get(s); s.Error == "" && v != nil && finite(*v) {
				ys[i] = new(*v * scale)
			}
		}
		return ys
	}
	queue := timelineQuantity{"queue length", at, value(func(s *report.EngineSample) *float64 { return s.QueueLength }, 1)}
	running := timelineQuantity{"running", at, value(func(s *report.EngineSample) *float64 { return s.Running }, 1)}
	kv := timelineQuantity{"KV-cache usage", at, value(func(s *report.EngineSample) *float64 { return s.KVCacheUsage }, 100)}
	preempted := timelineQuantity{"preemptions", at, value(func(s *report.EngineSample) *float64 { return s.Preemptions }, 1)}
	caption := "No scrape failed; a line breaks where a sample lacked the quantity."
	if len(failed) > 0 {
		caption = fmt.Sprintf("Failed scrapes: %d, ticked in red on the time axis; a line breaks at each, never drawn through it, and where a sample lacked the quantity.", len(failed))
	}
	var missing []string
	var requests []timelineQuantity
	for _, q := range []timelineQuantity{queue, running} {
		if q.present() {
			requests = append(requests, q)
		} else {
			missing = append(missing, q.name)
		}
	}
	if len(requests) > 0 {
		e.Charts = append(e.Charts, linesChart("Engine: queue length and running requests", "requests", requests, failed, axis, 1, caption))
	}
	if kv.present() {
		e.Charts = append(e.Charts, linesChart("Engine: KV-cache usage (%)", "%", []timelineQuantity{kv}, failed, axis, 100, caption))
	} else {
		missing = append(missing, kv.name)
	}
	if preempted.present() {
		e.Charts = append(e.Charts, linesChart("Engine: preemptions since the first sample (cumulative)", "preemptions", []timelineQuantity{preempted}, failed, axis, 1, caption))
	} else {
		missing = append(missing, preempted.name)
	}
	switch {
	case len(failed) == len(es.Samples):
		e.Caption += " No scrape succeeded, so nothing is drawn."
	case len(missing) > 0:
		e.Caption += " Not exposed by the engine, so not drawn: " + strings.Join(missing, ", ") + "."
	}
	e.Other, e.OtherMore = otherGaugeNames(es.Samples)
	return e
}

// otherGaugeNames lists, in name order, the engine's other gauges seen in
// any sample: at most MaxOtherGauges names, and how many more there were.
func otherGaugeNames(samples []report.EngineSample) ([]string, int) {
	seen := map[string]bool{}
	for _, s := range samples {
		for k := range s.Other {
			seen[k] = true
		}
	}
	names := sortedKeys(seen)
	if len(names) > report.MaxOtherGauges {
		return names[:report.MaxOtherGauges], len(names) - report.MaxOtherGauges
	}
	return names, 0
}

// htmlTimelineClientOf draws the client's figures per drift interval:
// requests offered and completed in each (at its midpoint) and outstanding
// at its end, and p99 TTFT and p99 TPOT (at its midpoint), each p99 chart
// beside its trend finding when the drift was judged.
func htmlTimelineClientOf(d *report.DriftReport, axis [2]float64) *htmlTimelineClient {
	n := len(d.Intervals)
	c := &htmlTimelineClient{Caption: fmt.Sprintf("The client's figures in %d intervals of %s ms (the drift analysis).", n, numfmt.Shortest(d.IntervalMS))}
	if !d.Judged {
		c.Note = "Drift " + d.Note + "."
	}
	mid, end := make([]float64, n), make([]float64, n)
	offered, completed, outstanding := make([]*float64, n), make([]*float64, n), make([]*float64, n)
	ttft, tpot := make([]*float64, n), make([]*float64, n)
	for j, iv := range d.Intervals {
		mid[j], end[j] = iv.StartMS+d.IntervalMS/2, iv.StartMS+d.IntervalMS
		offered[j], completed[j], outstanding[j] = new(float64(iv.Offered)), new(float64(iv.Completed)), new(float64(iv.Outstanding))
		ttft[j], tpot[j] = iv.TTFTP99MS, iv.TPOTP99MS
	}
	c.Charts = append(c.Charts, linesChart("Client: requests per interval", "requests",
		[]timelineQuantity{{"offered", mid, offered}, {"completed", mid, completed}, {"outstanding", end, outstanding}}, nil, axis, 1,
		"Offered: scheduled in the interval; completed: ended in it, whatever the status (both at its midpoint); outstanding: sent and not ended at its end."))
	gap := fmt.Sprintf("At each interval's midpoint, over its successful requests; an interval with fewer than %d has no p99 and leaves a gap.", report.MinDriftSamples)
	for _, q := range []struct {
		metric, title string
		ys            []*float64
	}{{"ttft_p99_ms", "Client: p99 TTFT per interval (ms)", ttft}, {"tpot_p99_ms", "Client: p99 TPOT per interval (ms)", tpot}} {
		ch := linesChart(q.title, "ms", []timelineQuantity{{"p99", mid, q.ys}}, nil, axis, 1, gap)
		if ch.N == 0 {
			ch.Empty = fmt.Sprintf("no interval had the %d successful requests a p99 needs", report.MinDriftSamples)
		}
		if d.Judged {
			for _, tr := range d.Trends {
				if tr.Metric == q.metric {
					ch.Finding, ch.Drifting = tr.Finding, tr.GrowthLow != nil && *tr.GrowthLow > 0
				}
			}
		}
		c.Charts = append(c.Charts, ch)
	}
	return c
}

// linesChart draws quantities against seconds on the axis's span, each
// line broken where a value is missing, failed scrapes as ticks at zero,
// and the y axis from zero (or the lowest value) to at least yMax.
func linesChart(title, yLabel string, qs []timelineQuantity, failed []float64, axis [2]float64, yMax float64, caption string) svgLines {
	ch := svgLines{Title: title, Caption: caption}
	p := plotsvg.New("", "seconds since the measurement started", yLabel)
	legend := len(qs) > 1 || len(failed) > 0
	for k, q := range qs {
		line := svgLine{Name: q.name}
		var runs [][]vg.Point
		var run []vg.Point
		for i, v := range q.ys {
			if v == nil || !finite(*v) {
				if len(run) > 0 {
					runs, run = append(runs, run), nil
				}
				continue
			}
			line.Points = append(line.Points, [2]float64{q.at[i], *v})
			run = append(run, vg.Point{X: vg.Length(q.at[i] / 1000), Y: vg.Length(*v)})
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		line.Runs = len(runs)
		ch.N += len(line.Points)
		ch.Runs += line.Runs
		ch.Series = append(ch.Series, line)
		l := &plotsvg.Lines{Runs: runs, Color: plotsvg.Palette[k%len(plotsvg.Palette)], Width: vg.Points(1.4)}
		p.Add(l)
		if legend {
			p.Legend.Add(q.name, l)
		}
	}
	if ch.N == 0 {
		ch.Empty = "nothing to draw"
		return ch
	}
	if len(failed) > 0 {
		mk := &plotsvg.Marks{Color: timelineFailColor, Shape: plotsvg.Tick, Size: vg.Points(7)}
		for _, at := range failed {
			mk.XYs = append(mk.XYs, vg.Point{X: vg.Length(at / 1000)})
		}
		p.Add(mk)
		p.Legend.Add(fmt.Sprintf("failed scrape (%d)", len(failed)), mk)
	}
	p.X.Min, p.X.Max = axis[0]/1000, axis[1]/1000
	p.Y.Min, p.Y.Max = min(p.Y.Min, 0), max(p.Y.Max, yMax)
	svg, err := plotsvg.Render(p, timelineChartW, timelineChartH)
	if err != nil {
		ch.Empty = err.Error()
		return ch
	}
	ch.SVG = template.HTML(svg)
	return ch
}

// cutRunes shortens s to at most n runes, saying so.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
