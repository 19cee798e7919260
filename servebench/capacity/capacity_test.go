package capacity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// sweepReport is a report summary with the fields capacity selection reads.
func sweepReport(offered, qualified int, valid, growing bool) *report.Report {
	r := &report.Report{Offered: offered, Qualified: qualified, Valid: valid,
		Attainment: new(float64(qualified) / float64(offered)), Backlog: &report.Backlog{AtWindowMid: 3, AtWindowEnd: 3}}
	if growing {
		r.Backlog.AtWindowEnd = 40
		r.Backlog.Growing = true
	}
	if !valid {
		r.InvalidReasons = []string{"3 of 100 offered requests were sent more than 20 ms after their scheduled time (max schedule lag 41 ms)"}
	}
	return r
}

// hypotheticalSweep: supplied observations, not measurements. Required:
// 95% attainment, lag within tolerance, no backlog growth.
func hypotheticalSweep() []Point {
	return []Point{
		{OfferedRPS: 2.5, Report: sweepReport(100, 96, true, true)},   // backlog grows
		{OfferedRPS: 0.5, Report: sweepReport(100, 100, true, false)}, // pass
		{OfferedRPS: 1.0, Report: sweepReport(100, 99, true, false)},  // pass
		{OfferedRPS: 1.5, Report: sweepReport(100, 96, true, false)},  // pass: 0.96 >= 0.95
		{OfferedRPS: 2.0, Report: sweepReport(100, 93, true, false)},  // 0.93 < 0.95
	}
}

var seedRule = Rule{MinAttainment: 0.95, RequireNoBacklogGrowth: true}

func TestSelectCapacityHighestPassingPoint(t *testing.T) {
	sel := Select(hypotheticalSweep(), seedRule)
	if sel.RPS == nil || *sel.RPS != 1.5 || sel.Label != "highest passing tested offered rate" {
		t.Fatalf("selection %+v", sel)
	}
	if sel.FailingNeighborRPS == nil || *sel.FailingNeighborRPS != 2.0 {
		t.Fatalf("failing neighbor %v", sel.FailingNeighborRPS)
	}
	// One verdict per point, in the points' order.
	wantRate := []float64{2.5, 0.5, 1.0, 1.5, 2.0}
	wantPass := []bool{false, true, true, true, false}
	for i, v := range sel.Verdicts {
		if v.OfferedRPS != wantRate[i] || v.Pass != wantPass[i] {
			t.Fatalf("verdict %d: %+v", i, v)
		}
	}
	if r := sel.Verdicts[4].Reasons; len(r) != 1 || r[0] != "attainment 0.930 (93 of 100 qualified) below 0.950" {
		t.Fatalf("2.0 reasons %q", r)
	}
	if r := sel.Verdicts[0].Reasons; len(r) != 1 || !strings.Contains(r[0], "backlog grew from 3 outstanding at the window's midpoint to 40") {
		t.Fatalf("2.5 reasons %q", r)
	}
	if len(sel.Notes) != 1 || !strings.Contains(sel.Notes[0], "between 1.5 and 2 rps") {
		t.Fatalf("notes %q", sel.Notes)
	}
}

func TestSelectCapacityWithWilsonLowerBound(t *testing.T) {
	rule := seedRule
	rule.UseWilsonLower = true
	sel := Select(hypotheticalSweep(), rule)
	// Wilson 95% lower bounds: 100/100 0.974, 99/100 0.956, 96/100 0.914:
	// the stronger rule stops at 1.0.
	if sel.RPS == nil || *sel.RPS != 1.0 || *sel.FailingNeighborRPS != 1.5 {
		t.Fatalf("selection %+v", sel)
	}
	if r := sel.Verdicts[3].Reasons; len(r) != 1 || !strings.HasPrefix(r[0], "Wilson 95% lower bound 0.914 (96 of 100 qualified) below 0.950") {
		t.Fatalf("1.5 reasons %q", r)
	}
}

func TestSelectCapacityFailures(t *testing.T) {
	// An undelivered load fails whatever its attainment.
	points := []Point{{OfferedRPS: 1, Report: sweepReport(100, 100, false, false)}}
	sel := Select(points, seedRule)
	if sel.RPS != nil || sel.Label != "no tested offered rate passed" || !strings.HasPrefix(sel.Verdicts[0].Reasons[0], "load not delivered: 3 of 100") {
		t.Fatalf("selection %+v", sel)
	}
	// A closed loop is never a capacity.
	closed := sweepReport(100, 100, true, false)
	closed.Generator = &report.GeneratorReport{Mode: schedule.ModeClosed}
	sel = Select([]Point{{OfferedRPS: 1, Report: closed}}, seedRule)
	if sel.RPS != nil {
		t.Fatalf("closed loop selected: %+v", sel)
	}
	// A rate tested twice passes only if both runs passed; a failure below
	// the selected rate is flagged.
	points = []Point{
		{OfferedRPS: 1, Report: sweepReport(100, 100, true, false)},
		{OfferedRPS: 1, Report: sweepReport(100, 90, true, false)},
		{OfferedRPS: 2, Report: sweepReport(100, 99, true, false)},
	}
	sel = Select(points, seedRule)
	if sel.RPS == nil || *sel.RPS != 2 || sel.FailingNeighborRPS != nil {
		t.Fatalf("selection %+v", sel)
	}
	notes := strings.Join(sel.Notes, " | ")
	if !strings.Contains(notes, "the boundary lies above the tested range") || !strings.Contains(notes, "not monotonic") {
		t.Fatalf("notes %q", notes)
	}
	// Without backlog data the no-growth rule cannot pass.
	nob := sweepReport(100, 100, true, false)
	nob.Backlog = nil
	if sel := Select([]Point{{OfferedRPS: 1, Report: nob}}, seedRule); sel.RPS != nil {
		t.Fatal("a point without backlog data passed the no-growth rule")
	}
	if sel := Select([]Point{{OfferedRPS: 1, Report: nil}}, seedRule); sel.RPS != nil || sel.Verdicts[0].Reasons[0] != "no report" {
		t.Fatalf("%+v", sel)
	}
}

func TestSweepGomegaString(t *testing.T) {
	sw := NewSweep(hypotheticalSweep(), seedRule)
	got := sw.GomegaString()
	for _, want := range []string{
		"rule: attainment >= 0.950, load delivered, no backlog growth",
		"points: 2.5 rps attainment 0.960 FAIL (backlog grew",
		"1.5 rps attainment 0.960 pass",
		"2 rps attainment 0.930 FAIL (attainment 0.930 (93 of 100 qualified) below 0.950)",
		"capacity 1.5 rps (highest passing tested offered rate; failing neighbor 2 rps)}",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("GomegaString %q lacks %q", got, want)
		}
	}
}

// A point whose only problem is a backlog the window was too short to judge
// is inconclusive, not failed; it does not pass, and the note names the
// window that would decide it.
func TestSelectCapacityInconclusiveBacklog(t *testing.T) {
	short := sweepReport(20, 20, true, false)
	short.Backlog = &report.Backlog{Inconclusive: true, Note: "not judged: the window's first half (1000 ms) is shorter than the p90 request duration (1500 ms), so outstanding work had not settled by the midpoint; lengthen the window"}
	short.WindowMS = [2]float64{0, 2000}
	// Ten requests scheduled in the first quarter (before 500 ms) with
	// durations 100..1000 ms: nearest-rank p90 is the 9th, 900 ms, so a
	// window of 1800 ms decides. A request after the quarter is ignored.
	for i := 1; i <= 10; i++ {
		short.Requests = append(short.Requests, report.RequestScore{ScheduledMS: float64(i * 10), E2EMS: new(float64(i * 100))})
	}
	short.Requests = append(short.Requests, report.RequestScore{ScheduledMS: 1500, E2EMS: new(99999.0)})
	failing := sweepReport(20, 20, true, false)
	failing.Backlog = short.Backlog
	failing.Valid = false
	failing.InvalidReasons = []string{"late"}
	points := []Point{{OfferedRPS: 1, Report: short}, {OfferedRPS: 2, Report: failing}}
	sel := Select(points, seedRule)
	if sel.RPS != nil {
		t.Fatalf("an inconclusive rate passed: %+v", sel)
	}
	if v := sel.Verdicts[0]; v.Pass || v.Verdict != VerdictInconclusive || v.DecidingWindowMS == nil || *v.DecidingWindowMS != 1800 {
		t.Fatalf("verdict at 1 rps: %+v", v)
	}
	// An undelivered load beside the undecided backlog, with the
	// objectives held: the client was the limit, so generator_bound.
	if v := sel.Verdicts[1]; v.Verdict != VerdictGeneratorBound || v.DecidingWindowMS != nil {
		t.Fatalf("verdict at 2 rps: %+v", v)
	}
	// A failed objective besides the undecided criterion makes it a
	// failure.
	missed := sweepReport(20, 10, true, false)
	missed.Backlog = short.Backlog
	if v := Select([]Point{{OfferedRPS: 3, Report: missed}}, seedRule).Verdicts[0]; v.Verdict != VerdictFail || v.DecidingWindowMS != nil {
		t.Fatalf("verdict at 3 rps: %+v", v)
	}
	if len(sel.InconclusiveRPS) != 1 || sel.InconclusiveRPS[0] != 1 {
		t.Fatalf("inconclusive rates %v", sel.InconclusiveRPS)
	}
	if !strings.Contains(strings.Join(sel.Notes, "\n"), "1 rps is inconclusive: a criterion could not be judged; an arrival window of at least 1.8 s would decide it") {
		t.Fatalf("notes %q", sel.Notes)
	}
}

// Repeats fold into one verdict per rate: any failure fails the rate, any
// inconclusive run otherwise leaves it inconclusive.
func TestRateVerdicts(t *testing.T) {
	got := RateVerdicts([]PointVerdict{
		{OfferedRPS: 1, Verdict: VerdictPass}, {OfferedRPS: 1, Verdict: VerdictInconclusive},
		{OfferedRPS: 2, Verdict: VerdictInconclusive}, {OfferedRPS: 2, Verdict: VerdictFail}, {OfferedRPS: 2, Verdict: VerdictPass},
		{OfferedRPS: 3, Verdict: VerdictPass}, {OfferedRPS: 3, Verdict: VerdictPass},
	})
	if got[1] != VerdictInconclusive || got[2] != VerdictFail || got[3] != VerdictPass || len(got) != 3 {
		t.Fatalf("rate verdicts %v", got)
	}
}

// A lower rate that did not pass marks the selection non-monotonic.
func TestSelectCapacityMonotonicFlag(t *testing.T) {
	if sel := Select(hypotheticalSweep(), seedRule); !sel.Monotonic {
		t.Fatalf("monotonic sweep flagged: %+v", sel)
	}
	points := append(hypotheticalSweep(), Point{OfferedRPS: 0.25, Report: sweepReport(100, 50, true, false)})
	if sel := Select(points, seedRule); sel.Monotonic {
		t.Fatalf("non-monotonic sweep not flagged: %+v", sel)
	}
}

func ExampleRateVerdicts() {
	// Two runs at 1 req/s (one could not be judged) and two at 2 req/s
	// (one failed).
	v := RateVerdicts([]PointVerdict{
		{OfferedRPS: 1, Verdict: VerdictPass}, {OfferedRPS: 1, Verdict: VerdictInconclusive},
		{OfferedRPS: 2, Verdict: VerdictPass}, {OfferedRPS: 2, Verdict: VerdictFail},
	})
	fmt.Println(v[1], v[2])
	// Output: inconclusive fail
}
