package sweepreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
)

func tokRow(rate, tokPerS, tpotMS float64, verdict string) Rate {
	return Rate{RateRPS: rate, Repeat: 1, OutputTokensPerS: &tokPerS, TPOTP50MS: &tpotMS, Verdict: verdict}
}

// Per-user speed is 1000 / TPOT p50: 2 ms → 500, 4 ms → 250, 5 ms → 200,
// 8 ms → 125, 10 ms → 100 tokens/s.
func TestParetoFrontOnlyFromPointsThatMetTheSLO(t *testing.T) {
	configs := []Config{
		{Name: "seqs-32", Sweep: Result{WorkloadSHA256: "w", Rates: []Rate{
			tokRow(1, 100, 2, "pass"), // (100, 500): front, the fastest per user
			tokRow(2, 200, 4, "pass"), // (200, 250): dominated by seqs-64 @2
			tokRow(4, 900, 2, "fail"), // would dominate everything, but failed
		}}},
		{Name: "seqs-64", Sweep: Result{WorkloadSHA256: "w", Rates: []Rate{
			tokRow(2, 300, 4, "pass"),          // (300, 250): front
			tokRow(4, 500, 8, "pass"),          // (500, 125): front
			tokRow(8, 400, 10, "inconclusive"), // not eligible
			{RateRPS: 16, Verdict: "fail"},     // no figures: skipped
		}}},
	}
	p, err := NewPareto(configs)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Points) != 6 || len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0], "seqs-64 at 16 req/s") {
		t.Fatalf("points %d skipped %q", len(p.Points), p.Skipped)
	}
	want := []struct {
		config string
		rate   float64
		speed  float64
	}{{"seqs-32", 1, 500}, {"seqs-64", 2, 250}, {"seqs-64", 4, 125}}
	if len(p.Front) != len(want) {
		t.Fatalf("front %+v", p.Front)
	}
	for i, w := range want {
		f := p.Front[i]
		if f.Config != w.config || f.RateRPS != w.rate || f.PerUserTokensPerS != w.speed || !f.OnFront || !f.MetSLO {
			t.Fatalf("front[%d] = %+v, want %+v", i, f, w)
		}
	}
	for _, pt := range p.Points {
		if pt.Verdict != "pass" && pt.OnFront {
			t.Fatalf("%+v on the front", pt)
		}
	}
	var page bytes.Buffer
	if err := p.WriteHTML(&page, configs); err != nil {
		t.Fatal(err)
	}
	if n := checkSVGs(t, page.String()); n != 1 || !strings.Contains(page.String(), "seqs-64 @4") {
		t.Fatalf("%d charts; labels missing", n)
	}
}

func TestParetoRefusesDifferentWorkloads(t *testing.T) {
	_, err := NewPareto([]Config{{Name: "a", Sweep: Result{WorkloadSHA256: "x"}}, {Name: "b", Sweep: Result{WorkloadSHA256: "y"}}})
	if err == nil || !strings.Contains(err.Error(), `b ran workload "y" but a ran "x"`) {
		t.Fatalf("err %v", err)
	}
}

func TestParetoWarnsWhenTheSweepsHadDifferentSLOs(t *testing.T) {
	rule := capacity.Rule{MinAttainment: 0.95, Confidence: 0.95}
	strict := &report.SLO{TTFT: 200 * time.Millisecond, TPOT: 20 * time.Millisecond}
	loose := &report.SLO{TTFT: 500 * time.Millisecond, TPOT: 20 * time.Millisecond}
	sweep := func(slo *report.SLO, r capacity.Rule) Result {
		return Result{WorkloadSHA256: "w", SLO: slo, Rule: r, Rates: []Rate{tokRow(1, 100, 2, "pass")}}
	}
	same, err := NewPareto([]Config{{Name: "a", Sweep: sweep(strict, rule)}, {Name: "b", Sweep: sweep(strict, rule)}})
	if err != nil || len(same.Warnings) != 0 {
		t.Fatalf("same SLOs: %v %q", err, same.Warnings)
	}
	wilson := rule
	wilson.UseWilsonLower = true
	p, err := NewPareto([]Config{{Name: "a", Sweep: sweep(strict, rule)}, {Name: "b", Sweep: sweep(loose, rule)}, {Name: "c", Sweep: sweep(strict, wilson)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"b was judged by the SLO TTFT ≤ 500 ms (from sent), TPOT ≤ 20 ms but a by TTFT ≤ 200 ms (from sent), TPOT ≤ 20 ms: whether a point met the SLO is not comparable across them",
		"c was judged by the capacity rule Wilson 95% lower bound of attainment ≥ 0.95, load delivered but a by attainment ≥ 0.95, load delivered",
	}
	if strings.Join(p.Warnings, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(p.Warnings, "\n"), strings.Join(want, "\n"))
	}
	var page bytes.Buffer
	if err := p.WriteHTML(&page, nil); err != nil || !strings.Contains(page.String(), "whether a point met the SLO is not comparable") {
		t.Fatalf("the page does not carry the warning (%v)", err)
	}
}

// Labels never cover each other or leave the plot: a label that fits on
// neither side of its mark is left out and counted.
func TestParetoLabelsDoNotOverlap(t *testing.T) {
	var order []ParetoPoint
	// Ten runs within 1% of each other, and one at the right edge.
	for i := range 10 {
		order = append(order, ParetoPoint{Config: "seqs-64", RateRPS: float64(i + 1), OutputTokensPerS: 500 + float64(i), PerUserTokensPerS: 100 + float64(i)/10})
	}
	order = append(order, ParetoPoint{Config: "seqs-128-tp2", RateRPS: 32, OutputTokensPerS: 1000, PerUserTokensPerS: 50})
	plotters, omitted := paretoLabels(order, 1000*1.08, 110*1.08)
	// "seqs-64 @1" is 10 characters: 10 × 4.2 + 4 = 46 points wide, 9.75
	// high; per point 1080/740 and 118.8/260 data units, so a label spans
	// 67.1 of x and 4.5 of y. The first run's label takes [500, 567.1]
	// right of its mark; every other run of the cluster would cover it on
	// either side (left of 501 is [433.9, 501]). "seqs-128-tp2 @32" (16
	// characters) spans 103.9 and would leave the plot right of 1000, so
	// it goes left.
	if omitted != 9 || len(plotters) != 2 {
		t.Fatalf("omitted %d, %d label sets; want 9 and both sides", omitted, len(plotters))
	}
	right, left := plotters[0].(*plotter.Labels), plotters[1].(*plotter.Labels)
	if strings.Join(right.Labels, ",") != "seqs-64 @1" || strings.Join(left.Labels, ",") != "seqs-128-tp2 @32" {
		t.Fatalf("right %q, left %q", right.Labels, left.Labels)
	}
}
