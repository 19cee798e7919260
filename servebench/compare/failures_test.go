package compare

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// failingReport is a round of 25 offered requests: the first successes
// have TTFT 4, 8, 12, … ms, the rest failed with an HTTP error.
func failingReport(successes int) *report.Report {
	var ttfts []float64
	for k := 1; k <= successes; k++ {
		ttfts = append(ttfts, float64(4*k))
	}
	r := ttftReport(ttfts...)
	r.Offered, r.ProtocolSuccesses = 25, successes
	for range 25 - successes {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusHTTPError})
	}
	if successes == 0 {
		delete(r.Percentiles, record.MetricTTFT)
	}
	return r
}

// Failures count as slower than any success. Two rounds a side of 25
// requests: the baseline's all succeed (p90 is rank ⌈22.5⌉ = 23, 92 ms);
// the candidate's last three fail, so its rank 23 is a failure and its p90
// is unbounded: a regression, though over its 22 successes alone p90 is
// rank ⌈19.8⌉ = 20, 80 ms, 80/92 − 1 = −13.04 % (faster). Pooled, each side
// has 50 − 45 = 5 observations beyond p90: judgeable.
func TestFailuresCountAsSlowerThanAnySuccess(t *testing.T) {
	base := []*report.Report{failingReport(25), failingReport(25)}
	cand := []*report.Report{failingReport(22), failingReport(22)}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"ttft_p90", 0.05}}})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Comparisons[0]
	if m.Verdict != Regression || m.Unbounded != "candidate" || c.ExitCode() != 5 {
		t.Errorf("verdict %s, unbounded %q, exit %d; want regression, candidate, 5", m.Verdict, m.Unbounded, c.ExitCode())
	}
	if m.SuccessOnly == nil {
		t.Fatal("no success-only figure")
	}
	near(t, "success-only baseline", m.SuccessOnly.Baseline, 92, 1e-12)
	near(t, "success-only candidate", m.SuccessOnly.Candidate, 80, 1e-12)
	near(t, "success-only change", m.SuccessOnly.Change, 80.0/92-1, 1e-12)
	b, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"candidate": null`, `"change": null`, `"unbounded": "candidate"`, `"success_only": {`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("compare.json lacks %s:\n%s", want, b)
		}
	}
	var text strings.Builder
	if err := c.WriteText(&text); err != nil || !strings.Contains(text.String(), "+inf") ||
		!strings.Contains(text.String(), "ttft_p90 over successful requests only (failures left out, not the verdict's figure): baseline 92.00 ms, candidate 80.00 ms, change -13.04%") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
}

// A candidate whose every request failed is a regression (exit 5), not an
// error; a baseline whose every request failed is no evidence (exit 2).
func TestAllFailSides(t *testing.T) {
	ok := []*report.Report{failingReport(25), failingReport(25)}
	dead := []*report.Report{failingReport(0), failingReport(0)}
	tols := []Tolerance{{"ttft_p50", 0.05}, {"error_rate", 0.01}}
	c, err := Reports(ok, dead, Options{Tolerances: tols})
	if err != nil {
		t.Fatalf("all-fail candidate: %v", err)
	}
	if c.Verdict != Regression || c.ExitCode() != 5 || c.Comparisons[0].Unbounded != "candidate" {
		t.Errorf("all-fail candidate: verdict %s exit %d, ttft_p50 unbounded %q", c.Verdict, c.ExitCode(), c.Comparisons[0].Unbounded)
	}
	c, err = Reports(dead, ok, Options{Tolerances: tols})
	if err != nil {
		t.Fatalf("all-fail baseline: %v", err)
	}
	if c.Valid || c.ExitCode() != 2 || !strings.Contains(strings.Join(c.InvalidRuns, ";"), "every one of its 50 offered requests failed") {
		t.Errorf("all-fail baseline: valid %v exit %d, %v", c.Valid, c.ExitCode(), c.InvalidRuns)
	}
}
