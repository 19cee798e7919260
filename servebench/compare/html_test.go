package compare

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// The page holds the table with each interval, both sides' CDFs drawn
// with gonum/plot (titled axes, round ticks, a legend with each side's N),
// and escapes what comes from the reports.
func TestWriteHTML(t *testing.T) {
	base := []*report.Report{ttftReport(90, 95, 100, 200, 300), ttftReport(100, 100, 100, 300, 300), ttftReport(50, 60, 100, 100, 100)}
	cand := []*report.Report{ttftReport(110, 110, 110, 500, 500), ttftReport(121, 121, 121, 121, 121), ttftReport(1, 2, 133.1, 133.1, 133.1)}
	base[0].Experiment = &report.Experiment{RunID: "<script>alert(1)</script>"}
	cand[0].Experiment = &report.Experiment{RunID: "c1"}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"ttft_p50", 0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	c.Stopping = &Stopping{Rule: SequentialRule, Looks: 2, Rounds: Rounds{Baseline: 3, Candidate: 3}, MaxRounds: 20, Reason: StopMaxRounds}
	c.SameServer = "one server"
	var b strings.Builder
	if err := c.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<p>Stopping: " + SequentialRule + " after 2 looks (rounds: baseline 3, candidate 3, at most 20 a side): max_rounds</p>",
		"<b>Warning:</b> one server</p>",
		"<td>ttft_p50</td><td>100.00 ms</td><td>121.37 ms</td><td>&#43;21.00%</td><td>[&#43;3.04%, &#43;42.09%]</td><td>10%</td>",
		`<td class="inconclusive">inconclusive`,
		"TTFT (ms): baseline n=15, candidate n=15",
		"&lt;script&gt;",
		"<th>noise per round</th><th>detectable from</th>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page[strings.Index(page, "<table"):strings.Index(page, "</table>")])
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("a run ID was not escaped")
	}
	// Only TTFT has values; TPOT and E2E say so.
	if n := strings.Count(page, "<svg"); n != 1 || strings.Count(page, "<p>no values</p>") != 2 {
		t.Errorf("%d charts, want 1 (TTFT; TPOT and E2E have no values)", n)
	}
	for _, want := range []string{">baseline (n=15)<", ">candidate (n=15)<", ">TTFT (ms)<", ">share at or below<", ">50%<", ">100%<",
		// Round ticks from 0 to the largest value, 500 ms.
		">0<", ">100<", ">200<", ">300<", ">400<", ">500<"} {
		if !strings.Contains(page, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}
