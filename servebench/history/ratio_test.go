package history

import (
	"math"
	"strings"
	"testing"
)

// releasesOf makes one release per value of each series, named v1, v2, ….
func releasesOf(series map[string][]float64) []Release {
	var n int
	for _, vs := range series {
		n = len(vs)
	}
	out := make([]Release, n)
	for i := range out {
		out[i] = Release{Name: "v" + string(rune('1'+i)), Values: map[string]float64{}}
		for m, vs := range series {
			out[i].Values[m] = vs[i]
		}
	}
	return out
}

// p99 TTFT 100, 110, 90, 105, 130, 135 ms: the medians of the three
// releases before v4, v5 and v6 are 100, 105 and 105 ms, so the bounds
// are 120, 126 and 126 ms; v5 and v6 violate, v4 does not.
func TestRatioPolicyJudgesAgainstTheMedianOfTheWindow(t *testing.T) {
	h, err := Analyze(releasesOf(map[string][]float64{"ttft_p99": {100, 110, 90, 105, 130, 135}}), Options{Policy: PolicyRatio})
	if err != nil {
		t.Fatal(err)
	}
	if h.Policy != PolicyRatio || h.Ratio.Window != 3 || h.Ratio.Ratio != 1.2 || len(h.Ratio.Series) != 1 {
		t.Fatalf("analysis %+v", h.Ratio)
	}
	pts := h.Ratio.Series[0].Points
	want := []struct {
		release         string
		baseline, bound float64
		violates        bool
	}{{"v4", 100, 120, false}, {"v5", 105, 126, true}, {"v6", 105, 126, true}}
	if len(pts) != len(want) {
		t.Fatalf("points %+v", pts)
	}
	for i, w := range want {
		p := pts[i]
		if p.Release != w.release || p.Baseline != w.baseline || math.Abs(p.Bound-w.bound) > 1e-9 || p.Violates != w.violates {
			t.Errorf("point %d: %+v, want %+v", i, p, w)
		}
	}
	if h.Verdict.Outcome != Regression || h.Verdict.Release != "v6" || len(h.Verdict.Reasons) != 1 {
		t.Errorf("verdict %+v", h.Verdict)
	}
	// The same history under the changepoint policy: six releases are too
	// short for the permutation test (8 at 0.05).
	if v := h.Judge(PolicyChangepoint, nil); v.Outcome != InsufficientData {
		t.Errorf("changepoint verdict %+v", v)
	}
}

// A throughput is judged against (2 − ratio) × its baseline: qualified
// req/s 10, 10, 10, 10, 7.9, 7.5 with a ratio of 1.2 gives bounds of 8.0
// (median 10) at v5 and at v6 (median of 10, 10, 7.9): both violate. With
// the newest at 8.5 only v5 violates, and one violation is not a
// regression.
func TestRatioPolicyJudgesAThroughputFromBelow(t *testing.T) {
	h, err := Analyze(releasesOf(map[string][]float64{QualifiedRPS: {10, 10, 10, 10, 7.9, 7.5}}), Options{Policy: PolicyRatio})
	if err != nil {
		t.Fatal(err)
	}
	s := h.Ratio.Series[0]
	if !s.LessIsWorse || math.Abs(s.Points[1].Bound-8) > 1e-9 || math.Abs(s.Points[2].Bound-8) > 1e-9 || h.Verdict.Outcome != Regression {
		t.Fatalf("series %+v, verdict %+v", s, h.Verdict)
	}
	if !strings.Contains(h.Verdict.Reasons[0], "qualified_rps at v6: 7.500 req/s < 8.000 req/s (0.8 × the median 10.000 req/s") {
		t.Errorf("reason %q", h.Verdict.Reasons[0])
	}
	h, err = Analyze(releasesOf(map[string][]float64{QualifiedRPS: {10, 10, 10, 10, 7.9, 8.5}}), Options{Policy: PolicyRatio})
	if err != nil {
		t.Fatal(err)
	}
	if h.Verdict.Outcome != NoRegression || !h.Ratio.Series[0].Points[1].Violates || h.Ratio.Series[0].Points[2].Violates {
		t.Errorf("verdict %+v, points %+v", h.Verdict, h.Ratio.Series[0].Points)
	}
}

// Only the newest release violating (TPOT 100 ms five times, then 150) is
// not a regression; attainment, which falls from 0.99 to 0.5, is not
// judged by the ratio policy at all.
func TestRatioPolicyNeedsTwoViolationsAndSkipsFractions(t *testing.T) {
	h, err := Analyze(releasesOf(map[string][]float64{
		"tpot_p50":   {100, 100, 100, 100, 100, 150},
		"attainment": {0.99, 0.99, 0.99, 0.99, 0.5, 0.5},
	}), Options{Policy: PolicyRatio})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Ratio.Series) != 1 || h.Ratio.Series[0].Metric != "tpot_p50" || h.Verdict.Outcome != NoRegression {
		t.Errorf("series %+v, verdict %+v", h.Ratio.Series, h.Verdict)
	}
}

// Fewer than window + 2 releases is insufficient_data: four at the
// default window of 3; with a window of 1, three releases are enough
// (100, 130, 170: bounds 120 and 156, both exceeded). A window of 2 takes
// the mean of the middle two: 100 and 140 give a median of 120.
func TestRatioPolicyWindow(t *testing.T) {
	h, err := Analyze(releasesOf(map[string][]float64{"e2e_p99": {100, 100, 200, 200}}), Options{Policy: PolicyRatio})
	if err != nil {
		t.Fatal(err)
	}
	if h.Verdict.Outcome != InsufficientData || !strings.Contains(h.Verdict.Reasons[0], "needs at least 5 releases") {
		t.Errorf("verdict %+v", h.Verdict)
	}
	h, err = Analyze(releasesOf(map[string][]float64{"e2e_p99": {100, 130, 170}}), Options{Policy: PolicyRatio, Window: 1})
	if err != nil {
		t.Fatal(err)
	}
	if pts := h.Ratio.Series[0].Points; h.Verdict.Outcome != Regression || math.Abs(pts[0].Bound-120) > 1e-9 || math.Abs(pts[1].Bound-156) > 1e-9 {
		t.Errorf("verdict %+v, points %+v", h.Verdict, pts)
	}
	h, err = Analyze(releasesOf(map[string][]float64{"e2e_p99": {100, 140, 150, 150}}), Options{Policy: PolicyRatio, Window: 2})
	if err != nil {
		t.Fatal(err)
	}
	if b := h.Ratio.Series[0].Points[0].Baseline; b != 120 {
		t.Errorf("baseline %v, want 120", b)
	}
	for _, o := range []Options{{Window: -1}, {Ratio: 2.5}, {Ratio: 0.9}, {Policy: "hud"}} {
		if _, err := Analyze(releasesOf(map[string][]float64{"e2e_p99": {1, 2}}), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// A drop in a throughput is a change whose size is positive (worse), as
// compare signs it: 10 req/s then 8 is 10/8 − 1 = +25 %.
func TestAThroughputDropIsAWorseChange(t *testing.T) {
	var vs []float64
	for i := range 20 {
		v := 10.0
		if i >= 10 {
			v = 8
		}
		vs = append(vs, v*(1+0.001*float64(i%3)))
	}
	rel := make([]Release, len(vs))
	for i, v := range vs {
		rel[i] = Release{Name: "r" + string(rune('a'+i)), Values: map[string]float64{OutputTokensPerSecond: v}}
	}
	h, err := Analyze(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := h.Metrics[0].Changes
	if len(c) != 1 || c[0].Index != 10 || math.Abs(c[0].Size-0.25) > 0.002 || !(*c[0].CILow > 0 && *c[0].CILow < *c[0].CIHigh) {
		t.Errorf("changes %+v", c)
	}
}
