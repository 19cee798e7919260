package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// The Pocock-type spending function spends nothing at t = 0, all of α at
// t = 1 and beyond, and α·ln(1 + (e − 1)·0.2) = 0.05·0.295395 at the first
// look of 4 of 20 rounds; a look spends its increment over the previous
// one.
func TestSpentAlpha(t *testing.T) {
	near(t, "t=0", SpentAlpha(0.05, 0), 0, 1e-15)
	near(t, "t=1", SpentAlpha(0.05, 1), 0.05, 1e-15)
	near(t, "t=1.5", SpentAlpha(0.05, 1.5), 0.05, 1e-15)
	near(t, "t=0.2", SpentAlpha(0.05, 0.2), 0.05*math.Log(1+(math.E-1)*0.2), 1e-15)
	near(t, "t=0.2 (decimal)", SpentAlpha(0.05, 0.2), 0.0147698, 1e-7)
	l := &Look{Number: 2, PreviousRounds: 4, MaxRounds: 20}
	near(t, "second look", l.alphaAt(0.05, 6), 0.05*(math.Log(1+(math.E-1)*0.3)-math.Log(1+(math.E-1)*0.2)), 1e-15)
}

// At a look, the deciding intervals spend only the look's share of α: at
// the first look of 4 of 20 rounds, with one deciding statistic, the
// interval is two-sided at 1 − 2·SpentAlpha(0.05, 0.2); a statistic
// decided at an earlier look keeps that verdict.
func TestLookSpendsItsShare(t *testing.T) {
	b := rounds(4, func() *report.Report { return attainmentReport(95, 100) })
	c, err := Reports(b, b, Options{Tolerances: []Tolerance{{"attainment", 0.5}}, Look: &Look{Number: 1, MaxRounds: 20}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "interval level", c.IntervalLevel, 1-2*SpentAlpha(0.05, 0.2), 1e-12)
	if m := c.Comparisons[0]; m.Verdict != NoRegression || m.Look != 1 {
		t.Errorf("attainment %s at look %d, want no_regression at look 1", m.Verdict, m.Look)
	}
	if !strings.Contains(c.Family, "look 1") {
		t.Errorf("family %q does not name the look", c.Family)
	}
	kept := MetricComparison{Name: "attainment", Verdict: Regression, Look: 1}
	c, err = Reports(b, b, Options{Tolerances: []Tolerance{{"attainment", 0.5}}, Look: &Look{Number: 2, PreviousRounds: 2, MaxRounds: 20, Decided: []MetricComparison{kept}}})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Comparisons[0]; m.Verdict != Regression || m.Look != 1 || c.Verdict != Regression {
		t.Errorf("kept %s at look %d (overall %s), want the earlier regression at look 1", m.Verdict, m.Look, c.Verdict)
	}
}
