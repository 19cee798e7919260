package score

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// sessionRun builds 205 two-turn conversations and one lone request: 190
// sessions qualify, 10 fail at their second turn (an HTTP error) and 5
// were truncated at their second turn by a closed loop's deadline (a turn
// outside the window, so 205 + 1 - 5 = 406 requests offered). The
// outcomes list every first turn before any second one, so the sessions
// interleave as they do in a real outcomes.jsonl.
func sessionRun() (*schedule.Schedule, []record.Outcome) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1e6}, ScheduleLagToleranceMS: 20}
	var firsts, seconds []record.Outcome
	success := func(id string, a float64) record.Outcome {
		return record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: new(a),
			ContentMS: []float64{a + 10}, OutputTokens: new(1), TerminalMS: a + 20}
	}
	for c := range 205 {
		a := float64(c) * 100
		first, second := "c"+strconv.Itoa(c)+"t1", "c"+strconv.Itoa(c)+"t2"
		s.Entries = append(s.Entries, schedule.Entry{ID: first, ScheduledMS: a}, schedule.Entry{ID: second, ScheduledMS: a + 30, DependsOn: first})
		firsts = append(firsts, success(first, a))
		o := success(second, a+30)
		switch {
		case c >= 200:
			// Due at the deadline, the window's end: outside it, as a
			// closed loop bounded by time writes it.
			o = record.Outcome{ID: second, Attempt: 1, Status: record.StatusNotSent, ScheduledMS: 1e6, TerminalMS: 1e6,
				Reason: record.ReasonSessionTruncated}
		case c >= 190:
			o = record.Outcome{ID: second, Attempt: 1, Status: record.StatusHTTPError, ScheduledMS: a + 30, SentMS: new(a + 30),
				TerminalMS: a + 40, HTTPStatus: new(500), Error: "HTTP 500"}
		}
		seconds = append(seconds, o)
	}
	s.Entries = append(s.Entries, schedule.Entry{ID: "lone", ScheduledMS: 30000})
	return s, append(append(firsts, success("lone", 30000)), seconds...)
}

func TestSessionsJudgedWhole(t *testing.T) {
	s, outs := sessionRun()
	inMemory, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{}, &buf)
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	for name, r := range map[string]*report.Report{"in memory": inMemory, "streamed": streamed} {
		got := r.Sessions
		if got == nil {
			t.Fatalf("%s: no sessions block", name)
		}
		if r.Offered != 406 {
			t.Errorf("%s: %d offered, want 406: a truncated turn is not offered", name, r.Offered)
		}
		// 206 sessions: the lone request is a session of one turn.
		if got.Offered != 206 || got.Completed != 201 || got.Truncated != 5 || got.Qualified != 191 {
			t.Errorf("%s: sessions %+v, want offered 206, completed 201, truncated 5, qualified 191", name, *got)
		}
		// 191 of 201: by hand, p = 0.95025, z = 1.6449, the bound is 0.9185.
		if got.Attainment == nil || math.Abs(*got.Attainment-191.0/201) > 1e-12 {
			t.Errorf("%s: attainment %v, want 191/201", name, got.Attainment)
		}
		if got.WilsonLower == nil || math.Abs(*got.WilsonLower-0.9185) > 5e-4 {
			t.Errorf("%s: wilson_lower %v, want 0.9185", name, got.WilsonLower)
		}
	}
}

func TestSessionsAbsentWithoutConversations(t *testing.T) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 100}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}}}
	o := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0), ContentMS: []float64{10}, OutputTokens: new(1), TerminalMS: 20}
	r, err := Outcomes(s, []record.Outcome{o}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sessions != nil {
		t.Errorf("sessions %+v for a workload without conversations, want none", *r.Sessions)
	}
}
