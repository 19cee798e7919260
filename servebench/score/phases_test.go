package score

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
)

// phasedRun is a hand-built phased run:
//   - steady [0, 1000): 10 requests at 0, 100, …, 900 ms, TTFT 100;
//   - burst [1000, 2000): 20 requests every 50 ms, TTFT 500, the 4th and
//     the 9th rejected (429);
//   - recovery [2000, 6000): 300 requests every 10 ms; the first 100 with
//     TTFT 400, the next 100 with 98 at 100 and 2 at 300, the last 100
//     with 99 at 100 and 1 at 300;
//   - long-context [6000, 7000): 5 requests, each refused for its context
//     length (HTTP 400).
func phasedRun() (*schedule.Schedule, []record.Outcome) {
	phases := []schedule.Phase{{Name: "steady", DurationMS: 1000, RateRPS: 10}, {Name: "burst", DurationMS: 1000, RateRPS: 20}, {Name: "recovery", DurationMS: 4000, RateRPS: 75}, {Name: "long-context", DurationMS: 1000, RateRPS: 5}}
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 7000}, ScheduleLagToleranceMS: 20,
		Arrival: schedule.ArrivalSpec{Process: schedule.ProcessConstant}.WithPhases(phases)}
	var outs []record.Outcome
	n := 0
	add := func(at float64, status record.Status, ttft float64) {
		n++
		id := fmt.Sprintf("r%03d", n)
		s.Entries = append(s.Entries, schedule.Entry{ID: id, ScheduledMS: at})
		o := record.Outcome{ID: id, Attempt: 1, Status: status, ScheduledMS: at, SentMS: new(at), TerminalMS: at + 5}
		switch status {
		case record.StatusSuccess:
			o.ContentMS, o.OutputTokens, o.TerminalMS = []float64{at + ttft, at + ttft + 10}, new(5), at+ttft+20
		case record.StatusRejected:
			o.HTTPStatus, o.Error = new(429), "the waiting queue is full"
		default:
			o.HTTPStatus, o.Error = new(400), "This model's maximum context length is 2048 tokens. However, your request has 4000 input tokens."
		}
		outs = append(outs, o)
	}
	for i := range 10 {
		add(float64(100*i), record.StatusSuccess, 100)
	}
	for i := range 20 {
		if i == 3 || i == 8 {
			add(1000+float64(50*i), record.StatusRejected, 0)
		} else {
			add(1000+float64(50*i), record.StatusSuccess, 500)
		}
	}
	for k := range 300 {
		ttft := 100.0
		switch {
		case k < 100:
			ttft = 400
		case k == 150 || k == 151 || k == 250:
			ttft = 300
		}
		add(2000+float64(10*k), record.StatusSuccess, ttft)
	}
	for i := range 5 {
		add(6000+float64(200*i), record.StatusHTTPError, 0)
	}
	return s, outs
}

// TestPhasesAndRecoveryByHand: with no SLO, the steady phase's p99 TTFT is
// 100 ms, so a window recovers at p99 ≤ 110 ms. Window 1 after the burst
// has p99 400, window 2 (98 at 100, 2 at 300: the 99th of 100 is 300)
// fails, window 3 (99 at 100, 1 at 300: the 99th is 100) passes: it starts
// at 2000 + 10 × 200 = 4000 ms, 2000 ms after the burst ended.
func TestPhasesAndRecoveryByHand(t *testing.T) {
	s, outs := phasedRun()
	inMemory, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{}, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	windowed, err := scoreRunDirWindowed(writeRunDir(t, s, outs, nil), Options{}, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("windowed: %v", err)
	}
	for name, r := range map[string]*report.Report{"in memory": inMemory, "streamed": streamed, "windowed": windowed} {
		if len(r.Phases) != 4 {
			t.Fatalf("%s: phases %+v", name, r.Phases)
		}
		wantPhase(t, name, r.Phases[0], "steady", 0, 1000, 10, 10, 100, report.PhasePass, "")
		wantPhase(t, name, r.Phases[1], "burst", 1000, 2000, 20, 18, 500, report.PhaseFail, "2 of 20 requests did not complete")
		// 197 at 100, 3 at 300, 100 at 400: the 297th of 300 is 400.
		wantPhase(t, name, r.Phases[2], "recovery", 2000, 6000, 300, 300, 400, report.PhasePass, "")
		wantPhase(t, name, r.Phases[3], "long-context", 6000, 7000, 5, 0, -1, report.PhaseSkipped,
			"the engine cannot run this phase: all 5 requests were refused: This model's maximum context length is 2048 tokens. However, your request has 4000 input tokens.")
		rec := r.Recovery
		if rec == nil || rec.BurstEndMS != 2000 || rec.BoundMS == nil || math.Abs(*rec.BoundMS-110) > 1e-9 ||
			rec.Bound != "1.1 × steady p99" || rec.WindowRequests != 100 || rec.Windows != 3 || !rec.Recovered {
			t.Errorf("%s: recovery %+v", name, rec)
		}
		if r.RecoveryMS == nil || *r.RecoveryMS != 2000 {
			t.Errorf("%s: recovery_ms %v, want 2000", name, r.RecoveryMS)
		}
	}
}

// TestRecoveryAgainstTheTTFTSLO: with a TTFT SLO of 350 ms, window 2 (its
// 99th TTFT 300) recovers: 3000 - 2000 = 1000 ms; the burst fails first on
// its rejected requests, and the recovery phase on its p99 of 400.
func TestRecoveryAgainstTheTTFTSLO(t *testing.T) {
	s, outs := phasedRun()
	r, err := Outcomes(s, outs, Options{SLO: report.SLO{TTFT: 350 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Recovery == nil || r.Recovery.Bound != "ttft_slo" || *r.Recovery.BoundMS != 350 || r.RecoveryMS == nil || *r.RecoveryMS != 1000 {
		t.Errorf("recovery %+v, recovery_ms %v; want the SLO's 350 ms bound and 1000", r.Recovery, r.RecoveryMS)
	}
	// 200 of the 300 have a TTFT within 350 ms.
	wantPhaseQualified(t, "slo", r.Phases[2], "recovery", 2000, 6000, 300, 300, 200, 400, report.PhaseFail, "p99 TTFT 400 ms is over the TTFT SLO's 350 ms")
	// An SLO nothing after the burst meets: no recovery, and why.
	r, err = Outcomes(s, outs, Options{SLO: report.SLO{TTFT: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if r.RecoveryMS != nil || r.Recovery.Recovered ||
		r.Recovery.Reason != "no window of 100 requests after the burst had a p99 TTFT within 50 ms (3 windows of 305 requests after it)" {
		t.Errorf("recovery %+v, recovery_ms %v", r.Recovery, r.RecoveryMS)
	}
}

// wantPhase checks one phase's result; ttftP99 < 0 wants none.
func wantPhase(t *testing.T, run string, got report.PhaseResult, name string, start, end float64, offered, completed int, ttftP99 float64, verdict, reason string) {
	t.Helper()
	wantPhaseQualified(t, run, got, name, start, end, offered, completed, completed, ttftP99, verdict, reason)
}

// wantPhaseQualified checks one phase's result with its qualified count.
func wantPhaseQualified(t *testing.T, run string, got report.PhaseResult, name string, start, end float64, offered, completed, qualified int,
	ttftP99 float64, verdict, reason string) {
	t.Helper()
	if got.Name != name || got.StartMS != start || got.EndMS != end || got.Offered != offered || got.Completed != completed ||
		got.Verdict != verdict || got.Reason != reason {
		t.Errorf("%s: phase %+v, want %s [%v, %v) offered %d completed %d %s %q", run, got, name, start, end, offered, completed, verdict, reason)
	}
	switch {
	case ttftP99 < 0 && got.TTFTP99MS != nil:
		t.Errorf("%s: phase %s has p99 TTFT %v, want none", run, name, *got.TTFTP99MS)
	case ttftP99 >= 0 && (got.TTFTP99MS == nil || *got.TTFTP99MS != ttftP99):
		t.Errorf("%s: phase %s p99 TTFT %v, want %v", run, name, got.TTFTP99MS, ttftP99)
	}
	if got.Qualified != qualified || got.Attainment == nil || *got.Attainment != float64(qualified)/float64(offered) {
		t.Errorf("%s: phase %s qualified %d attainment %v, want %d/%d", run, name, got.Qualified, got.Attainment, qualified, offered)
	}
}

// TestPhasesInTheTextReport: a line per phase, with its verdict, and the
// recovery.
func TestPhasesInTheTextReport(t *testing.T) {
	s, outs := phasedRun()
	r, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := render.Text(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Phase steady:                        [0, 1000) ms at 10 req/s: 10 of 10 completed, attainment 100.0%, TTFT p99 100 ms; PASS",
		"Phase burst:                         [1000, 2000) ms at 20 req/s: 18 of 20 completed, attainment 90.0%, TTFT p99 500 ms; FAIL: 2 of 20 requests did not complete",
		"Phase long-context:                  [6000, 7000) ms at 5 req/s: 0 of 5 completed, attainment 0.0%, TTFT p99 n/a; SKIPPED: the engine cannot run this phase",
		"Recovery after the burst:            2000 ms (first window of 100 requests with p99 TTFT within 110 ms, 1.1 × steady p99)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
}
