package capacity

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// lateReport is a run whose objectives held (attainment qualified/100) but
// whose client sent 3 requests late, max lag 41 ms against 20 ms.
func lateReport(qualified int) *report.Report {
	r := sweepReport(100, qualified, false, false)
	r.MaxScheduleLagMS, r.ScheduleLagToleranceMS = new(41.0), 20
	return r
}

func TestSelectCapacityBlamesTheClientForAnUndeliveredLoad(t *testing.T) {
	points := []Point{
		{OfferedRPS: 1, Report: sweepReport(100, 100, true, false)}, // pass
		{OfferedRPS: 2, Report: sweepReport(100, 98, true, false)},  // pass
		{OfferedRPS: 4, Report: lateReport(99)},                     // 0.99 >= 0.95, load not delivered
		{OfferedRPS: 8, Report: lateReport(60)},                     // 0.60 < 0.95 and late: fail
	}
	sel := Select(points, seedRule)
	want := []string{VerdictPass, VerdictPass, VerdictGeneratorBound, VerdictFail}
	for i, v := range sel.Verdicts {
		if v.Verdict != want[i] || v.Pass != (want[i] == VerdictPass) {
			t.Fatalf("%g rps: verdict %q pass %v, want %q", v.OfferedRPS, v.Verdict, v.Pass, want[i])
		}
	}
	// The knee is 2; its failing neighbour is 8, not the generator-bound 4.
	if sel.RPS == nil || *sel.RPS != 2 || sel.FailingNeighborRPS == nil || *sel.FailingNeighborRPS != 8 || !sel.Monotonic {
		t.Fatalf("selection %+v", sel)
	}
	if len(sel.GeneratorBoundRPS) != 1 || sel.GeneratorBoundRPS[0] != 4 || sel.AllGeneratorBound() {
		t.Fatalf("generator-bound %v", sel.GeneratorBoundRPS)
	}
	notes := strings.Join(sel.Notes, " | ")
	for _, want := range []string{
		"the boundary lies between 2 and 8 rps",
		"the client was the limit at 4 rps (generator_bound)",
		"max schedule lag 41 ms, tolerance 20 ms",
		"the SLO capacity is at least 2 rps, the highest passing rate",
		"give the client more cores, shard the run (run --shard), or loosen --schedule-lag-tolerance",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q: %s", want, notes)
		}
	}
	// A generator-bound rate below the knee does not make it non-monotonic.
	points = []Point{{OfferedRPS: 1, Report: lateReport(100)}, {OfferedRPS: 2, Report: sweepReport(100, 100, true, false)}}
	if sel := Select(points, seedRule); sel.RPS == nil || *sel.RPS != 2 || !sel.Monotonic {
		t.Fatalf("selection %+v", sel)
	}
}

func TestASweepOfOnlyGeneratorBoundPointsMeasuredTheClient(t *testing.T) {
	points := []Point{{OfferedRPS: 10, Report: lateReport(100)}, {OfferedRPS: 20, Report: lateReport(97)}}
	sel := Select(points, seedRule)
	if sel.RPS != nil || !sel.AllGeneratorBound() || len(sel.GeneratorBoundRPS) != 2 {
		t.Fatalf("selection %+v", sel)
	}
	notes := strings.Join(sel.Notes, " | ")
	if strings.Contains(notes, "test lower rates") || !strings.Contains(notes, "the client was the limit at 10, 20 rps") ||
		!strings.Contains(notes, "no tested rate passed, so the engine's capacity is not measured") {
		t.Fatalf("notes %q", notes)
	}
	// A generator-bound run beside a passing one at the same rate makes
	// the rate generator_bound; beside a failing one, failed.
	got := RateVerdicts([]PointVerdict{
		{OfferedRPS: 1, Verdict: VerdictPass}, {OfferedRPS: 1, Verdict: VerdictGeneratorBound},
		{OfferedRPS: 2, Verdict: VerdictGeneratorBound}, {OfferedRPS: 2, Verdict: VerdictFail},
		{OfferedRPS: 3, Verdict: VerdictInconclusive}, {OfferedRPS: 3, Verdict: VerdictGeneratorBound},
	})
	if got[1] != VerdictGeneratorBound || got[2] != VerdictFail || got[3] != VerdictGeneratorBound {
		t.Fatalf("rate verdicts %v", got)
	}
}
