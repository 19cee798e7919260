package render

import (
	_ "embed"
	"fmt"
	"html/template"
	"strconv"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/plotsvg"
)

// gpuHTMLTemplateText is the GPU section of the page, a template named
// "gpu" added to the page's.
//
//go:embed templates/gpu.html.tmpl
var gpuHTMLTemplateText string

// The "gpu" template joins the page's template set.
var _ = template.Must(reportHTMLTemplate.New("gpu.html.tmpl").Parse(gpuHTMLTemplateText))

// htmlGPU is the GPU section, formatted.
type htmlGPU struct {
	Unavailable string
	Caption     string
	Summary     []htmlField
	Errors      []string
	GPUs        []htmlGPUCard
}

// htmlGPUCard is one GPU: its statistics and timelines.
type htmlGPUCard struct {
	Title   string
	Rows    [][3]string
	Charts  []svgTimeline
	Caption string
}

// svgTimeline is one quantity of one GPU over time, drawn with gonum/plot.
type svgTimeline struct {
	Title, Empty string
	SVG          template.HTML
	// Points are the drawn points in data units (ms since sampling
	// started, the quantity), N how many.
	Points [][2]float64
	N      int
}

// htmlGPUTelemetry formats the GPU section; nil when the run had no
// sampler.
func htmlGPUTelemetry(g *report.GPUTelemetry) *htmlGPU {
	if g == nil {
		return nil
	}
	if !g.Available() {
		return &htmlGPU{Unavailable: g.Status}
	}
	h := &htmlGPU{Errors: g.Errors,
		Caption: fmt.Sprintf("Read from %s every %s ms from right before the window's first request to right after its last ended.", g.Source, numfmt.Shortest(g.SampleIntervalMS))}
	energy := "n/a"
	if g.EnergyJ != nil {
		energy = numfmt.OptFixed(g.EnergyJ, 1) + " J"
	}
	h.Summary = []htmlField{
		{Label: "Energy", Value: energy, Detail: "(" + energyMethodText(g.EnergyMethod) + ", every GPU)"},
		{Label: "Joules per qualified request", Value: numfmt.OptFixed(g.JoulesPerQualifiedRequest, 3),
			Detail: fmt.Sprintf("energy / %d qualified requests", g.Qualified), Bad: g.EnergyJ != nil && g.JoulesPerQualifiedRequest == nil},
		{Label: "Joules per output token", Value: numfmt.OptFixed(g.JoulesPerOutputToken, 4),
			Detail: fmt.Sprintf("energy / %d output tokens of the successful requests", g.OutputTokens)},
	}
	if g.SuccessesWithoutTokenCount > 0 {
		h.Summary = append(h.Summary, htmlField{Label: "Successes without a token count", Value: strconv.Itoa(g.SuccessesWithoutTokenCount),
			Detail: "left out of the output tokens, so the joules per token are an upper bound", Bad: true})
	}
	for i := range g.GPUs {
		h.GPUs = append(h.GPUs, htmlGPUCardOf(&g.GPUs[i]))
	}
	return h
}

// energyMethodText says how an energy was obtained, in words.
func energyMethodText(m string) string {
	switch m {
	case report.EnergyFromCounter:
		return "from the GPU's total-energy counter"
	case report.EnergyFromIntegratedPower:
		return "power integrated over the readings (trapezoid rule); the source has no energy counter"
	case report.EnergyMixed:
		return "counter where the GPU has one, integrated power elsewhere"
	}
	return "unknown"
}

// htmlGPUCardOf formats one GPU.
func htmlGPUCardOf(s *report.GPUStats) htmlGPUCard {
	title := fmt.Sprintf("GPU %d", s.Index)
	if s.Name != "" {
		title += " · " + s.Name
	}
	if s.UUID != "" {
		title += " · " + s.UUID
	}
	c := htmlGPUCard{Title: title}
	for _, q := range gpuQuantities {
		st := q.stat(s)
		c.Rows = append(c.Rows, [3]string{q.name + " (" + q.unit + ")", numfmt.OptFixed(st.Mean, q.decimals), numfmt.OptFixed(st.Max, q.decimals)})
		c.Charts = append(c.Charts, timelineChart(q, s))
	}
	energy := "unknown"
	if s.EnergyJ != nil {
		energy = numfmt.OptFixed(s.EnergyJ, 1) + " J, " + energyMethodText(s.EnergyMethod)
	}
	c.Rows = append(c.Rows, [3]string{"energy over " + numfmt.Shortest((s.SpanMS[1]-s.SpanMS[0])/1000) + " s", energy, ""})
	c.Caption = fmt.Sprintf("%d readings; each timeline point is the mean of %d consecutive readings.", s.Samples, max(1, s.TimelineStride))
	return c
}

// timelineW and timelineH are a GPU timeline chart's size in points.
const timelineW, timelineH = 5.4 * vg.Inch, 2.2 * vg.Inch

// timelineChart draws one quantity of a GPU against time in seconds, the
// line broken where a point lacks the quantity.
func timelineChart(q gpuQuantity, s *report.GPUStats) svgTimeline {
	t := svgTimeline{Title: q.name + " (" + q.unit + ")"}
	p := plotsvg.New("", "seconds since sampling started", q.unit)
	var segment plotter.XYs
	flush := func() error {
		if len(segment) == 0 {
			return nil
		}
		line, err := plotter.NewLine(segment)
		if err != nil {
			return err
		}
		line.Color, line.Width = plotsvg.Palette[0], vg.Points(1.4)
		p.Add(line)
		if len(segment) == 1 { // a lone point has no line: mark it
			sc, err := plotter.NewScatter(segment)
			if err != nil {
				return err
			}
			sc.Color = plotsvg.Palette[0]
			p.Add(sc)
		}
		segment = nil
		return nil
	}
	for i := range s.Timeline {
		pt := &s.Timeline[i]
		v := q.at(pt)
		if v == nil || !finite(*v) {
			if err := flush(); err != nil {
				t.Empty = err.Error()
				return t
			}
			continue
		}
		t.Points = append(t.Points, [2]float64{pt.AtMS, *v})
		segment = append(segment, plotter.XY{X: pt.AtMS / 1000, Y: *v})
	}
	if err := flush(); err != nil {
		t.Empty = err.Error()
		return t
	}
	t.N = len(t.Points)
	if t.N == 0 {
		t.Empty = "not reported by the source"
		return t
	}
	p.X.Min, p.Y.Min = 0, 0
	if q.unit == "%" {
		p.Y.Max = max(p.Y.Max, 100)
	}
	svg, err := plotsvg.Render(p, timelineW, timelineH)
	if err != nil {
		t.Empty = err.Error()
		return t
	}
	t.SVG = template.HTML(svg)
	return t
}
