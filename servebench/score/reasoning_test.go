package score

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// A reasoning model's usage counts its reasoning tokens too, but f and l
// time the visible answer only: three visible tokens at 100, 200 and 300 ms
// after ten reasoning tokens give TPOT (300 - 100) / (3 - 1) = 100 ms, not
// 200 / 12.
func TestTPOTCountsOnlyTheVisibleAnswersTokens(t *testing.T) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "think", ScheduledMS: 0, MaxTokens: 64}, {ID: "plain", ScheduledMS: 0, MaxTokens: 64}}}
	out := []record.Outcome{
		{ID: "think", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0), FirstReasoningMS: new(20.0),
			FirstContentMS: new(100.0), LastContentMS: new(300.0), ContentMS: []float64{100, 200, 300}, TerminalMS: 310,
			OutputTokens: new(13), ReasoningTokens: new(10), TokenCountSource: new(record.TokensFromUsage)},
		// Without a reasoning count, n is the reported count: 200 / (5 - 1).
		{ID: "plain", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0),
			FirstContentMS: new(100.0), LastContentMS: new(300.0), ContentMS: []float64{100, 200, 300}, TerminalMS: 310,
			OutputTokens: new(5), TokenCountSource: new(record.TokensFromUsage)},
	}
	r, err := Outcomes(s, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range r.Requests {
		want := map[string]float64{"think": 100, "plain": 50}[rs.ID]
		if rs.TPOTMS == nil || *rs.TPOTMS != want {
			t.Errorf("%s: TPOT %v, want %v", rs.ID, rs.TPOTMS, want)
		}
	}
	if n := *r.Requests[0].OutputTokens; n != 3 {
		t.Errorf("visible output tokens %d, want 13 - 10 = 3", n)
	}
}
