package compare

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// A statistic outside --decide is compared and reported informational,
// with its leaning, at the unadjusted level 1 − 2·0.05 = 0.90, and the
// family covers the deciding ones only (one here: 1 − 2·0.05/1). The
// candidate's attainment drops from 0.95 to 0.60 a round, a regression
// that does not decide the verdict when only error_rate decides.
func TestInformationalStatisticsStayOutOfTheVerdict(t *testing.T) {
	b := rounds(4, func() *report.Report { return attainmentReport(95, 100) })
	c := rounds(4, func() *report.Report { return attainmentReport(60, 100) })
	got, err := Reports(b, c, Options{Tolerances: []Tolerance{{"attainment", 0.05}, {"error_rate", 0.05}}, Decide: []string{"error_rate"}})
	if err != nil {
		t.Fatal(err)
	}
	att, er := got.Comparisons[0], got.Comparisons[1]
	if att.Verdict != Informational || att.Leaning != Regression {
		t.Errorf("attainment %s leaning %s, want informational leaning regression", att.Verdict, att.Leaning)
	}
	near(t, "informational level", att.IntervalLevel, 0.90, 1e-12)
	near(t, "deciding level", er.IntervalLevel, 0.90, 1e-12)
	if er.Verdict != NoRegression || got.Verdict != NoRegression {
		t.Errorf("error_rate %s, overall %s; want no_regression for both", er.Verdict, got.Verdict)
	}
	if !strings.Contains(got.Family, "1 deciding comparison") || !strings.Contains(got.Family, "the 1 informational statistics") {
		t.Errorf("family %q", got.Family)
	}
}

// A deciding statistic that is not compared is bad input, before any run
// (CheckOptions) and in Reports.
func TestDecideMustNameComparedStatistics(t *testing.T) {
	opts := Options{Tolerances: []Tolerance{{"attainment", 0.05}}, Decide: []string{"tpot_p50"}}
	err := CheckOptions(opts, "")
	if err == nil || !strings.HasPrefix(err.Error(), `decide: the deciding statistic "tpot_p50" is not compared (compared: attainment)`) {
		t.Errorf("CheckOptions: %v", err)
	}
	b := rounds(2, func() *report.Report { return attainmentReport(95, 100) })
	if _, err := Reports(b, b, opts); err == nil || !strings.Contains(err.Error(), "not compared") {
		t.Errorf("Reports: %v", err)
	}
	if _, err := ParseDecide("attainment,bogus_p5x"); err == nil {
		t.Error("ParseDecide took an unknown statistic")
	}
	if d, err := ParseDecide("attainment, tpot_p50"); err != nil || len(d) != 2 || d[1] != "tpot_p50" {
		t.Errorf("ParseDecide: %v, %v", d, err)
	}
}
