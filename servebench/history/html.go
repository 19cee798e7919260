package history

import (
	"fmt"
	"html/template"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/plotsvg"
)

// chart is one metric's chart, rendered.
type chart struct {
	Title   string
	SVG     template.HTML
	Changes []string
	Empty   string
}

var page = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>servebench history</title>
<style>body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;max-width:60em;margin:1em auto;padding:0 1em}svg{max-width:100%;height:auto}</style></head><body>
<h1>Release history</h1>
<p>{{.Method}}</p>
{{if .Notice}}<p><strong>Too short:</strong> {{.Notice}}.</p>{{end}}
{{range .Charts}}<h2>{{.Title}}</h2>{{if .Empty}}<p>{{.Empty}}</p>{{else}}{{.SVG}}{{end}}
{{if .Changes}}<ul>{{range .Changes}}<li>{{.}}</li>{{end}}</ul>{{else if $.Notice}}<p>No change can be shown (too short).</p>{{else}}<p>No change.</p>{{end}}
{{end}}{{with .Ratio}}<h2>Ratio policy</h2>
<p>{{.Rule}}.</p>
<table><tr><th>statistic</th>{{range $.Names}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Metric}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
<h2>Verdict</h2>
<p><strong>{{.Verdict.Headline}}</strong></p>
{{if .Verdict.Reasons}}<ul>{{range .Verdict.Reasons}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body></html>
`))

// WriteHTML writes a self-contained page with one chart per metric: its
// value per release, each segment's level, and the changes listed.
func (h *History) WriteHTML(w io.Writer) error {
	var charts []chart
	for _, s := range h.Metrics {
		c := chart{Title: s.Metric}
		svg, err := h.chart(s)
		if err != nil {
			c.Empty = err.Error()
		}
		c.SVG = template.HTML(svg)
		for _, ch := range s.Changes {
			c.Changes = append(c.Changes, ch.Describe(s))
		}
		charts = append(charts, c)
	}
	names := make([]string, len(h.Releases))
	for i, r := range h.Releases {
		names[i] = r.Name
	}
	if err := page.Execute(w, struct {
		Method, Notice string
		Charts         []chart
		Ratio          *ratioTable
		Names          []string
		Verdict        Verdict
	}{h.Method, h.ShortNotice(), charts, h.ratioTable(), names, h.Verdict}); err != nil {
		return fmt.Errorf("history: html: %w", err)
	}
	return nil
}

// ratioTable is the ratio policy's table: a row per judged statistic, a
// cell per release ("–" for the releases of the first window).
type ratioTable struct {
	Rule string
	Rows []ratioRow
}

// ratioRow is one statistic's row of the ratio table.
type ratioRow struct {
	Metric string
	Cells  []string
}

// ratioTable builds the ratio policy's table; nil without the analysis.
func (h *History) ratioTable() *ratioTable {
	if h.Ratio == nil {
		return nil
	}
	t := &ratioTable{Rule: h.Ratio.Rule()}
	for _, s := range h.Ratio.Series {
		cells := make([]string, len(h.Releases))
		for i := range cells {
			cells[i] = "–"
		}
		for _, p := range s.Points {
			cells[p.Index] = p.Mark(s)
		}
		t.Rows = append(t.Rows, ratioRow{Metric: s.Metric, Cells: cells})
	}
	return t
}

// chart draws one metric: a mark and line per release, and a dashed line
// at each segment's level.
func (h *History) chart(s Series) (string, error) {
	unit := "fraction"
	if s.Relative {
		unit = "ms"
	}
	p := plotsvg.New(s.Metric+" per release", "release", fmt.Sprintf("%s (%s)", s.Metric, unit))
	pts := make(plotter.XYs, len(s.Values))
	ticks := make([]plot.Tick, len(s.Values))
	for i, v := range s.Values {
		pts[i] = plotter.XY{X: float64(i), Y: v}
		ticks[i] = plot.Tick{Value: float64(i), Label: h.Releases[i].Name}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	line, marks, err := plotter.NewLinePoints(pts)
	if err != nil {
		return "", err
	}
	line.Color, marks.Color = plotsvg.Palette[0], plotsvg.Palette[0]
	p.Add(line, marks)
	p.Legend.Add("value", line, marks)
	starts := []int{0}
	for _, c := range s.Changes {
		starts = append(starts, c.Index)
	}
	starts = append(starts, len(s.Values))
	for k := 0; k+1 < len(starts); k++ {
		lo, hi := starts[k], starts[k+1]
		level := segmentLevel(s, lo, hi)
		seg, err := plotter.NewLine(plotter.XYs{{X: float64(lo) - 0.3, Y: level}, {X: float64(hi-1) + 0.3, Y: level}})
		if err != nil {
			return "", err
		}
		seg.Color, seg.Dashes, seg.Width = plotsvg.Palette[1], []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1.5)
		p.Add(seg)
		if k == 0 {
			p.Legend.Add("level between changes", seg)
		}
	}
	return plotsvg.Render(p, 16*vg.Centimeter, 7*vg.Centimeter)
}

// segmentLevel is the level of releases lo..hi−1: the mean, geometric for
// latency.
func segmentLevel(s Series, lo, hi int) float64 {
	x := workingScale(s)[lo:hi]
	var sum float64
	for _, v := range x {
		sum += v
	}
	m := sum / float64(len(x))
	if s.Relative {
		return expOf(m)
	}
	return m
}
