package schedule

import (
	"testing"
	"time"
)

func TestTimedClosedLoopPlacesEveryArrivalAtTheDeadline(t *testing.T) {
	w, err := ParseWorkload("w.jsonl", []byte("{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":1}\n"+
		"{\"id\":\"c-1\",\"conversation\":\"c\",\"turn\":1,\"prompt\":\"x\",\"max_tokens\":1}\n"+
		"{\"id\":\"c-2\",\"conversation\":\"c\",\"turn\":2,\"think_ms\":5,\"prompt\":\"y\",\"max_tokens\":1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build(Plan{Workload: w, ClosedLoop: &ClosedLoop{Users: 2}, Duration: 3 * time.Millisecond, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	// 2 users x 3 ms: 6 arrival units, cycling the single request and the
	// two-turn session: 9 entries, each a placeholder at the 3 ms deadline.
	if s.Mode != ModeClosed || s.WindowMS != [2]float64{0, 3} || len(s.Entries) != 9 {
		t.Fatalf("mode %s, window %v, %d entries; want closed, [0, 3), 9", s.Mode, s.WindowMS, len(s.Entries))
	}
	for _, e := range s.Entries {
		if e.ScheduledMS != 3 {
			t.Errorf("%s: scheduled at %v ms, want the 3 ms deadline", e.ID, e.ScheduledMS)
		}
	}
	// A count bounds the arrival units of a loop bounded by time too.
	s, err = Build(Plan{Workload: w, ClosedLoop: &ClosedLoop{Users: 2}, Count: 1, Duration: time.Hour, RunID: "r"})
	if err != nil || len(s.Entries) != 1 {
		t.Fatalf("count 1: %v, %d entries; want 1", err, len(s.Entries))
	}
}

func TestTimedClosedLoopUnitsAreBounded(t *testing.T) {
	if n := timedClosedLoopUnits(1000, 0, time.Hour); n != MaxTimedClosedLoopUnits {
		t.Fatalf("1000 users for an hour: %d units, want %d", n, MaxTimedClosedLoopUnits)
	}
	if n := timedClosedLoopUnits(3, 0, 1500*time.Microsecond); n != 6 {
		t.Fatalf("3 users for 1.5 ms: %d units, want 6", n)
	}
}

func TestClosedLoopNeedsACountOrADuration(t *testing.T) {
	w, _ := ParseWorkload("w.jsonl", []byte("{\"prompt\":\"x\",\"max_tokens\":1}\n"))
	_, err := Build(Plan{Workload: w, ClosedLoop: &ClosedLoop{Users: 2}})
	if want := "schedule: a closed loop needs a request count or a duration"; err == nil || err.Error() != want {
		t.Fatalf("err %v, want %q", err, want)
	}
}
