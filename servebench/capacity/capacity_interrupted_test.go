package capacity

import "testing"

// TestSelectCapacityIgnoresAnInterruptedPoint: an interrupted point is
// marked interrupted and is neither the capacity nor the failing
// neighbour, whatever its report says; a repeated rate with one
// interrupted run is interrupted as a whole.
func TestSelectCapacityIgnoresAnInterruptedPoint(t *testing.T) {
	points := []Point{
		{OfferedRPS: 1, Report: sweepReport(100, 100, true, false)},                   // pass
		{OfferedRPS: 2, Report: sweepReport(100, 96, true, false)},                    // pass
		{OfferedRPS: 4, Report: sweepReport(100, 40, false, true), Interrupted: true}, // cut short
	}
	sel := Select(points, seedRule)
	if sel.RPS == nil || *sel.RPS != 2 {
		t.Fatalf("capacity %v, want 2", sel.RPS)
	}
	if sel.FailingNeighborRPS != nil {
		t.Errorf("failing neighbour %v, want none (4 rps was interrupted)", *sel.FailingNeighborRPS)
	}
	if v := sel.Verdicts[2]; v.Verdict != VerdictInterrupted || v.Pass || len(v.Reasons) != 1 {
		t.Errorf("the interrupted point's verdict %+v", v)
	}
	if len(sel.Notes) != 1 || sel.Notes[0] != "the highest tested rate passed: the boundary lies above the tested range" {
		t.Errorf("notes %q", sel.Notes)
	}

	// An interrupted point that would have passed is no capacity either.
	points[2] = Point{OfferedRPS: 4, Report: sweepReport(100, 100, true, false), Interrupted: true}
	if sel := Select(points, seedRule); sel.RPS == nil || *sel.RPS != 2 {
		t.Errorf("capacity %v, want 2: an interrupted pass is not evidence", sel.RPS)
	}

	// Every point interrupted: no capacity and no note about a lowest rate.
	sel = Select(points[2:], seedRule)
	if sel.RPS != nil || len(sel.Notes) != 0 {
		t.Errorf("only an interrupted point: capacity %v, notes %q", sel.RPS, sel.Notes)
	}

	repeated := []PointVerdict{
		{OfferedRPS: 3, Verdict: VerdictPass}, {OfferedRPS: 3, Verdict: VerdictInterrupted},
		{OfferedRPS: 5, Verdict: VerdictInterrupted}, {OfferedRPS: 5, Verdict: VerdictFail},
	}
	got := RateVerdicts(repeated)
	if got[3] != VerdictInterrupted || got[5] != VerdictInterrupted {
		t.Errorf("rate verdicts %v, want both interrupted", got)
	}
}

// TestSelectCapacitySkipsGeneratorBoundAndInterruptedRates: between the
// highest pass and the first failure, a generator-bound rate (objectives
// held, load not delivered) and an interrupted one are both passed over:
// the failing neighbour is the first rate that failed on its objectives.
func TestSelectCapacitySkipsGeneratorBoundAndInterruptedRates(t *testing.T) {
	points := []Point{
		{OfferedRPS: 1, Report: sweepReport(100, 100, true, false)},                    // pass
		{OfferedRPS: 2, Report: sweepReport(100, 100, false, false)},                   // objectives held, lag beyond tolerance
		{OfferedRPS: 3, Report: sweepReport(100, 100, true, false), Interrupted: true}, // cut short
		{OfferedRPS: 4, Report: sweepReport(100, 90, true, false)},                     // 0.90 < 0.95
	}
	sel := Select(points, seedRule)
	want := []string{VerdictPass, VerdictGeneratorBound, VerdictInterrupted, VerdictFail}
	for i, v := range sel.Verdicts {
		if v.Verdict != want[i] {
			t.Errorf("%v rps: verdict %s, want %s (reasons %q)", v.OfferedRPS, v.Verdict, want[i], v.Reasons)
		}
	}
	if sel.RPS == nil || *sel.RPS != 1 || sel.FailingNeighborRPS == nil || *sel.FailingNeighborRPS != 4 {
		t.Fatalf("capacity %v, failing neighbour %v; want 1 and 4", sel.RPS, sel.FailingNeighborRPS)
	}
	if len(sel.GeneratorBoundRPS) != 1 || sel.GeneratorBoundRPS[0] != 2 || !sel.Monotonic {
		t.Errorf("generator-bound %v, monotonic %v; want [2] and true", sel.GeneratorBoundRPS, sel.Monotonic)
	}
	if b := BracketOf(points, seedRule); b.Low == nil || *b.Low != 1 || b.High == nil || *b.High != 4 {
		t.Errorf("bracket %s, want between 1 and 4 req/s", b)
	}
}

// TestSelectConcurrencyIgnoresAnInterruptedPoint: in a user search too, an
// interrupted number of users is neither the SLO concurrency nor the
// failing neighbour; the next one that failed on its objectives is.
func TestSelectConcurrencyIgnoresAnInterruptedPoint(t *testing.T) {
	points := []Point{
		{Users: 2, Report: usersReport(100, 100, 0)},
		{Users: 4, Report: usersReport(100, 100, 0), Interrupted: true},
		{Users: 8, Report: usersReport(100, 80, 0)},
	}
	sel := SelectConcurrency(points, Rule{MinAttainment: 0.95, Confidence: 0.95})
	if sel.Users == nil || *sel.Users != 2 || sel.FailingNeighborUsers == nil || *sel.FailingNeighborUsers != 8 {
		t.Fatalf("SLO concurrency %v, failing neighbour %v; want 2 and 8", sel.Users, sel.FailingNeighborUsers)
	}
	if v := sel.Verdicts[1]; v.Verdict != VerdictInterrupted {
		t.Errorf("4 users: verdict %s, want interrupted", v.Verdict)
	}
}
