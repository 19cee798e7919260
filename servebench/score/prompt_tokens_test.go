package score

import (
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

func TestPromptTokenAudit(t *testing.T) {
	a := report.PromptTokenAudit{Tolerance: report.PromptTokenTolerance{Absolute: 10}}
	a.Add("r1", new(100), new(108)) // +8, within
	a.Add("r2", new(100), new(125)) // +25, beyond
	a.Add("r3", new(50), new(38))   // -12, beyond
	a.Add("r4", new(70), nil)       // engine did not report
	a.Add("r5", nil, new(99))       // row declared nothing: not counted
	if a.Compared != 3 || a.Mismatched != 2 || a.Unreported != 1 || a.MaxAbsDifference != 25 {
		t.Fatalf("audit %+v", a)
	}
	// Mean difference (8 + 25 - 12) / 3 = 7.
	if a.MeanDifference == nil || *a.MeanDifference != 7 {
		t.Fatalf("mean difference %v, want 7", a.MeanDifference)
	}
	want := []string{
		"r2: requested 100 prompt tokens, engine reported 125 (+25, beyond the allowed ±10)",
		"r3: requested 50 prompt tokens, engine reported 38 (-12, beyond the allowed ±10)",
	}
	if !reflect.DeepEqual(a.Examples, want) {
		t.Fatalf("examples %q", a.Examples)
	}
}

// TestPromptTokenAuditLeavesOutTurnsThatCarryAnswers: turn 1 (100 intended,
// 104 reported) is compared; turn 2, whose row carries an assistant
// message, is left out and counted as CarriedHistory, whatever the engine
// reported (here 40 fewer than the row intended).
func TestPromptTokenAuditLeavesOutTurnsThatCarryAnswers(t *testing.T) {
	w, err := schedule.ParseWorkload("conv.jsonl", []byte(`{"id":"t1","conversation":"c","turn":1,"messages":[{"role":"user","content":"q"}],"max_tokens":2,"prompt_tokens":100}
{"id":"t2","conversation":"c","turn":2,"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"},{"role":"user","content":"r"}],"max_tokens":2,"prompt_tokens":200}
`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 10})
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedule.Build(schedule.Plan{Workload: w, Arrival: arrival, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Entries[1]; e.ID != "t2" || !e.CarriedHistory || *e.PromptTokens != 200 || s.Entries[0].CarriedHistory {
		t.Fatalf("schedule entries %+v", s.Entries)
	}
	outcomes := []record.Outcome{
		{ID: "t1", Status: record.StatusSuccess, PromptTokens: new(104)},
		{ID: "t2", Status: record.StatusSuccess, PromptTokens: new(160)},
	}
	audits := newAuditTally()
	for i, o := range outcomes {
		audits.add(&o, auditedEntry(&s.Entries[i]))
	}
	var rep report.Report
	audits.finish(&rep)
	a := rep.PromptTokens
	if a == nil || a.Compared != 1 || a.Mismatched != 0 || a.CarriedHistory != 1 || *a.MeanDifference != 4 {
		t.Fatalf("audit %+v; want 1 compared (difference +4), none mismatched, 1 carrying history", a)
	}
}
