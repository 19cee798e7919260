package render

import (
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// The CDF of 150, 30, 50 rises by a third at each sorted value, starting
// from zero at the smallest.
func TestCDFChartStepsAtEachOrderStatistic(t *testing.T) {
	c := chartOf("TTFT", []float64{150, 30, 50}, cdfBound(100, true, "TTFT bound"))
	want := [][2]float64{{30, 0}, {30, 1.0 / 3}, {50, 2.0 / 3}, {150, 1}}
	if !reflect.DeepEqual(c.Points, want) || c.Steps != 3 {
		t.Fatalf("points %v steps %d, want %v", c.Points, c.Steps, want)
	}
	if !strings.Contains(string(c.SVG), ">TTFT bound 100 ms</text>") {
		t.Fatal("bound not labelled")
	}
	// 1,000 values 1..1000: 400 evenly spaced order statistics, ranks
	// round(k * 999 / 399), so the second drawn is rank 3 (value 4, at
	// 4/1000) and the last is the maximum.
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(1000 - i)
	}
	big := chartOf("E2E", xs, nil)
	if big.Steps != 400 || big.Points[1] != [2]float64{1, 0.001} || big.Points[2] != [2]float64{4, 0.004} || big.Points[400] != [2]float64{1000, 1} {
		t.Fatalf("steps %d, points %v %v %v", big.Steps, big.Points[1], big.Points[2], big.Points[400])
	}
}

// Each request sits at its scheduled time in seconds: a success at its
// TTFT from the scheduled time, a failure in its lane below zero. With the
// largest TTFT 150 ms a lane is 0.07 × 150 = 10.5 ms tall; http_error
// comes before timeout in the status order, so its lane is the first.
func TestScatterChartPlacesEveryRequest(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	r := &report.Report{WindowMS: [2]float64{0, 1000}, SLO: report.SLO{TTFT: 100 * time.Millisecond}, Requests: []report.RequestScore{
		{ID: "a", Status: record.StatusSuccess, ScheduledMS: 0, TTFTFromScheduledMS: f(50), Qualified: true},
		{ID: "b", Status: record.StatusSuccess, ScheduledMS: 200, TTFTFromScheduledMS: f(150)},
		{ID: "c", Status: record.StatusTimeout, ScheduledMS: 400},
		{ID: "d", Status: record.StatusHTTPError, ScheduledMS: 600},
		{ID: "e", Status: record.StatusSuccess, ScheduledMS: 800, TTFTFromScheduledMS: f(30), Qualified: true},
	}}
	s := scatterChart(r)
	got := map[string][][2]float64{}
	for _, se := range s.Series {
		for _, d := range se.Drawn { // lanes are multiples of 0.07 × 150, to rounding
			got[se.Legend] = append(got[se.Legend], [2]float64{math.Round(d[0]*1e9) / 1e9, math.Round(d[1]*1e9) / 1e9})
		}
		if se.Marks != len(se.Drawn) || se.Requests != len(se.Drawn) {
			t.Errorf("%s: %d requests, %d marks, %d drawn", se.Legend, se.Requests, se.Marks, len(se.Drawn))
		}
	}
	want := map[string][][2]float64{
		"success, qualified":     {{0, 50}, {0.8, 30}},
		"success, not qualified": {{0.2, 150}},
		"http_error":             {{0.6, -10.5}},
		"timeout":                {{0.4, -21}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("drawn %v, want %v", got, want)
	}
	if !strings.Contains(string(s.SVG), ">http_error (1)</text>") || !strings.Contains(s.Caption, "5 of 5 offered requests placed; 5 marks drawn, one per request") {
		t.Fatalf("lanes or caption: %s", s.Caption)
	}
}

// Beyond the limit, thinning keeps the first mark of each cell per series,
// growing the cell (2, 4, 6, 8, 10, 14 px, …) until the marks fit: 10
// marks 1 px apart in one series fit in 4 only once a cell spans 3 px or
// more (2 px cells keep 5; 4 px cells keep 3: x 0, 4, 8).
func TestThinMarksKeepsTheFirstOfEachCell(t *testing.T) {
	var marks []scatterMark
	for i := range 10 {
		marks = append(marks, scatterMark{x: float64(i), y: 0})
	}
	kept, cell := thinMarks(marks, 4)
	var xs []float64
	for _, m := range kept {
		xs = append(xs, m.x)
	}
	if cell != 4 || !reflect.DeepEqual(xs, []float64{0, 4, 8}) {
		t.Fatalf("cell %v kept %v", cell, xs)
	}
	if same, cell := thinMarks(marks, 10); len(same) != 10 || cell != 0 {
		t.Fatal("marks within the limit were thinned")
	}
}

// TestMarkCellsThinAsThinMarksDoes: marks fed in any order, past the point
// where they are kept by 2 px cell, thin to the same marks (in schedule
// order, with the same cell) as thinMarks gives on all of them in schedule
// order.
func TestMarkCellsThinAsThinMarksDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	all := make([]scatterMark, 30_000)
	for i := range all {
		m := scatterMark{dx: float64(i) / 100, series: rng.IntN(3)}
		m.x, m.y = m.dx/300*scatterGridW, rng.Float64()*scatterGridH
		all[i] = m
	}
	want, wantCell := thinMarks(all, scatterMaxMarks)
	var c markCells
	for _, i := range rng.Perm(len(all)) {
		c.add(all[i])
	}
	if c.cells == nil || len(c.marks) >= len(all) {
		t.Fatalf("%d marks kept of %d: the cells never took over", len(c.marks), len(all))
	}
	got, gotCell := c.thin(scatterMaxMarks)
	if gotCell != wantCell || !slices.Equal(got, want) {
		t.Fatalf("thinned to %d marks at cell %v, want %d at %v", len(got), gotCell, len(want), wantCell)
	}
}

// tickLabels returns the numeric tick labels of a chart's SVG.
func tickLabels(svg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`font-size:10px">([0-9.]+%?)</text>`).FindAllStringSubmatch(svg, -1) {
		out = append(out, m[1])
	}
	return out
}

// The CDF's axis is fitted to the data, 0–85 ms, even when the bound is
// 500 ms: the bound is marked by a label at the axis's end pointing past
// it, and the axis's labels stop at 80 ms.
func TestCDFAxisFitsTheDataAndMarksAFarBound(t *testing.T) {
	c := chartOf("TTFT", []float64{5, 20, 42, 85}, cdfBound(500, true, "TTFT bound"))
	svg := string(c.SVG)
	if !strings.Contains(svg, ">TTFT bound 500 ms →</text>") || strings.Contains(svg, `class="legend"`) {
		t.Errorf("the far bound is not marked at the edge:\n%s", svg)
	}
	if got := strings.Join(tickLabels(svg), " "); got != "0 20 40 60 80 0% 25% 50% 75% 100%" {
		t.Errorf("tick labels %q", got)
	}
	// A bound within a quarter of the axis past the data is drawn as a
	// line, the axis stretched to clear it, and named in the legend.
	near := string(chartOf("TTFT", []float64{5, 20, 42, 85}, cdfBound(100, true, "TTFT bound")).SVG)
	if !strings.Contains(near, ">TTFT bound 100 ms</text>") || !strings.Contains(near, `class="legend"`) || strings.Contains(near, "→") {
		t.Errorf("the near bound is not a line in the legend:\n%s", near)
	}
	if got := strings.Join(tickLabels(near), " "); got != "0 20 40 60 80 100 0% 25% 50% 75% 100%" {
		t.Errorf("tick labels %q", got)
	}
}
