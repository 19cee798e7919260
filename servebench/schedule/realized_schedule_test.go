package schedule

import (
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func mustWorkload(t *testing.T, text string) *Workload {
	t.Helper()
	w, err := ParseWorkload("w.jsonl", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestScheduleCyclesRowsWithUniqueIDs(t *testing.T) {
	w := mustWorkload(t, "{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":2,\"class\":\"short\"}\n{\"id\":\"b\",\"prompt\":\"y\",\"max_tokens\":3}\n")
	a, _ := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 4})
	s, err := Build(Plan{Workload: w, Arrival: a, Count: 5, RunID: "run-1"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range s.Entries {
		ids = append(ids, e.ID)
	}
	want := []string{"a", "b", "a#2", "b#2", "a#3"}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("ids %v, want %v", ids, want)
		}
	}
	if s.Entries[3].ScheduledMS != 750 || s.Entries[4].Class != "short" || s.Entries[4].MaxTokens != 2 {
		t.Fatalf("entries %+v", s.Entries)
	}
	if s.WindowMS != [2]float64{0, 1250} || s.Mode != ModeOpen || s.ScheduleLagToleranceMS != 20 || s.WorkloadSHA256 != w.SHA256 {
		t.Fatalf("schedule header %+v", s)
	}
}

func TestScheduleKeepsConversationsTogether(t *testing.T) {
	w := mustWorkload(t, `{"id":"c1-t2","prompt":"second","max_tokens":2,"conversation":"c1","turn":2,"think_ms":500}
{"id":"c1-t1","prompt":"first","max_tokens":2,"conversation":"c1","turn":1}
{"id":"solo","prompt":"alone","max_tokens":2}
`)
	a, _ := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 1})
	s, err := Build(Plan{Workload: w, Arrival: a, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := []Entry{s.Entries[0], s.Entries[1], s.Entries[2]}
	if got[0].ID != "c1-t1" || got[1].ID != "c1-t2" || got[1].DependsOn != "c1-t1" || got[1].ThinkMS != 500 ||
		got[2].ID != "solo" || got[2].ScheduledMS != 1000 || got[2].DependsOn != "" {
		t.Fatalf("entries %+v", got)
	}
	if units := Units(s); len(units) != 2 || len(units[0]) != 2 {
		t.Fatalf("units %v, want [[0 1] [2]]", units)
	}
}

func TestClosedLoopSchedule(t *testing.T) {
	w := mustWorkload(t, `{"prompt":"x","max_tokens":2}`)
	s, err := Build(Plan{Workload: w, ClosedLoop: &ClosedLoop{Users: 3, ThinkTime: ms(250)}, Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.Mode != ModeClosed || len(s.Entries) != 4 || s.Arrival.Users != 3 || s.Arrival.ThinkTimeMS != 250 {
		t.Fatalf("schedule %+v", s)
	}
	if _, err := Build(Plan{Workload: w, ClosedLoop: &ClosedLoop{Users: 3}}); err == nil {
		t.Fatal("a closed loop without a count was accepted")
	}
}

func TestScheduleRoundTripsWithItsHash(t *testing.T) {
	w := mustWorkload(t, `{"prompt":"x","max_tokens":2,"expect":{"regex":"ok"}}`)
	a, _ := NewArrival(ArrivalSpec{Process: "poisson", RateRPS: 10, Seed: 7})
	s, _ := Build(Plan{Workload: w, Arrival: a, Count: 3})
	path := filepath.Join(t.TempDir(), record.ScheduleFile)
	sum, err := Write(path, s)
	if err != nil {
		t.Fatal(err)
	}
	back, sum2, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum != sum2 || len(back.Entries) != 3 || back.Entries[2].Expect == nil || *back.Entries[2].Expect.Regex != "ok" {
		t.Fatalf("round trip lost something: %s vs %s, %+v", sum, sum2, back.Entries)
	}
}
