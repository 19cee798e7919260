package compare

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

func summaryText(t *testing.T, c *Comparison, load string, full []string) string {
	t.Helper()
	var b strings.Builder
	if err := c.WriteSummary(&b, load, full); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The three rounds of TestQuasiBinomialAttainmentAcrossRounds, judged at a
// tolerance of 2 points: a regression, on one screen.
func TestSummaryOfARegression(t *testing.T) {
	base := []*report.Report{attainmentReport(900, 1000), attainmentReport(920, 1000), attainmentReport(940, 1000)}
	cand := []*report.Report{attainmentReport(850, 1000), attainmentReport(860, 1000), attainmentReport(870, 1000)}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", 0.02}}})
	if err != nil {
		t.Fatal(err)
	}
	got := summaryText(t, c, "poisson at 4 req/s, 1000 offered over a 250 s window (chat) per run", []string{"ab/compare.txt (also compare.json, compare.html)"})
	want := `load:        poisson at 4 req/s, 1000 offered over a 250 s window (chat) per run
verdict:     regression (exit 5)
valid:       yes: every run delivered its load
rounds:      baseline 3, candidate 3
statistic     baseline  candidate  change (+ is worse)  verdict
  attainment  0.9200    0.8600     +6.00 pt             regression
full report: ab/compare.txt (also compare.json, compare.html)
`
	if got != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", got, want)
	}
}

// One round per side whose candidate run did not deliver its load: the
// summary says it is no evidence, names the run, and that one round is
// advisory.
func TestSummaryOfAnAdvisoryComparisonThatIsNotEvidence(t *testing.T) {
	late := attainmentReport(48, 80)
	late.Valid, late.InvalidReasons = false, []string{"3 of 80 offered requests were sent late"}
	c, err := Reports([]*report.Report{attainmentReport(56, 80)}, []*report.Report{late}, Options{Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	got := summaryText(t, c, "", nil)
	for _, want := range []string{
		"verdict:     ",
		"\n             advisory: one round per side is blind to run-to-run variance; run 2 or more rounds\n",
		"\nvalid:       NO: not evidence, a run did not deliver its load\n             - " + c.InvalidRuns[0] + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.HasPrefix(got, "load:") || strings.Contains(got, "full report:") {
		t.Errorf("an empty load line or no files still print:\n%s", got)
	}
}
