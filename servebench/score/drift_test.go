package score

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// A p99 that rises 10 ms every 5 s interval from 100 ms: every pairwise
// slope is 10/5000 = 0.002 ms per ms (7,200 ms per hour), so the interval
// collapses onto it; the fitted start is 100 ms at the first midpoint and
// the span between the first and last midpoints is 25,000 ms, so growth is
// 0.002 × 25,000 / 100 = 0.5.
func TestSenTrendLinearGrowth(t *testing.T) {
	xs := []float64{2500, 7500, 12500, 17500, 22500, 27500}
	ys := []float64{100, 110, 120, 130, 140, 150}
	tr := senTrend("ttft_p99_ms", xs, ys, 0.95)
	wantFloat(t, "slope", tr.SlopeMSPerHour, 7200)
	wantFloat(t, "slope low", tr.SlopeLowMSPerHour, 7200)
	wantFloat(t, "slope high", tr.SlopeHighMSPerHour, 7200)
	wantFloat(t, "growth", tr.Growth, 0.5)
	if !tr.Drifting(0.2) || tr.Drifting(0.5) {
		t.Fatalf("growth 0.5 against thresholds 0.2 and 0.5: drifting %v and %v, want true and false", tr.Drifting(0.2), tr.Drifting(0.5))
	}
	if !strings.Contains(tr.Finding, "+50.0%") {
		t.Fatalf("finding %q", tr.Finding)
	}
}

// A level series with noise: the pairwise slopes straddle zero, so the
// interval holds zero and nothing drifts.
func TestSenTrendSteady(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	ys := []float64{100, 102, 99, 101, 100, 98, 101, 100}
	tr := senTrend("ttft_p99_ms", xs, ys, 0.95)
	if tr.GrowthLow == nil || *tr.GrowthLow > 0 || *tr.GrowthHigh < 0 || tr.Drifting(0) {
		t.Fatalf("steady series: growth %v [%v, %v], want an interval around 0", *tr.Growth, *tr.GrowthLow, *tr.GrowthHigh)
	}
	if short := senTrend("x", xs[:5], ys[:5], 0.95); short.SlopeMSPerHour != nil || short.Drifting(0) {
		t.Fatal("five intervals were tested")
	}
}

// TestDriftIntervals checks the per-interval counts on three requests in
// a 3 s window of 1 s intervals:
//
//	a: scheduled 100, sent 100, ends 1500 (success, TTFT 50)
//	b: scheduled 1200, sent 1200, ends 2500
//	c: scheduled 2100, sent 2100, never recorded
//
// Offered per interval: 1, 1, 1. Completed: a in [1000, 2000), b in
// [2000, 3000): 0, 1, 1. Outstanding at 1000: a; at 2000: b; at 3000: c
// (no terminal): 1, 1, 1.
func TestDriftIntervals(t *testing.T) {
	d := newDriftTally([2]float64{0, 3000}, 1000)
	recs := []scoreRecord{
		{status: record.StatusSuccess, scheduled: 100, sent: new(100.0), terminal: 1500, hasTerminal: true, content: []float64{150, 160}},
		{status: record.StatusHTTPError, scheduled: 1200, sent: new(1200.0), terminal: 2500, hasTerminal: true},
		{status: record.StatusNotSent, scheduled: 2100, sent: new(2100.0)},
	}
	for i := range recs {
		m := measureRecord(&recs[i])
		d.add(&recs[i], &m)
	}
	r := d.report(0.95)
	want := []report.DriftInterval{{StartMS: 0, Offered: 1, Outstanding: 1}, {StartMS: 1000, Offered: 1, Completed: 1, Outstanding: 1},
		{StartMS: 2000, Offered: 1, Completed: 1, Outstanding: 1}}
	for j, w := range want {
		g := r.Intervals[j]
		g.TTFTP99MS, g.TPOTP99MS = nil, nil
		if g != w {
			t.Fatalf("interval %d: %+v, want %+v", j, g, w)
		}
	}
	if r.Judged || !strings.Contains(r.Note, "fewer than 6 intervals") {
		t.Fatalf("judged %v, note %q", r.Judged, r.Note)
	}
}

// TestDriftBinsP99 checks the binned p99 against the exact one: within
// 0.5% above it, never below, and exact when capped at the maximum.
func TestDriftBinsP99(t *testing.T) {
	var b driftBins
	for i := 1; i <= 200; i++ {
		b.add(float64(i))
	}
	// Nearest rank ceil(0.99 × 200) = 198: the value 198.
	got := *b.p99()
	if got < 198 || got > 198*1.005 {
		t.Fatalf("p99 %v, want within [198, 198.99]", got)
	}
	var few driftBins
	few.add(3)
	if few.p99() != nil {
		t.Fatal("a p99 from one value")
	}
	var capped driftBins
	for range 20 {
		capped.add(7.5)
	}
	if v := *capped.p99(); v != 7.5 {
		t.Fatalf("twenty 7.5s: p99 %v, want 7.5", v)
	}
}

// TestScoreReportsDrift scores a run whose TTFT grows steadily: every
// request in interval k has TTFT 100 + 10k ms.
func TestScoreReportsDrift(t *testing.T) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 8000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	for i := range 160 {
		id := "d" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		a := float64(i * 50)
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: a})
		f := a + 100 + 10*math.Floor(a/1000)
		outs = append(outs, success(id, a, a, []float64{f, f + 20}, f+30, new(2)))
	}
	r, err := Outcomes(s, outs, Options{DriftInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Drift == nil || !r.Drift.Judged || len(r.Drift.Intervals) != 8 {
		t.Fatalf("drift %+v", r.Drift)
	}
	tr := r.Drift.Trends[0]
	// 10 ms per 1,000 ms: 36,000 ms per hour; from 100 ms over 7,000 ms
	// between the first and last midpoints: growth 0.7.
	wantFloat(t, "slope", tr.SlopeMSPerHour, 36000)
	wantFloat(t, "growth", tr.Growth, 0.7)
	if !tr.Drifting(0.2) {
		t.Fatalf("trend %+v not drifting", tr)
	}
	if r, err := Outcomes(s, outs, Options{DriftInterval: -1}); err != nil || r.Drift != nil {
		t.Fatalf("drift left out: %v %+v", err, r.Drift)
	}
}
