package score

import (
	"bytes"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestShedOrderByHand: in 1 s windows by sent time,
//   - [0, 1000): critical c1 admitted, sheddable s1 rejected: judged, in order;
//   - [1000, 2000): critical c2 rejected while sheddable s2 was admitted: a
//     violation (a request without an objective, n1, is neither);
//   - [2000, 3000): c3 and s3 both rejected: judged, in order;
//   - [3000, 4000): c4 alone: not judged.
func TestShedOrderByHand(t *testing.T) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 4000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	add := func(id, objective string, at float64, rejected bool) {
		s.Entries = append(s.Entries, schedule.Entry{ID: id, ScheduledMS: at})
		o := record.Outcome{ID: id, Attempt: 1, Objective: objective, ScheduledMS: at, SentMS: new(at)}
		if rejected {
			o.Status, o.HTTPStatus, o.Error, o.TerminalMS = record.StatusRejected, new(429), "shed", at+2
		} else {
			o.Status, o.ContentMS, o.OutputTokens, o.TerminalMS = record.StatusSuccess, []float64{at + 10, at + 20}, new(2), at+30
		}
		outs = append(outs, o)
	}
	add("c1", "critical", 100, false)
	add("s1", "batch", 200, true)
	add("c2", "critical", 1100, true)
	add("s2", "batch", 1200, false)
	add("n1", "", 1300, false)
	add("c3", "critical", 2100, true)
	add("s3", "batch", 2200, true)
	add("c4", "critical", 3100, false)
	inMemory, err := Outcomes(s, outs, Options{CriticalObjectives: []string{"critical"}})
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{CriticalObjectives: []string{"critical"}}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	windowed, err := scoreRunDirWindowed(writeRunDir(t, s, outs, nil), Options{CriticalObjectives: []string{"critical"}}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*report.Report{"in memory": inMemory, "streamed": streamed, "windowed": windowed} {
		got := r.ShedOrder
		if got == nil {
			t.Fatalf("%s: no shed_order", name)
		}
		if got.Windows != 3 || got.Violations != 1 || got.FirstViolationMS == nil || *got.FirstViolationMS != 1000 || got.WindowMS != 1000 ||
			got.CriticalSent != 4 || got.CriticalRejected != 2 || got.SheddableSent != 3 || got.SheddableRejected != 2 ||
			len(got.Critical) != 1 || got.Critical[0] != "critical" {
			t.Errorf("%s: shed_order %+v", name, *got)
		}
	}
	// Scored again from its directory, the run keeps its report's critical
	// objectives.
	again, err := RunDir(writeRunDir(t, s, outs, inMemory), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.ShedOrder == nil || again.ShedOrder.Violations != 1 || again.ShedOrder.Windows != 3 {
		t.Errorf("re-scored: shed_order %+v", again.ShedOrder)
	}
	if r, _ := Outcomes(s, outs, Options{}); r.ShedOrder != nil {
		t.Error("a shed_order without critical objectives")
	}
}
