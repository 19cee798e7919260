package schedule

import (
	"strings"
	"testing"
)

func TestBuildScheduleRefusesAWindowThatRoundsToZero(t *testing.T) {
	w, err := ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":1}`))
	if err != nil {
		t.Fatal(err)
	}
	// 4 arrivals at 1e12 req/s: gaps of 1 ps, all at offset 0, and a window
	// of 4 ps, which rounds to 0 ns.
	a, err := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 1e12, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(Plan{Workload: w, Arrival: a, Count: 4})
	if err == nil || !strings.Contains(err.Error(), "the arrival window of 4 arrivals rounds to zero") {
		t.Fatalf("error %v", err)
	}
	// A rate so low that the second arrival lies past 2^63 ns.
	a, _ = NewArrival(ArrivalSpec{Process: "constant", RateRPS: 1e-12, Seed: 1})
	_, err = Build(Plan{Workload: w, Arrival: a, Count: 2})
	if err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Fatalf("error %v", err)
	}
}

func TestNewReplayRefusesTimesThatOverflow(t *testing.T) {
	w, err := ParseWorkload("r.jsonl", []byte("{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":1,\"scheduled_ms\":0}\n"+
		"{\"id\":\"b\",\"prompt\":\"x\",\"max_tokens\":1,\"scheduled_ms\":1e300}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewReplay(w, 1)
	if err == nil || !strings.Contains(err.Error(), "r.jsonl:2: scheduled_ms: 1e+300 ms at time scale 1 is 1e+300 ms, beyond the latest time") {
		t.Fatalf("error %v", err)
	}
	// A time that fits, scaled past the limit: 1e10 ms x 1000.
	w, _ = ParseWorkload("r.jsonl", []byte("{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":1,\"scheduled_ms\":1e10}\n"))
	if _, err := NewReplay(w, 1); err != nil {
		t.Fatalf("1e10 ms at scale 1: %v", err)
	}
	if _, err := NewReplay(w, 1000); err == nil || !strings.Contains(err.Error(), "r.jsonl:1: scheduled_ms: 1e+10 ms at time scale 1000 is 1e+13 ms") {
		t.Fatalf("scale 1000: error %v", err)
	}
}
