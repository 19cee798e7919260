package score

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// backlogCase scores ten requests scheduled every 100 ms over [0, 1000),
// each taking dur ms, with the last four never finishing before the end.
func backlogCase(t *testing.T, dur float64, stuck int) *report.Backlog {
	t.Helper()
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	for i := range 10 {
		id := string(rune('a' + i))
		at := float64(i * 100)
		end := at + dur
		if i >= 10-stuck {
			end = 5000 // still outstanding at the window's end
		}
		s.Entries = append(s.Entries, schedule.Entry{ID: id, ScheduledMS: at, MaxTokens: 2})
		outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: at, SentMS: new(at),
			FirstContentMS: new(at + 1), LastContentMS: new(at + 2), TerminalMS: end, ContentMS: []float64{at + 1, at + 2},
			OutputTokens: new(2), TokenCountSource: new(record.TokensFromUsage)})
	}
	r, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Backlog
}

func TestBacklogGrowthNeedsASettledWindow(t *testing.T) {
	// 50 ms requests: only the one sent at 500 ms is out at the midpoint;
	// the last four (600 to 900) are still out at 1000 ms, and 4 - 1 >
	// max(2, 10% of 5). The first quarter's requests took 50 ms, well
	// inside the 500 ms first half, so growth is judged.
	if b := backlogCase(t, 50, 4); b.Inconclusive || !b.Growing || b.AtWindowMid != 1 || b.AtWindowEnd != 4 {
		t.Fatalf("backlog %+v, want judged and growing from 1 to 4", b)
	}
	// Two stuck requests: 2 - 1 is within the floor of two.
	if b := backlogCase(t, 50, 2); b.Inconclusive || b.Growing {
		t.Fatalf("backlog %+v, want judged and not growing", b)
	}
	// 600 ms requests: the first quarter's p90 duration outlasts the 500 ms
	// first half,
	// so the same counts are only a ramp-up and are not judged.
	b := backlogCase(t, 600, 0)
	if !b.Inconclusive || b.Growing || !strings.Contains(b.Note, "shorter than the p90 request duration") {
		t.Fatalf("backlog %+v, want inconclusive with a note", b)
	}
}
