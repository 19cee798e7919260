package sweepreport

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/plotsvg/svgcheck"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// realisticSweep is the sample sweep with TPOT and E2E percentiles on
// every run, its knee's runs realizing 3.8 req/s for a nominal 4 (the
// longest knee label), and a TTFT p99 of 2,900 ms past the knee against
// p50s of 10 ms below it: three decades.
func realisticSweep(t *testing.T) Result {
	t.Helper()
	dir := t.TempDir()
	sw := sampleSweep(dir)
	for i, p := range sw.Points {
		ms := float64(10 * (i + 1))
		p.Report.Percentiles[record.MetricTPOT] = distribution(ms/10, ms/8, ms/5)
		p.Report.Percentiles[record.MetricE2E] = distribution(ms*20, ms*30, ms*40)
		if p.OfferedRPS == 8 {
			p.Report.Percentiles[record.MetricTTFT] = distribution(900, 2000, 2900)
		} else {
			p.Report.Percentiles[record.MetricTTFT] = distribution(10, 40, 120)
		}
	}
	res := FromSweep(sw, dir)
	for i := range res.Rates {
		if res.Rates[i].RateRPS == 4 {
			res.Rates[i].OfferedRPS = ptr(3.8)
		}
	}
	return res
}

// Every legend of sweep.html, knee label included, lies within its
// chart's viewBox and plot area; so does the Pareto page's, with long
// configuration names.
func TestSweepLegendsStayInsideTheirCharts(t *testing.T) {
	var page strings.Builder
	if err := realisticSweep(t).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if n, err := svgcheck.LegendsInside(page.String()); err != nil || n != 6 {
		t.Fatalf("%d legends checked, want all 6: %v", n, err)
	}
	long := strings.Repeat("max-num-seqs-256-tensor-parallel-2-", 2)
	configs := []Config{
		{Name: long + "a", Sweep: Result{WorkloadSHA256: "w", Rates: []Rate{tokRow(1, 100, 2, "pass"), tokRow(2, 200, 4, "pass"), tokRow(4, 900, 2, "fail")}}},
		{Name: long + "b", Sweep: Result{WorkloadSHA256: "w", Rates: []Rate{tokRow(2, 300, 4, "pass"), tokRow(4, 500, 8, "pass")}}},
	}
	p, err := NewPareto(configs)
	if err != nil {
		t.Fatal(err)
	}
	var pareto strings.Builder
	if err := p.WriteHTML(&pareto, configs); err != nil {
		t.Fatal(err)
	}
	if n, err := svgcheck.LegendsInside(pareto.String()); err != nil || n != 1 {
		t.Fatalf("Pareto page: %d legends checked: %v", n, err)
	}
}

// Values spanning more than two decades get a log axis labelled at the
// powers of ten; values within two decades keep a linear axis from zero.
func TestLatencyAxisIsLogarithmicPastTwoDecades(t *testing.T) {
	charts := realisticSweep(t).charts()
	ttft, tpot := string(charts[0].SVG), string(charts[1].SVG)
	for _, want := range []string{">TTFT (ms, log scale)</text>", ">10</text>", ">100</text>", ">1000</text>"} {
		if !strings.Contains(ttft, want) {
			t.Errorf("TTFT chart lacks %q", want)
		}
	}
	if !strings.HasPrefix(charts[0].Caption, "The values span more than two decades, so the axis is logarithmic.") {
		t.Errorf("caption %q", charts[0].Caption)
	}
	// TPOT p50 1 ms to p99 8 ms: linear, from 0.
	if strings.Contains(tpot, "log scale") || !strings.Contains(tpot, ">TPOT (ms)</text>") || !strings.Contains(tpot, ">0</text>") {
		t.Errorf("TPOT chart is not linear from zero")
	}
}

// distribution is a latency distribution with its p50, p90 and p99.
func distribution(p50, p90, p99 float64) report.Distribution {
	return report.Distribution{P50: ptr(p50), P90: ptr(p90), P99: ptr(p99)}
}
