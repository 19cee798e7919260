package compare

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/servebench/servebench/internal/plotsvg"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

//go:embed compare.html.tmpl
var htmlTemplateText string

var htmlTemplate = template.Must(template.New("compare").Funcs(template.FuncMap{"round": func(i int) int { return i + 1 }}).Parse(htmlTemplateText))

// htmlPage is what the template renders.
type htmlPage struct {
	C      *Comparison
	Rows   []htmlRow
	Charts []htmlCDF
}

// htmlRow is one comparison, formatted.
type htmlRow struct {
	Name, Baseline, Candidate, Change, Interval, Tolerance, Decide string
	Verdict                                                        Verdict
	// VerdictText is the verdict, with an advisory result's leaning;
	// Noise and Detectable the run-to-run noise and the smallest
	// detectable change; SuccessOnly the labelled success-only figure.
	VerdictText, Noise, Detectable, SuccessOnly string
	// BarLeft and BarWidth place the interval on a shared axis (percent of
	// the bar), TolAt the tolerance and ZeroAt no change.
	BarLeft, BarWidth, TolAt, ZeroAt string
	// NoBar is set when the interval is not finite (an unbounded side,
	// insufficient data): there is nothing to draw.
	NoBar bool
}

// htmlCDF is one overlaid CDF chart, drawn with gonum/plot.
type htmlCDF struct {
	Title                 string
	BaselineN, CandidateN int
	SVG                   template.HTML
	// Empty says why there is no chart; empty when there is one.
	Empty string
}

// WriteHTML writes compare.html: a self-contained page with both sides'
// CDFs of TTFT, TPOT and E2E overlaid (every round's successful requests
// pooled per side) and the comparison table with its intervals.
func (c *Comparison) WriteHTML(w io.Writer) error {
	p := htmlPage{C: c}
	for _, m := range c.Comparisons {
		p.Rows = append(p.Rows, htmlRowOf(m))
	}
	for _, m := range []struct {
		metric record.Metric
		title  string
	}{{record.MetricTTFT, "TTFT (ms)"}, {record.MetricTPOT, "TPOT (ms)"}, {record.MetricE2E, "E2E (ms)"}} {
		p.Charts = append(p.Charts, cdfOverlay(m.title, pooled(m.metric, c.baseline), pooled(m.metric, c.candidate)))
	}
	if err := htmlTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("compare: html: %w", err)
	}
	return nil
}

// htmlRowOf formats one comparison and places its interval on an axis that
// spans the interval, zero and the tolerance.
func htmlRowOf(m MetricComparison) htmlRow {
	row := htmlRow{
		Name: m.Name, Baseline: m.formatValue(m.Baseline), Candidate: m.formatValue(m.Candidate),
		Change: m.formatChange(m.Change), Interval: "[" + m.formatChange(m.CILow) + ", " + m.formatChange(m.CIHigh) + "]",
		Tolerance: m.formatTolerance(), Verdict: m.Verdict, Decide: m.Decide,
		VerdictText: m.verdictText(), Noise: m.formatNoise(), Detectable: m.formatChange(m.MinDetectableEffect),
		SuccessOnly: m.successOnlyLine(),
	}
	if !finite(m.CILow, m.CIHigh) {
		row.NoBar = true
		return row
	}
	lo, hi := math.Min(math.Min(m.CILow, 0), -m.Tolerance), math.Max(math.Max(m.CIHigh, m.Tolerance), 0)
	pad := (hi - lo) * 0.1
	if pad == 0 {
		pad = 0.01
	}
	lo, hi = lo-pad, hi+pad
	at := func(v float64) float64 { return 100 * (v - lo) / (hi - lo) }
	pct := func(v float64) string { return fmt.Sprintf("%.2f%%", v) }
	row.BarLeft, row.BarWidth = pct(at(m.CILow)), pct(math.Max(at(m.CIHigh)-at(m.CILow), 0.4))
	row.TolAt, row.ZeroAt = pct(at(m.Tolerance)), pct(at(0))
	return row
}

// pooled collects one metric's successful-request values over every round
// of a side, ascending; reports that cannot give them contribute nothing.
func pooled(m record.Metric, reports []*report.Report) []float64 {
	var xs []float64
	s := statistic{name: string(m), metric: m}
	for _, r := range reports {
		if v, err := s.samples(r, false); err == nil {
			xs = append(xs, v...)
		}
	}
	slices.Sort(xs)
	return xs
}

// The CDF chart's size, and the most steps drawn per side (beyond, evenly
// spaced order statistics are).
const (
	cdfWidth, cdfHeight = 6.4 * vg.Inch, 3 * vg.Inch
	cdfPoints           = 400
)

// cdfOverlay draws both sides' empirical CDFs (ascending values) on one
// linear axis from zero, as staircases: the baseline solid, the candidate
// dashed, each labelled with its N.
func cdfOverlay(title string, b, c []float64) htmlCDF {
	ch := htmlCDF{Title: title, BaselineN: len(b), CandidateN: len(c)}
	if len(b) == 0 && len(c) == 0 {
		ch.Empty = "no values"
		return ch
	}
	p := plotsvg.New("", title, "share at or below")
	for i, side := range []struct {
		name string
		xs   []float64
	}{{"baseline", b}, {"candidate", c}} {
		if len(side.xs) == 0 {
			continue
		}
		line, err := plotter.NewLine(plotsvg.CDFSteps(side.xs, cdfPoints))
		if err != nil {
			ch.Empty = err.Error()
			return ch
		}
		line.StepStyle = plotter.PostStep
		line.Color, line.Width = plotsvg.Palette[i], vg.Points(1.6)
		if i == 1 {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", side.name, len(side.xs)), line)
	}
	p.X.Min, p.Y.Min, p.Y.Max = min(0, p.X.Min), 0, 1
	p.Y.Tick.Marker = plotsvg.ShareTicks{}
	svg, err := plotsvg.Render(p, cdfWidth, cdfHeight)
	if err != nil {
		ch.Empty = err.Error()
		return ch
	}
	ch.SVG = template.HTML(svg)
	return ch
}
