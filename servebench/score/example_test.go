package score_test

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Scoring the normalized format: six requests, three qualified.
func ExampleTraceFiles() {
	r, err := score.TraceFiles("testdata/seed000/trace.json", "testdata/seed000/events.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("qualified %d of %d offered: attainment %.2f (Wilson 95%% lower bound %.3f)\n",
		r.Qualified, r.Offered, *r.Attainment, *r.WilsonLower)
	fmt.Printf("horizon %v ms: %.1f successful req/s, %.1f qualified req/s; offered %.1f req/s\n",
		r.HorizonMS, *r.SuccessfulRPS, *r.QualifiedRPS, *r.OfferedRPS)
	fmt.Println("load delivered:", r.LoadDelivered() == nil)
	// Output:
	// qualified 3 of 6 offered: attainment 0.50 (Wilson 95% lower bound 0.221)
	// horizon 2500 ms: 2.0 successful req/s, 1.2 qualified req/s; offered 3.0 req/s
	// load delivered: true
}

// Scoring the runner's outcome records: the final attempt of each request
// counts once, and a request with no record is not_sent.
func ExampleOutcomes() {
	sent := func(ms float64) *float64 { return &ms }
	five := 5
	s := &schedule.Schedule{Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}, {ID: "b", ScheduledMS: 500}}}
	outcomes := []record.Outcome{{
		ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: sent(0),
		ContentMS: []float64{240, 280, 320, 440, 480}, EventTokens: []int{1, 1, 1, 1, 1}, OutputTokens: &five,
		TerminalMS: 500,
	}}
	r, err := score.Outcomes(s, outcomes, score.Options{SLO: report.SLO{TPOT: 80 * time.Millisecond}})
	if err != nil {
		fmt.Println(err)
		return
	}
	a := r.Requests[0]
	fmt.Printf("a: ttft %v ms, tpot %v ms, e2e %v ms, qualified %v\n", *a.TTFTMS, *a.TPOTMS, *a.E2EMS, a.Qualified)
	fmt.Println("b:", r.Requests[1].Status)
	fmt.Println(r.LoadDelivered())
	// Output:
	// a: ttft 240 ms, tpot 60 ms, e2e 500 ms, qualified true
	// b: not_sent
	// the load was not delivered: 1 of 2 offered requests have no outcome record (the run was interrupted?) and count as not_sent; 1 of 2 offered requests were not sent
}
