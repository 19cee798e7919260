package sweepreport

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

//go:embed templates/sweep.html.tmpl
var templates embed.FS

var pageTemplate = template.Must(template.ParseFS(templates, "templates/sweep.html.tmpl"))

// page is what the template shows, already formatted.
type page struct {
	Title   string
	Knee    string
	Notes   []string
	Header  []field
	Pareto  *chart
	Charts  []chart
	Columns []string
	Rows    []row
	// RunColumns adds each row's reasons and a link to its report.
	RunColumns bool
}

type field struct{ Name, Value string }

type row struct {
	Cells            []string
	Verdict, Reasons string
	Link             string
}

// WriteHTML writes sweep.html: a self-contained page (no script, no
// external file) with the knee, latency percentiles, attainment and
// goodput against offered rate, and a table of every run linking to its
// report.html.
func (r Result) WriteHTML(w io.Writer) error {
	p := page{Title: "servebench sweep", Knee: r.kneeText(), Notes: r.Notes, Charts: r.charts(), RunColumns: true,
		Columns: []string{"rate req/s", "repeat", "offered req/s", "qualified/offered", "attainment", "Wilson lower",
			"qualified req/s", "output tok/s", "TTFT p50/p99 ms", "TPOT p50/p99 ms", "E2E p99 ms", "max lag ms", "verdict", "reasons", "run"}}
	if r.WorkloadSHA256 != "" {
		p.Header = append(p.Header, field{"workload sha256", r.WorkloadSHA256})
	}
	if r.Arrival != nil {
		p.Header = append(p.Header, field{"arrival", fmt.Sprintf("%s, seed %d", r.Arrival.Process, r.Arrival.Seed)})
	}
	if r.SLO != nil {
		p.Header = append(p.Header, field{"SLO", sloText(*r.SLO)})
	}
	p.Header = append(p.Header, field{"capacity rule", ruleText(r.Rule)})
	p.Header = append(p.Header, field{"answer", r.Capacity.String()})
	if a := r.AutoUsers; a != nil {
		p.Header = append(p.Header, field{"users", fmt.Sprintf("automatic: doubled %v, bisected %v to a relative tolerance of %g, boundary replicates %v",
			a.Doubled, a.Bisected, a.Tolerance, a.Replicated)})
	}
	if r.Auto != nil {
		p.Header = append(p.Header, field{"rates", fmt.Sprintf("automatic: coarse series %s (×%g from %g req/s), then bisection %s to a resolution of %g req/s",
			rateList(r.Auto.Coarse), r.Auto.Factor, r.Auto.StartRPS, rateList(r.Auto.Bisected), r.Auto.ResolutionRPS)})
	}
	for _, x := range r.Rates {
		rw := row{Verdict: x.Verdict, Reasons: strings.Join(x.Reasons, "; "), Cells: []string{
			levelCell(x), strconv.Itoa(x.Repeat), numfmt.OptFixed(x.OfferedRPS, 3), fmt.Sprintf("%d/%d", x.Qualified, x.Offered),
			numfmt.OptFixed(x.Attainment, 3), numfmt.OptFixed(x.WilsonLower, 3), numfmt.OptFixed(x.QualifiedRPS, 3), numfmt.OptFixed(x.OutputTokensPerS, 1),
			numfmt.OptFixed(x.TTFTP50MS, 1) + " / " + numfmt.OptFixed(x.TTFTP99MS, 1), numfmt.OptFixed(x.TPOTP50MS, 1) + " / " + numfmt.OptFixed(x.TPOTP99MS, 1),
			numfmt.OptFixed(x.E2EP99MS, 1), numfmt.OptFixed(x.MaxScheduleLagMS, 1)}}
		if x.RunDir != "" && !strings.HasPrefix(x.RunDir, "/") {
			rw.Link = path.Join(x.RunDir, record.ReportHTMLFile)
		}
		p.Rows = append(p.Rows, rw)
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return fmt.Errorf("sweep.html: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// levelCell is a row's tested point: its rate, or its users in a user
// search.
func levelCell(x Rate) string {
	if x.Users > 0 {
		return strconv.Itoa(x.Users) + " users"
	}
	return numfmt.OptFixed(&x.RateRPS, -1)
}

// kneeText states the knee the way the text output does.
func (r Result) kneeText() string {
	if r.Capacity.OfUsers() {
		if r.SLOConcurrencyUsers == nil {
			return "SLO concurrency: no tested number of users passed."
		}
		if r.Capacity.Unit == capacity.UnitAgents {
			return fmt.Sprintf("Agent capacity: %d agents, the most concurrent sessions whose session attainment passed.", *r.SLOConcurrencyUsers)
		}
		return fmt.Sprintf("SLO concurrency: %d users, the %s.", *r.SLOConcurrencyUsers, r.KneeRule)
	}
	if r.KneeRPS == nil {
		s := "Knee: no tested rate passed."
		if len(r.InconclusiveRPS) > 0 {
			s += " Inconclusive: " + rateList(r.InconclusiveRPS) + " req/s."
		}
		if len(r.GeneratorBoundRPS) > 0 {
			s += " Generator-bound (the client, not the engine, was the limit): " + rateList(r.GeneratorBoundRPS) + " req/s."
		}
		return s
	}
	s := fmt.Sprintf("Knee: %s, the %s.", r.kneeRate(), r.KneeRule)
	if r.FailingNeighborRPS != nil {
		s += fmt.Sprintf(" %g req/s does not pass.", *r.FailingNeighborRPS)
	}
	if len(r.GeneratorBoundRPS) > 0 {
		s += " Generator-bound (the client, not the engine, was the limit): " + rateList(r.GeneratorBoundRPS) + " req/s."
	}
	if !r.Monotonic {
		s += " Not monotonic: a lower rate did not pass."
	}
	return s
}

func sloText(s report.SLO) string {
	var parts []string
	if s.TTFT > 0 {
		from := "sent"
		if s.TTFTFromScheduled {
			from = "scheduled"
		}
		parts = append(parts, fmt.Sprintf("TTFT ≤ %g ms (from %s)", s.TTFT.Seconds()*1000, from))
	}
	if s.TPOT > 0 {
		parts = append(parts, fmt.Sprintf("TPOT ≤ %g ms", s.TPOT.Seconds()*1000))
	}
	if s.E2E > 0 {
		parts = append(parts, fmt.Sprintf("E2E ≤ %g ms", s.E2E.Seconds()*1000))
	}
	if len(parts) == 0 {
		return "none declared"
	}
	return strings.Join(parts, ", ")
}

func rateList(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}
