package score

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// millionRun builds a synthetic open-loop run of n requests at 1000 req/s,
// each streaming eight one-token events, one in fifty failing.
func millionRun(n int) (*schedule.Schedule, []record.Outcome) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, float64(n)}, ScheduleLagToleranceMS: 20,
		Entries: make([]schedule.Entry, n)}
	outcomes := make([]record.Outcome, n)
	content := make([]float64, 8*n)
	eventTokens := []int{1, 1, 1, 1, 1, 1, 1, 1}
	eight := 8
	for i := range n {
		id := "r" + strconv.Itoa(i)
		a := float64(i)
		s.Entries[i] = schedule.Entry{ID: id, Row: i % 100, ScheduledMS: a}
		d := a + float64(i%7)*0.25
		ev := content[8*i : 8*i+8 : 8*i+8]
		for j := range ev {
			ev[j] = d + 120 + float64(j)*(20+float64(i%13))
		}
		o := record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: new(d),
			ContentMS: ev, EventTokens: eventTokens, OutputTokens: &eight, TerminalMS: ev[7] + 5}
		if i%50 == 0 {
			o.Status, o.ContentMS, o.EventTokens, o.OutputTokens = record.StatusHTTPError, nil, nil, nil
		}
		outcomes[i] = o
	}
	return s, outcomes
}

func BenchmarkScoreMillion(b *testing.B) {
	s, outcomes := millionRun(1_000_000)
	opts := Options{SLO: report.SLO{TTFT: 200 * time.Millisecond, TPOT: 30 * time.Millisecond, E2E: time.Second}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := Outcomes(s, outcomes, opts)
		if err != nil {
			b.Fatal(err)
		}
		if r.Offered != 1_000_000 || r.ProtocolSuccesses != 980_000 {
			b.Fatalf("offered %d successes %d", r.Offered, r.ProtocolSuccesses)
		}
	}
}

// BenchmarkScoreTraceLines measures the strict normalized-format path per
// EVENTS line.
func BenchmarkScoreTraceLines(b *testing.B) {
	const n = 100_000
	var trace, events strings.Builder
	trace.WriteString(`{"window_ms": [0, 100000], "slo": {"ttft_ms": 300}, "requests": [`)
	for i := range n {
		if i > 0 {
			trace.WriteString(",")
		}
		fmt.Fprintf(&trace, `{"id": "r%d", "scheduled_ms": %d}`, i, i)
		fmt.Fprintf(&events, `{"id": "r%d", "sent_ms": %d, "terminal_ms": %d, "token_ms": [%d, %d, %d, %d], "status": "success", "quality_pass": true}`+"\n",
			i, i, i+500, i+100, i+150, i+200, i+250)
	}
	trace.WriteString("]}")
	tb, eb := []byte(trace.String()), []byte(events.String())
	b.SetBytes(int64(len(eb)))
	for b.Loop() {
		r, err := Trace("t.json", tb, "e.jsonl", eb, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Offered != n {
			b.Fatal(r.Offered)
		}
	}
}
