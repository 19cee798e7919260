package score

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// TestScoreTellsAboveTheObjectiveFromNotMeasurable scores one request of
// each kind against ttft 100 ms, tpot 40 ms and e2e 300 ms, and checks the
// split of each criterion's count, the explanations and the order of the
// first-unqualified list.
func TestScoreTellsAboveTheObjectiveFromNotMeasurable(t *testing.T) {
	ids := []string{"ok", "two-in-one", "slow-tpot", "slow-ttft", "failed"}
	s := testSchedule(map[string]float64{"ok": 0, "two-in-one": 100, "slow-tpot": 200, "slow-ttft": 300, "failed": 400}, ids...)
	outcomes := []record.Outcome{
		// TTFT 50, TPOT (110 − 50)/2 = 30, E2E 120: qualified.
		success("ok", 0, 0, []float64{50, 80, 110}, 120, new(3)),
		// 2 tokens in one content event: TPOT undefined, not measurable.
		success("two-in-one", 100, 100, []float64{160}, 170, new(2)),
		// TPOT (300 − 250)/1 = 50 > 40: above the objective.
		success("slow-tpot", 200, 200, []float64{250, 300}, 310, new(2)),
		// TTFT 450 − 300 = 150 > 100 and E2E 700 − 300 = 400 > 300.
		success("slow-ttft", 300, 300, []float64{450, 480}, 700, new(2)),
		{ID: "failed", Attempt: 1, Status: record.StatusHTTPError, ScheduledMS: 400, SentMS: new(400.0), TerminalMS: 410, HTTPStatus: new(500), Error: "HTTP 500: boom"},
	}
	// Scrambled order: the list must still be in schedule order.
	outcomes[0], outcomes[4] = outcomes[4], outcomes[0]
	r, err := Outcomes(s, outcomes, Options{SLO: report.SLO{TTFT: 100 * time.Millisecond, TPOT: 40 * time.Millisecond, E2E: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := map[report.Reason][2]int{ // total, not measurable
		report.ReasonStatus: {1, 0}, report.ReasonTTFT: {1, 0}, report.ReasonTPOT: {2, 1}, report.ReasonE2E: {1, 0},
	}
	for reason, want := range wantCounts {
		if got := r.ReasonCounts[reason]; got != want[0] {
			t.Errorf("ReasonCounts[%s] = %d, want %d", reason, got, want[0])
		}
		if reason == report.ReasonStatus {
			if _, ok := r.UnmeasurableCounts[reason]; ok {
				t.Errorf("UnmeasurableCounts has %s, which is never a measurement", reason)
			}
			continue
		}
		if got := r.UnmeasurableCounts[reason]; got != want[1] {
			t.Errorf("UnmeasurableCounts[%s] = %d, want %d", reason, got, want[1])
		}
	}
	want := []string{
		"two-in-one: tpot not measurable: 2 tokens in 1 content event (TPOT needs at least two content events)",
		"slow-tpot: tpot 50 ms above the objective 40 ms",
		"slow-ttft: ttft 150 ms (f − d) above the objective 100 ms; e2e 400 ms above the objective 300 ms",
		"failed: status http_error: HTTP 500: boom",
	}
	var got []string
	for _, u := range r.FirstUnqualified {
		got = append(got, u.ID+": "+u.Explanation)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("first unqualified:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	var text bytes.Buffer
	if err := render.Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"tpot:                                2 (1 above the objective, 1 not measurable)",
		"ttft:                                1 (1 above the objective, 0 not measurable)",
		"status:                              1\n",
		"First 4 of 4 unqualified requests",
		"two-in-one           tpot not measurable: 2 tokens in 1 content event",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}
	var page bytes.Buffer
	if err := render.HTML(&page, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<td>1 above the objective, 1 not measurable</td>") {
		t.Error("report.html lacks the tpot split")
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"unmeasurable_counts":{"e2e":0,"tpot":1,"ttft":0}`) {
		t.Errorf("report.json lacks the split: %s", raw[:min(len(raw), 400)])
	}
}

// TestFirstUnqualifiedKeepsTheFirstTen scores 25 requests that all fail on
// status, given in reverse order, and checks that the list holds the ten
// earliest scheduled.
func TestFirstUnqualifiedKeepsTheFirstTen(t *testing.T) {
	times := map[string]float64{}
	var ids []string
	for i := range 25 {
		id := fmt.Sprintf("q%02d", i)
		ids = append(ids, id)
		times[id] = float64(i * 10)
	}
	s := testSchedule(times, ids...)
	var outcomes []record.Outcome
	for i := len(ids) - 1; i >= 0; i-- {
		outcomes = append(outcomes, record.Outcome{ID: ids[i], Attempt: 1, Status: record.StatusTimeout, ScheduledMS: times[ids[i]],
			SentMS: new(times[ids[i]]), TerminalMS: times[ids[i]] + 5})
	}
	r, err := Outcomes(s, outcomes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.FirstUnqualified) != FirstUnqualifiedLimit {
		t.Fatalf("%d listed, want %d", len(r.FirstUnqualified), FirstUnqualifiedLimit)
	}
	for i, u := range r.FirstUnqualified {
		if u.ID != ids[i] || u.Explanation != "status timeout" {
			t.Fatalf("entry %d = %+v, want %s with status timeout", i, u, ids[i])
		}
	}
}
