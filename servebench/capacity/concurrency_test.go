package capacity

import (
	"math"
	"slices"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// usersReport is a closed-loop report with qualified of offered and
// notSent unsent.
func usersReport(offered, qualified, notSent int) *report.Report {
	r := sweepReport(offered, qualified, notSent == 0, false)
	r.StatusCounts = map[record.Status]int{record.StatusNotSent: notSent}
	r.Generator = &report.GeneratorReport{Mode: schedule.ModeClosed}
	return r
}

func TestAutoUsersDoublesThenBisectsToTheTolerance(t *testing.T) {
	// The boundary lies at 50 users: 1, 2, 4, ..., 32 pass, 64 fails;
	// bisection: 48 passes, 56 fails, 52 fails; 52 - 48 = 4 <= 0.1 x 48.
	a := &AutoUsers{Tolerance: 0.1}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	err := a.search(func(users int) (bool, error) { return users <= 50, nil })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Doubled, []int{1, 2, 4, 8, 16, 32, 64}) || !slices.Equal(a.Bisected, []int{48, 56, 52}) {
		t.Errorf("doubled %v, bisected %v", a.Doubled, a.Bisected)
	}
	if a.Bracket[0] == nil || a.Bracket[1] == nil || *a.Bracket[0] != 48 || *a.Bracket[1] != 52 {
		t.Errorf("bracket %v %v, want 48, 52", a.Bracket[0], a.Bracket[1])
	}
	// Starting above the boundary halves down to it, then bisects: 75,
	// 62, 56 and 53 fail; 53 - 50 = 3 <= 0.1 x 50.
	b := &AutoUsers{StartUsers: 200, Tolerance: 0.1}
	_ = b.Check()
	_ = b.search(func(users int) (bool, error) { return users <= 50, nil })
	if !slices.Equal(b.Doubled, []int{200, 100, 50}) || !slices.Equal(b.Bisected, []int{75, 62, 56, 53}) || *b.Bracket[0] != 50 || *b.Bracket[1] != 53 {
		t.Errorf("from 200: doubled %v, bisected %v", b.Doubled, b.Bisected)
	}
}

func TestAutoUsersRefusesBadSettings(t *testing.T) {
	for _, a := range []AutoUsers{{StartUsers: -1}, {StartUsers: 8, MaxUsers: 4}, {Tolerance: 1.5}, {BoundaryRuns: -1}} {
		if err := a.Check(); err == nil {
			t.Errorf("%+v: no error", a)
		}
	}
}

func TestPassConfidenceIsWhereTheWilsonBoundReachesAlpha(t *testing.T) {
	// 190 of 200 against 0.9: z = 0.05 / sqrt(0.09/200) = 2.35702, Φ(z) =
	// 0.990789; the Wilson bound at that confidence is 0.9 itself.
	c := passConfidence(190, 200, 0.9)
	if c == nil || math.Abs(*c-0.990789) > 1e-6 {
		t.Fatalf("confidence %v, want 0.990789", c)
	}
	if lo, _ := stats.WilsonLower(190, 200, *c); math.Abs(lo-0.9) > 1e-9 {
		t.Errorf("Wilson lower bound at %v = %v, want 0.9", *c, lo)
	}
	if passConfidence(0, 0, 0.9) != nil || passConfidence(5, 5, 1) != nil {
		t.Error("undefined confidence was given a value")
	}
}

func TestBracketOfAUserSearch(t *testing.T) {
	points := []Point{
		{Users: 32, Report: usersReport(100, 100, 0)},
		{Users: 48, Report: usersReport(100, 100, 0)},
		{Users: 48, Repeat: 2, Report: usersReport(100, 100, 0)},
		{Users: 56, Report: usersReport(100, 85, 0)},
		{Users: 56, Repeat: 2, Report: usersReport(100, 85, 0)},
		{Users: 64, Report: usersReport(100, 100, 3)}, // unsent: fails
	}
	rule := Rule{MinAttainment: 0.95, Confidence: 0.95}
	sel := SelectConcurrency(points, rule)
	if sel.Users == nil || *sel.Users != 48 || *sel.FailingNeighborUsers != 56 || sel.Label != ConcurrencyLabelHighestPassing {
		t.Fatalf("selection %+v", sel)
	}
	if v := sel.Verdicts[5]; v.Verdict != VerdictFail || len(v.Reasons) != 1 || v.Reasons[0] != "3 requests not sent" {
		t.Errorf("64 users: verdict %s, reasons %q; want fail on the unsent requests", v.Verdict, v.Reasons)
	}
	b := BracketOf(points, rule)
	// Low: 200 of 200 pooled, z = 0.05/sqrt(0.0475/200) = 3.24443, Φ =
	// 0.999412. High: 170 of 200, z = -6.48886, so it fails with
	// confidence 1 - 4.3e-11.
	if b.Unit != UnitUsers || *b.Low != 48 || *b.High != 56 || b.LowRuns != 2 || b.HighRuns != 2 || b.LowQualified != 200 || b.HighQualified != 170 {
		t.Fatalf("bracket %+v", b)
	}
	if math.Abs(*b.LowConfidence-0.999412) > 1e-6 || *b.HighConfidence < 1-1e-9 || *b.Confidence != *b.LowConfidence || !b.Separated {
		t.Errorf("confidences %v %v %v, separated %v", *b.LowConfidence, *b.HighConfidence, *b.Confidence, b.Separated)
	}
	if got := b.String(); got != "SLO concurrency between 48 and 56 users; confidence in the bracket 99.941% (limited by 48 users, shown to pass)" {
		t.Errorf("String() = %q", got)
	}
}

func TestBracketOfARateSweep(t *testing.T) {
	b := BracketOf(hypotheticalSweep(), seedRule)
	// 1.5 req/s passes with 96 of 100: z = 0.01/sqrt(0.0475/100) = 0.458831,
	// Φ = 0.676822; 2.0 fails with 93 of 100: z = -0.917663, 1 - Φ =
	// 0.820602.
	if b.Unit != UnitRPS || *b.Low != 1.5 || *b.High != 2.0 {
		t.Fatalf("bracket %+v", b)
	}
	if math.Abs(*b.LowConfidence-0.676822) > 1e-6 || math.Abs(*b.HighConfidence-0.820602) > 1e-6 || *b.Confidence != *b.LowConfidence || b.Separated {
		t.Errorf("confidences %v %v, separated %v", *b.LowConfidence, *b.HighConfidence, b.Separated)
	}
	if got := b.String(); got != "SLO capacity between 1.5 and 2 req/s; confidence in the bracket 68% (limited by 1.5 req/s, not shown to pass)" {
		t.Errorf("String() = %q", got)
	}
}

func TestReplicateBoundaryRunsTheWeakEndUntilItSeparatesOrTheBudgetIsSpent(t *testing.T) {
	// 48 users passes with 96 of 100 (confidence 0.68 < 0.95); each
	// replicate adds 100 of 100, so two replicates give 296 of 300: z =
	// 0.0366667/sqrt(0.0475/300) = 2.91398, Φ = 0.998216 >= 0.95. 56
	// users fails with 50 of 100: already separated.
	sw := &Sweep{Points: []Point{
		{Users: 48, Report: usersReport(100, 96, 0)},
		{Users: 56, Report: usersReport(100, 50, 0)},
	}}
	rule := Rule{MinAttainment: 0.95, Confidence: 0.95}
	var ran []float64
	again := func(level float64) error {
		ran = append(ran, level)
		sw.Points = append(sw.Points, Point{Users: int(level), Report: usersReport(100, 100, 0)})
		return nil
	}
	if err := replicateBoundary(sw, rule, 4, again); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ran, []float64{48}) {
		t.Errorf("replicated %v, want [48]: one 100/100 run gives 196/200, z = 2.27, enough", ran)
	}
	b := BracketOf(sw.Points, rule)
	if !b.Separated {
		t.Errorf("not separated: %+v", b)
	}
	// A budget of 0 runs nothing.
	ran = nil
	sw.Points = sw.Points[:2]
	_ = replicateBoundary(sw, rule, 0, again)
	if len(ran) != 0 {
		t.Errorf("budget 0 ran %v", ran)
	}
}
