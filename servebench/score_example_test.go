package servebench_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/report"

	"github.com/servebench/servebench/servebench/schedule"

	"github.com/servebench/servebench/servebench/record"

	"github.com/servebench/servebench/servebench"
)

// Scoring the normalized format: six requests, three qualified.
func ExampleScoreFiles() {
	r, err := servebench.ScoreFiles("testdata/seed000/trace.json", "testdata/seed000/events.jsonl")
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
func ExampleScore() {
	sent := func(ms float64) *float64 { return &ms }
	five := 5
	s := &schedule.Schedule{Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}, {ID: "b", ScheduledMS: 500}}}
	outcomes := []record.Outcome{{
		ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: sent(0),
		ContentMS: []float64{240, 280, 320, 440, 480}, EventTokens: []int{1, 1, 1, 1, 1}, OutputTokens: &five,
		TerminalMS: 500,
	}}
	r, err := servebench.Score(s, outcomes, servebench.ScoreOptions{SLO: report.SLO{TPOT: 80 * time.Millisecond}})
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

func ExampleReport_Percentile() {
	r, _ := servebench.ScoreFiles("testdata/seed000/trace.json", "testdata/seed000/events.jsonl")
	v, n, population, _ := r.Percentile(record.MetricITL, 99)
	fmt.Printf("p99 ITL %v ms over %d: %s\n", v, n, population)
	// Output: p99 ITL 120 ms over 16: gaps between tokens, pooled over successful requests whose every event is proven to hold one token (16 gaps from 4 requests)
}

// Selecting the SLO capacity of a sweep: supplied observations, not
// measurements.
func ExampleSelectCapacity() {
	point := func(rps float64, qualified int) servebench.SweepPoint {
		att := float64(qualified) / 100
		return servebench.SweepPoint{OfferedRPS: rps, Report: &report.Report{
			Offered: 100, Qualified: qualified, Attainment: &att, Valid: true, Backlog: &report.Backlog{}}}
	}
	sel := servebench.SelectCapacity(
		[]servebench.SweepPoint{point(0.5, 100), point(1.0, 99), point(1.5, 96), point(2.0, 93)},
		servebench.CapacityRule{MinAttainment: 0.95, RequireNoBacklogGrowth: true})
	fmt.Printf("%v rps: %s; failing neighbor %v rps\n", *sel.RPS, sel.Label, *sel.FailingNeighborRPS)
	// Output: 1.5 rps: highest passing tested offered rate; failing neighbor 2 rps
}

func ExampleReport_WriteText() {
	r, _ := servebench.ScoreFiles("testdata/seed000/trace.json", "testdata/seed000/events.jsonl")
	var buf strings.Builder
	_ = r.WriteText(&buf)
	lines := strings.Split(buf.String(), "\n")
	fmt.Println(strings.Join(lines[4:10], "\n"))
	// Output:
	// Protocol successes:                  5 of 6 offered (83.3%)
	// Qualified requests:                  3 of 6 offered
	// SLO attainment:                      50.0% (3 / 6; performance+quality)
	// Wilson lower bound (95%, 1-sided):   22.1%
	// Successful request rate:             2.000 req/s (5 / 2.5 s horizon)
	// Qualified request rate:              1.200 req/s (3 / 2.5 s horizon)
}
