package score

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// steadyRun builds a closed loop with a known steady state: one request
// alone in [0, 500), then ten in flight together from 1000 ms to end, then
// ten more for a shorter second stretch of 1000 ms. The first ten have
// TTFT 100, 200, … 1000 ms and 5 output tokens each, their last at
// end-100.
func steadyRun(end float64) (*schedule.Schedule, []record.Outcome) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeClosed, WindowMS: [2]float64{0, end + 3000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	add := func(id string, sent, ttft, last, terminal float64) {
		s.Entries = append(s.Entries, schedule.Entry{ID: id, ScheduledMS: sent})
		outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: sent, SentMS: new(sent),
			ContentMS: []float64{sent + ttft, last}, OutputTokens: new(5), TerminalMS: terminal})
	}
	add("alone", 0, 100, 400, 500)
	for i := range 10 {
		add("steady"+strconv.Itoa(i), 1000, float64(100*(i+1)), end-100, end)
	}
	for i := range 10 {
		add("later"+strconv.Itoa(i), end+1000, 100, end+1900, end+2000)
	}
	return s, outs
}

func TestSteadyStateWindow(t *testing.T) {
	s, outs := steadyRun(5000)
	inMemory, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{}, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	for name, r := range map[string]*report.Report{"in memory": inMemory, "streamed": streamed} {
		got := r.SteadyState
		if got == nil {
			t.Fatalf("%s: no steady state", name)
		}
		if got.StartMS != 1000 || got.EndMS != 5000 || got.PeakInFlight != 10 || got.InFlightFloor != 10 || got.Requests != 10 || got.Successes != 10 {
			t.Errorf("%s: steady state %+v, want [1000, 5000) with peak 10, floor 10 and 10 requests", name, *got)
		}
		// 10 successes and 50 output tokens over 4 s.
		if *got.RequestsPerSecond != 2.5 || *got.OutputTokensPerSecond != 12.5 {
			t.Errorf("%s: %v requests/s and %v output tokens/s, want 2.5 and 12.5", name, *got.RequestsPerSecond, *got.OutputTokensPerSecond)
		}
		// Nearest rank: p50 is the 5th of 10, p99 the 10th. TPOT is
		// (4900 - 1000 - TTFT) / 4: 950 down to 725.
		want := map[string][2]float64{"ttft": {500, 1000}, "tpot": {825, 950}, "e2e": {4000, 4000}}
		for metric, l := range map[string]report.SteadyLatency{"ttft": got.TTFT, "tpot": got.TPOT, "e2e": got.E2E} {
			if l.P50 == nil || l.P99 == nil || *l.P50 != want[metric][0] || *l.P99 != want[metric][1] {
				t.Errorf("%s: %s p50 %v p99 %v, want %v", name, metric, l.P50, l.P99, want[metric])
			}
		}
		// The run's horizon is 8000 ms: the 4 s window is under 10 s.
		if !got.Short || got.ShortReason != "the steady window lasts 4000 ms, less than max(10 s, 10% of the 8000 ms run) = 10000 ms" {
			t.Errorf("%s: short %v %q", name, got.Short, got.ShortReason)
		}
	}
}

func TestSteadyStateLongEnough(t *testing.T) {
	s, outs := steadyRun(13000) // a 12 s window in a 16 s run
	r, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.SteadyState; got == nil || got.StartMS != 1000 || got.EndMS != 13000 || got.Short || got.ShortReason != "" {
		t.Errorf("steady state %+v, want [1000, 13000) and not short", got)
	}
}

func TestSteadyStateOnlyForClosedLoopsAndSessions(t *testing.T) {
	s, outs := steadyRun(5000)
	s.Mode = schedule.ModeOpen
	r, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.SteadyState != nil {
		t.Errorf("an open-loop run without conversations has a steady state %+v", *r.SteadyState)
	}
	// Sessions have one, never flagged short: the flag is a closed loop's.
	sr, souts := sessionRun()
	r, err = Outcomes(sr, souts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.SteadyState == nil || r.SteadyState.Short {
		t.Errorf("a session run's steady state %+v, want one, not short", r.SteadyState)
	}
}
