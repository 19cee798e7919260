package schedule_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Arrival processes are pure functions of their seed: the same spec gives
// the same schedule, without a clock.
func ExampleNewArrival() {
	a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "burst", RateRPS: 10, BurstSize: 3})
	offsets, windowEnd, _ := a.Offsets(7, 0)
	fmt.Println(offsets, "window ends at", windowEnd)
	// Output:
	// [0s 0s 0s 300ms 300ms 300ms 600ms] window ends at 900ms
}

// A schedule cycles the workload's rows and gives every use its own ID.
func ExampleBuild() {
	w, _ := schedule.ParseWorkload("w.jsonl", []byte("{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":4}\n{\"id\":\"b\",\"prompt\":\"y\",\"max_tokens\":4}\n"))
	a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 4})
	s, _ := schedule.Build(schedule.Plan{Workload: w, Arrival: a, Count: 3})
	for _, e := range s.Entries {
		fmt.Printf("%s at %g ms\n", e.ID, e.ScheduledMS)
	}
	fmt.Println("window", s.WindowMS)
	// Output:
	// a at 0 ms
	// b at 250 ms
	// a#2 at 500 ms
	// window [0 750]
}

// A malformed row is an error naming the file, the line and the field.
func ExampleParseWorkload() {
	_, err := schedule.ParseWorkload("incident.jsonl", []byte(
		"{\"prompt\":\"summarize\",\"max_tokens\":64}\n{\"prompt\":\"triage\"}\n"))
	fmt.Println(err)
	// Output:
	// incident.jsonl:2: max_tokens: must be a positive integer, got 0
}

// A Kubernetes Indexed Job's pod reads its shard from JOB_COMPLETION_INDEX.
func ExampleParseShard() {
	getenv := func(name string) string {
		if name == schedule.ShardIndexEnv {
			return "2"
		}
		return ""
	}
	k, err := schedule.ParseShard("env/4", getenv)
	fmt.Println(k, err)
	// Output: 2/4 <nil>
}

// Every shard realizes the same schedule; each sends its own share, and the
// shares partition the schedule by arrival unit.
func ExampleSchedule_OwnShare() {
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":4}`+"\n"))
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 10})
	full, _ := schedule.Build(schedule.Plan{Workload: w, Arrival: arrival, Count: 5, RunID: "0193a5a0-0000-7000-8000-000000000001"})
	for k := range 2 {
		s, _ := full.ForShard(schedule.Shard{Index: k, Count: 2})
		var ids []string
		for _, e := range s.OwnShare().Entries {
			ids = append(ids, e.ID)
		}
		fmt.Println(s.Shard.Shard, ids)
	}
	// Output:
	// 0/2 [a a#3 a#5]
	// 1/2 [a#2 a#4]
}

// Names that reach the console are refused when they hold a control
// character or invalid UTF-8.
func ExampleCheckPrintableName() {
	fmt.Println(schedule.CheckPrintableName("id", "row-7"))
	fmt.Println(schedule.CheckPrintableName("id", "row\x1b[2J"))
	// Output:
	// <nil>
	// id: holds the control character U+001B at byte 3
}

// tagged is an EntryRequests that sends each entry's row with the entry's
// ID as its class.
type tagged struct{ w *schedule.Workload }

func (t tagged) Request(id string, row int) *record.Request {
	r := t.w.Requests[row]
	r.Class = id
	return &r
}

// Without PerRequest an entry sends its row; with it, what PerRequest
// gives for the entry's ID (a synthetic image pool draws each request's
// images this way).
func ExampleWorkload_EntryRequest() {
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"hi","max_tokens":4}`+"\n"))
	fmt.Println(w.EntryRequest("a#2", 0).Class == "")
	w.PerRequest = tagged{w}
	fmt.Println(w.EntryRequest("a#2", 0).Class)
	// Output:
	// true
	// a#2
}
