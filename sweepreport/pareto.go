package sweepreport

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/servebench/servebench/servebench/report"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/servebench/servebench/internal/plotsvg"
)

// Config is one sweep of an engine configuration, by name.
type Config struct {
	Name  string
	Sweep Result
}

// ParetoPoint is one run of one configuration on the throughput–speed
// plane.
type ParetoPoint struct {
	Config  string  `json:"config"`
	RateRPS float64 `json:"rate_rps"`
	Repeat  int     `json:"repeat"`
	// OutputTokensPerS is the run's total output tokens per second.
	OutputTokensPerS float64 `json:"output_tokens_per_s"`
	// PerUserTokensPerS is the output speed one request sees: 1000 over
	// the run's median TPOT (ms).
	PerUserTokensPerS float64 `json:"per_user_tokens_per_s"`
	TPOTP50MS         float64 `json:"tpot_p50_ms"`
	// MetSLO is true when the run's verdict was pass; only such points may
	// be on the front.
	MetSLO  bool   `json:"met_slo"`
	Verdict string `json:"verdict"`
	OnFront bool   `json:"on_front"`
	RunDir  string `json:"run_dir"`
}

// Pareto is the front of several sweeps of one workload.
type Pareto struct {
	// Front holds the points on the front, by total output tokens/s
	// ascending (so per-user speed descends).
	Front []ParetoPoint `json:"front"`
	// Points holds every run that has both coordinates.
	Points []ParetoPoint `json:"points"`
	// Skipped says which runs could not be placed and why.
	Skipped []string `json:"skipped"`
	// WorkloadSHA256 is the workload every sweep ran.
	WorkloadSHA256 string `json:"workload_sha256"`
	// Warnings says what makes the configurations' points less
	// comparable: sweeps judged by different SLOs or capacity rules, so
	// that "met the SLO" means different things from one to the next.
	Warnings []string `json:"warnings"`
}

// NewPareto places every run of every configuration and finds the front:
// the runs that met the SLO and that no other such run beats on both total
// output tokens/s and per-user output speed. It is an error when the
// sweeps ran different workloads.
func NewPareto(configs []Config) (Pareto, error) {
	out := Pareto{Front: []ParetoPoint{}, Points: []ParetoPoint{}, Skipped: []string{}, Warnings: sloWarnings(configs)}
	for i, c := range configs {
		if i == 0 {
			out.WorkloadSHA256 = c.Sweep.WorkloadSHA256
		} else if c.Sweep.WorkloadSHA256 != out.WorkloadSHA256 {
			return Pareto{}, fmt.Errorf("pareto: %s ran workload %q but %s ran %q: a front compares configurations on one workload",
				c.Name, c.Sweep.WorkloadSHA256, configs[0].Name, out.WorkloadSHA256)
		}
		for _, r := range c.Sweep.Rates {
			if r.OutputTokensPerS == nil || r.TPOTP50MS == nil || !(*r.TPOTP50MS > 0) {
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s at %g req/s (run %d): no output tokens/s or median TPOT", c.Name, r.RateRPS, r.Repeat))
				continue
			}
			out.Points = append(out.Points, ParetoPoint{Config: c.Name, RateRPS: r.RateRPS, Repeat: r.Repeat,
				OutputTokensPerS: *r.OutputTokensPerS, PerUserTokensPerS: 1000 / *r.TPOTP50MS, TPOTP50MS: *r.TPOTP50MS,
				MetSLO: r.Verdict == "pass", Verdict: r.Verdict, RunDir: r.RunDir})
		}
	}
	// Sweep the eligible points from the highest throughput down; a point
	// is on the front when it is faster per user than every point with
	// more throughput.
	idx := make([]int, 0, len(out.Points))
	for i, p := range out.Points {
		if p.MetSLO {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		pa, pb := out.Points[a], out.Points[b]
		return cmp.Or(cmp.Compare(pb.OutputTokensPerS, pa.OutputTokensPerS), cmp.Compare(pb.PerUserTokensPerS, pa.PerUserTokensPerS))
	})
	best := -1.0
	for _, i := range idx {
		if out.Points[i].PerUserTokensPerS > best {
			best = out.Points[i].PerUserTokensPerS
			out.Points[i].OnFront = true
			out.Front = append(out.Front, out.Points[i])
		}
	}
	slices.Reverse(out.Front)
	return out, nil
}

// sloWarnings compares each sweep's SLO and capacity rule with the first
// one's.
func sloWarnings(configs []Config) []string {
	out := []string{}
	if len(configs) == 0 {
		return out
	}
	first := configs[0]
	for _, c := range configs[1:] {
		if a, b := sloOrNone(first.Sweep.SLO), sloOrNone(c.Sweep.SLO); a != b {
			out = append(out, fmt.Sprintf("%s was judged by the SLO %s but %s by %s: whether a point met the SLO is not comparable across them",
				c.Name, b, first.Name, a))
		}
		if a, b := ruleText(first.Sweep.Rule), ruleText(c.Sweep.Rule); a != b {
			out = append(out, fmt.Sprintf("%s was judged by the capacity rule %s but %s by %s", c.Name, b, first.Name, a))
		}
	}
	return out
}

// sloOrNone writes an optional SLO in words.
func sloOrNone(s *report.SLO) string {
	if s == nil {
		return "(not recorded)"
	}
	return sloText(*s)
}

// paretoLabelLimit bounds the labelled points; the front is always
// labelled.
const paretoLabelLimit = 60

// chart draws the plane: each configuration's SLO-meeting runs in its
// colour, the others grey, the front joined by a line.
func (p Pareto) chart(configs []Config) chart {
	pl := plotsvg.New("Per-user output speed against total output throughput", "total output tokens/s", "per-user tokens/s (1000 / p50 TPOT)")
	if len(p.Points) == 0 {
		return chart{Title: pl.Title.Text, Empty: "no run has both output tokens/s and a median TPOT"}
	}
	var grey plotter.XYs
	for _, pt := range p.Points {
		if !pt.MetSLO {
			grey = append(grey, plotter.XY{X: pt.OutputTokensPerS, Y: pt.PerUserTokensPerS})
		}
	}
	if len(grey) > 0 {
		s, _ := plotter.NewScatter(grey)
		s.Color, s.Shape, s.Radius = missedColour, boldCross{}, vg.Points(4)
		pl.Add(s)
		pl.Legend.Add("did not meet the SLO", s)
	}
	for i, c := range configs {
		var xy plotter.XYs
		for _, pt := range p.Points {
			if pt.MetSLO && pt.Config == c.Name {
				xy = append(xy, plotter.XY{X: pt.OutputTokensPerS, Y: pt.PerUserTokensPerS})
			}
		}
		if len(xy) == 0 {
			continue
		}
		s, _ := plotter.NewScatter(xy)
		s.Color, s.Radius = plotsvg.Palette[i%len(plotsvg.Palette)], vg.Points(3)
		s.Shape = draw.CircleGlyph{}
		pl.Add(s)
		pl.Legend.Add(c.Name, s)
	}
	var front plotter.XYs
	for _, pt := range p.Front {
		front = append(front, plotter.XY{X: pt.OutputTokensPerS, Y: pt.PerUserTokensPerS})
	}
	if len(front) > 0 {
		l, _ := plotter.NewLine(front)
		l.Width = vg.Points(1.2)
		pl.Add(l)
		pl.Legend.Add("front", l)
	}
	// Labels: the front's first, then the others in order.
	xMax, yMax := 0.0, 0.0
	for _, pt := range p.Points {
		xMax, yMax = max(xMax, pt.OutputTokensPerS), max(yMax, pt.PerUserTokensPerS)
	}
	xMax, yMax = xMax*1.08, yMax*1.08 // room for the marks and labels at the edges
	order := make([]ParetoPoint, 0, len(p.Points))
	order = append(order, p.Front...)
	for _, pt := range p.Points {
		if !pt.OnFront {
			order = append(order, pt)
		}
	}
	labels, omitted := paretoLabels(order, xMax, yMax)
	pl.Add(labels...)
	pl.X.Max, pl.Y.Max = xMax, yMax
	pl.X.Min, pl.Y.Min = 0, 0
	caption := fmt.Sprintf("%d runs from %d configurations; %d on the front. Only runs that met the SLO at their rate may be on the front; the others are drawn as grey crosses (×). Labels read configuration @ nominal rate (req/s)", len(p.Points), len(configs), len(p.Front))
	if omitted == 0 {
		caption += "; every run is labelled."
	} else {
		caption += fmt.Sprintf("; %d labels that would cover another or leave the chart (front points first, at most %d) are left out, and the table lists every run.", omitted, paretoLabelLimit)
	}
	return render(pl, caption)
}

// WriteHTML writes the front as a self-contained page: the chart and a
// table of every run.
func (p Pareto) WriteHTML(w io.Writer, configs []Config) error {
	c := p.chart(configs)
	pg := page{Title: "servebench Pareto front", Knee: fmt.Sprintf("%d of %d runs on the front.", len(p.Front), len(p.Points)),
		Notes: append(slices.Clone(p.Warnings), p.Skipped...), Pareto: &c,
		Columns: []string{"configuration", "rate req/s", "repeat", "output tok/s", "per-user tok/s", "TPOT p50 ms", "on front", "verdict"}}
	if p.WorkloadSHA256 != "" {
		pg.Header = []field{{"workload sha256", p.WorkloadSHA256}}
	}
	for _, pt := range p.Points {
		front := "no"
		if pt.OnFront {
			front = "yes"
		}
		pg.Rows = append(pg.Rows, row{Verdict: pt.Verdict, Cells: []string{pt.Config, strconv.FormatFloat(pt.RateRPS, 'g', -1, 64), strconv.Itoa(pt.Repeat),
			strconv.FormatFloat(pt.OutputTokensPerS, 'f', 1, 64), strconv.FormatFloat(pt.PerUserTokensPerS, 'f', 1, 64),
			strconv.FormatFloat(pt.TPOTP50MS, 'f', 2, 64), front}})
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, pg); err != nil {
		return fmt.Errorf("pareto html: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
