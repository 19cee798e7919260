package sweepreport

import (
	"cmp"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/plotsvg"
	"github.com/servebench/servebench/servebench/capacity"
)

// chart is one drawn chart with its caption.
type chart struct {
	Title   string
	SVG     template.HTML
	Caption string
	Empty   string
}

// chartW and chartH are a sweep chart's size in points: chartW is the
// page's full text width (1,100 px less its margins, at 4/3 px a point).
const (
	chartW = 800
	chartH = 320
)

// series is one quantity against offered rate: every run as a point, and
// the mean over the repeats of each nominal rate, joined by a line.
type series struct {
	label  string
	colour color.Color
	runs   plotter.XYs
	means  plotter.XYs
	spread [][2]plotter.XY // min and max over repeats, where there are several
}

// seriesOf collects get over rows against realized offered rate (or, when
// xGet is given, against that).
func seriesOf(label string, colour color.Color, rows []Rate, x, y func(Rate) *float64) series {
	s := series{label: label, colour: colour}
	type group struct{ xs, ys []float64 }
	groups := map[float64]*group{}
	for _, r := range rows {
		xv, yv := x(r), y(r)
		if xv == nil || yv == nil {
			continue
		}
		s.runs = append(s.runs, plotter.XY{X: *xv, Y: *yv})
		key := r.RateRPS
		if r.Users > 0 {
			key = float64(r.Users)
		}
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
		}
		g.xs, g.ys = append(g.xs, *xv), append(g.ys, *yv)
	}
	for _, g := range groups {
		m := plotter.XY{X: mean(g.xs), Y: mean(g.ys)}
		s.means = append(s.means, m)
		if len(g.ys) > 1 {
			s.spread = append(s.spread, [2]plotter.XY{{X: m.X, Y: slices.Min(g.ys)}, {X: m.X, Y: slices.Max(g.ys)}})
		}
	}
	slices.SortFunc(s.means, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	return s
}

func mean(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

// add draws the series on p: a line through the means, a mark per run,
// and a bar over each rate's spread.
func (s series) add(p *plot.Plot, shape draw.GlyphDrawer) error {
	if len(s.runs) == 0 {
		return nil
	}
	line, err := plotter.NewLine(s.means)
	if err != nil {
		return err
	}
	line.Color = s.colour
	line.Width = vg.Points(1.5)
	marks, err := plotter.NewScatter(s.runs)
	if err != nil {
		return err
	}
	marks.Color, marks.Shape, marks.Radius = s.colour, shape, vg.Points(2.5)
	p.Add(line, marks)
	for _, sp := range s.spread {
		bar, err := plotter.NewLine(plotter.XYs{sp[0], sp[1]})
		if err != nil {
			return err
		}
		bar.Color, bar.Width = s.colour, vg.Points(0.8)
		p.Add(bar)
	}
	p.Legend.Add(s.label, line, marks)
	return nil
}

// hLine draws a dashed horizontal reference at y across the plot's x range.
func hLine(p *plot.Plot, y float64, label string, c color.Color) error {
	l, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: y}, {X: p.X.Max, Y: y}})
	if err != nil {
		return err
	}
	l.Color, l.Dashes, l.Width = c, []vg.Length{vg.Points(4), vg.Points(3)}, vg.Points(1)
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// vLine draws a dotted vertical reference at x across the plot's y range.
func vLine(p *plot.Plot, x float64, label string) error {
	lo, hi := p.Y.Min, p.Y.Max
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}})
	if err != nil {
		return err
	}
	l.Color, l.Dashes, l.Width = color.Black, []vg.Length{vg.Points(1), vg.Points(2)}, vg.Points(1.2)
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// render finishes a chart; its title becomes the page's heading over it.
func render(p *plot.Plot, caption string) chart {
	title := p.Title.Text
	p.Title.Text = ""
	svg, err := plotsvg.Render(p, chartW, chartH)
	if err != nil {
		return chart{Title: title, Empty: err.Error()}
	}
	return chart{Title: title, SVG: template.HTML(svg), Caption: caption}
}

// offered is the x of every sweep chart: the realized offered rate.
func offered(r Rate) *float64 { return r.OfferedRPS }

// kneeLine draws the knee at the mean realized offered rate of its runs
// (the charts' x), labelled as the headline names it.
func (r Result) kneeLine(p *plot.Plot) error {
	x, ok := r.kneeX()
	if !ok {
		return nil
	}
	return vLine(p, x, "knee: "+r.kneeRate())
}

// kneeRate names the knee: its nominal rate, and the realized mean
// offered rate of its runs (where the charts draw it) when the two differ
// at two decimals.
func (r Result) kneeRate() string {
	nominal := numfmt.Shortest(*r.KneeRPS) + " req/s"
	x, ok := r.kneeX()
	if realized := numfmt.Fixed(x, 2); ok && realized != numfmt.Fixed(*r.KneeRPS, 2) {
		return nominal + " nominal (" + realized + " req/s realized)"
	}
	return nominal
}

// kneeX is the mean realized offered rate of the knee's runs.
func (r Result) kneeX() (float64, bool) {
	if r.KneeRPS == nil {
		return 0, false
	}
	var xs []float64
	for _, row := range r.Rates {
		if row.RateRPS == *r.KneeRPS && row.OfferedRPS != nil {
			xs = append(xs, *row.OfferedRPS)
		}
	}
	if len(xs) == 0 {
		return 0, false
	}
	return mean(xs), true
}

// marksCaption says how the marks relate to runs.
const marksCaption = "One mark per run (repeats of a rate are separate marks, joined by a bar over their spread); the line joins the means of each nominal rate. The chart's size grows with the number of runs, never with the number of requests."

// latencyChart draws one metric's p50, p90 and p99 against offered rate,
// with its SLO bound.
func (r Result) latencyChart(name string, p50, p90, p99 func(Rate) *float64, boundMS float64) chart {
	p := plotsvg.New(name+" percentiles against offered rate", "offered rate (req/s, realized)", name+" (ms)")
	var n int
	var all []series
	for i, s := range []series{
		seriesOf("p50", plotsvg.Palette[0], r.Rates, offered, p50),
		seriesOf("p90", plotsvg.Palette[4], r.Rates, offered, p90),
		seriesOf("p99", plotsvg.Palette[1], r.Rates, offered, p99),
	} {
		n += len(s.runs)
		all = append(all, s)
		if err := s.add(p, []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}[i]); err != nil {
			return chart{Title: p.Title.Text, Empty: err.Error()}
		}
	}
	if n == 0 {
		return chart{Title: p.Title.Text, Empty: "no run has this metric"}
	}
	caption := marksCaption
	if lo, hi, ok := positiveRange(all, boundMS); ok && hi/lo > logAxisSpan {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lo))), hi*1.3
		p.Y.Label.Text = name + " (ms, log scale)"
		caption = "The values span more than two decades, so the axis is logarithmic. " + caption
	} else {
		p.Y.Min = 0
	}
	if boundMS > 0 {
		p.Y.Max = max(p.Y.Max, boundMS*1.05)
		if err := hLine(p, boundMS, fmt.Sprintf("SLO bound %g ms", boundMS), plotsvg.Palette[2]); err != nil {
			return chart{Title: p.Title.Text, Empty: err.Error()}
		}
	}
	if err := r.kneeLine(p); err != nil {
		return chart{Title: p.Title.Text, Empty: err.Error()}
	}
	return render(p, caption)
}

// logAxisSpan is the ratio of the largest to the smallest value past
// which a latency chart's axis is logarithmic: two decades.
const logAxisSpan = 100

// positiveRange returns the smallest and largest y of the series' runs
// and the bound (when declared), and false when any y is not positive (a
// log axis cannot draw it).
func positiveRange(all []series, boundMS float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range all {
		for _, xy := range s.runs {
			if !(xy.Y > 0) {
				return 0, 0, false
			}
			lo, hi = math.Min(lo, xy.Y), math.Max(hi, xy.Y)
		}
	}
	if boundMS > 0 {
		lo, hi = math.Min(lo, boundMS), math.Max(hi, boundMS)
	}
	return lo, hi, hi >= lo
}

// attainmentChart draws attainment with its two-sided Wilson bounds and
// the target, against offered rate, or against users for a user search
// (with the bracket's ends).
func (r Result) attainmentChart() chart {
	users := r.Capacity.OfUsers()
	x, title, xLabel := offered, "Attainment against offered rate", "offered rate (req/s, realized)"
	if users {
		x, title, xLabel = usersX, "Attainment against closed-loop users", "closed-loop users"
	}
	yLabel := "share of offered requests qualified"
	if r.Capacity.Unit == capacity.UnitAgents {
		title, xLabel, yLabel = "Session attainment against concurrent agents", "concurrent agents (closed-loop users)", "share of judged sessions qualified"
	}
	p := plotsvg.New(title, xLabel, yLabel)
	level := numfmt.Level(r.Rule.Confidence)
	att := seriesOf("attainment", plotsvg.Palette[0], r.Rates, x, func(x Rate) *float64 { return x.Attainment })
	wil := seriesOf("Wilson "+level+" lower bound", plotsvg.Palette[5], r.Rates, x, func(x Rate) *float64 { return x.WilsonLower })
	up := seriesOf("Wilson "+level+" upper bound", plotsvg.Palette[3], r.Rates, x, func(x Rate) *float64 { return x.WilsonUpper })
	if len(att.runs) == 0 {
		return chart{Title: p.Title.Text, Empty: "no run offered a request"}
	}
	for i, s := range []series{att, wil, up} {
		if err := s.add(p, []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}[i]); err != nil {
			return chart{Title: p.Title.Text, Empty: err.Error()}
		}
	}
	p.Y.Min, p.Y.Max = min(p.Y.Min, r.Rule.MinAttainment-0.05), 1.0
	if err := hLine(p, r.Rule.MinAttainment, fmt.Sprintf("target %g", r.Rule.MinAttainment), plotsvg.Palette[2]); err != nil {
		return chart{Title: p.Title.Text, Empty: err.Error()}
	}
	if err := r.bracketLines(p, users); err != nil {
		return chart{Title: p.Title.Text, Empty: err.Error()}
	}
	judged := "the observed attainment"
	if r.Rule.UseWilsonLower {
		judged = "the Wilson lower bound"
	}
	return render(p, "The rule judges "+judged+" against the target; the bounds show the uncertainty of each run. Answer: "+r.Capacity.String()+". "+marksCaption)
}

// usersX is the x of a user search's attainment chart.
func usersX(r Rate) *float64 {
	if r.Users == 0 {
		return nil
	}
	u := float64(r.Users)
	return &u
}

// bracketLines marks the answer: the knee on a rate chart, both ends of
// the bracket on a users chart.
func (r Result) bracketLines(p *plot.Plot, users bool) error {
	if !users {
		return r.kneeLine(p)
	}
	if b := r.Capacity; b.Low != nil {
		if err := vLine(p, *b.Low, fmt.Sprintf("SLO concurrency %g users", *b.Low)); err != nil {
			return err
		}
	}
	if b := r.Capacity; b.High != nil {
		return vLine(p, *b.High, fmt.Sprintf("lowest failing %g users", *b.High))
	}
	return nil
}

// goodputChart draws qualified and successful requests per second against
// the offered rate, with the line where all offered work qualifies.
func (r Result) goodputChart() chart {
	p := plotsvg.New("Goodput against offered rate", "offered rate (req/s, realized)", "requests per second")
	q := seriesOf("qualified req/s", plotsvg.Palette[2], r.Rates, offered, func(x Rate) *float64 { return x.QualifiedRPS })
	s := seriesOf("successful req/s", plotsvg.Palette[6], r.Rates, offered, func(x Rate) *float64 { return x.SuccessfulRPS })
	if len(q.runs)+len(s.runs) == 0 {
		return chart{Title: p.Title.Text, Empty: "no run has a horizon"}
	}
	for i, se := range []series{s, q} {
		if err := se.add(p, []draw.GlyphDrawer{draw.SquareGlyph{}, draw.CircleGlyph{}}[i]); err != nil {
			return chart{Title: p.Title.Text, Empty: err.Error()}
		}
	}
	p.X.Min, p.Y.Min = 0, 0
	top := max(p.X.Max, p.Y.Max)
	ideal, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: top, Y: top}})
	if err == nil {
		ideal.Color, ideal.Dashes = plotsvg.Grey, []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(ideal)
		p.Legend.Add("every offered request qualified", ideal)
	}
	_ = r.kneeLine(p)
	return render(p, "Rates over each run's horizon (window start to last outcome). "+marksCaption)
}

// tokensChart draws output tokens per second against the offered rate.
func (r Result) tokensChart() chart {
	p := plotsvg.New("Output tokens per second against offered rate", "offered rate (req/s, realized)", "output tokens/s (successful requests)")
	s := seriesOf("output tokens/s", plotsvg.Palette[3], r.Rates, offered, func(x Rate) *float64 { return x.OutputTokensPerS })
	if len(s.runs) == 0 {
		return chart{Title: p.Title.Text, Empty: "no successful request reported its output tokens"}
	}
	if err := s.add(p, draw.CircleGlyph{}); err != nil {
		return chart{Title: p.Title.Text, Empty: err.Error()}
	}
	p.X.Min, p.Y.Min = 0, 0
	_ = r.kneeLine(p)
	return render(p, "Output tokens of successful requests over each run's horizon. "+marksCaption)
}

// charts draws every chart of sweep.html.
func (r Result) charts() []chart {
	bound := func(get func(*sloMS) float64) float64 {
		if r.SLO == nil {
			return 0
		}
		return get(&sloMS{ttft: r.SLO.TTFT.Seconds() * 1000, tpot: r.SLO.TPOT.Seconds() * 1000, e2e: r.SLO.E2E.Seconds() * 1000})
	}
	ttftBound := bound(func(s *sloMS) float64 { return s.ttft })
	if r.SLO != nil && r.SLO.TTFTFromScheduled {
		ttftBound = 0 // judged from the scheduled time, not the plotted f - d
	}
	return []chart{
		r.latencyChart("TTFT", func(x Rate) *float64 { return x.TTFTP50MS }, func(x Rate) *float64 { return x.TTFTP90MS }, func(x Rate) *float64 { return x.TTFTP99MS }, ttftBound),
		r.latencyChart("TPOT", func(x Rate) *float64 { return x.TPOTP50MS }, func(x Rate) *float64 { return x.TPOTP90MS }, func(x Rate) *float64 { return x.TPOTP99MS }, bound(func(s *sloMS) float64 { return s.tpot })),
		r.latencyChart("E2E", func(x Rate) *float64 { return x.E2EP50MS }, func(x Rate) *float64 { return x.E2EP90MS }, func(x Rate) *float64 { return x.E2EP99MS }, bound(func(s *sloMS) float64 { return s.e2e })),
		r.attainmentChart(),
		r.goodputChart(),
		r.tokensChart(),
	}
}

// sloMS holds the declared bounds in milliseconds.
type sloMS struct{ ttft, tpot, e2e float64 }
