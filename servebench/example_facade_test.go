package servebench_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// LoadWorkload reads a workload file; its hash goes into the schedule, so
// a run names the exact bytes it replayed.
func ExampleLoadWorkload() {
	workload, err := servebench.LoadWorkload("testdata/triage.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(workload.Requests), "requests, first", workload.Requests[0].ID)
	// Output:
	// 2 requests, first t1
}

// Poisson, Constant and Gamma go straight into RunConfig.Arrival. The same
// seed realizes the same schedule.
func ExamplePoisson() {
	arrival := servebench.Poisson(20, 1)
	offsets, _, err := arrival.Offsets(3, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _, _ := servebench.Poisson(20, 1).Offsets(3, 0)
	fmt.Println(arrival.Spec().Process, arrival.Spec().RateRPS, "req/s:", len(offsets), "arrivals, the first at", offsets[0])
	fmt.Println("same seed, same schedule:", fmt.Sprint(offsets) == fmt.Sprint(again))
	// Output:
	// poisson 20 req/s: 3 arrivals, the first at 0s
	// same seed, same schedule: true
}

// Constant spaces the arrivals evenly.
func ExampleConstant() {
	offsets, _, _ := servebench.Constant(4).Offsets(3, 0)
	fmt.Println(offsets)
	// Output:
	// [0s 250ms 500ms]
}

// Gamma's shape sets the burstiness: below 1 the gaps vary more than
// Poisson's.
func ExampleGamma() {
	spec := servebench.Gamma(8, 0.5, 3).Spec()
	fmt.Println(spec.Process, spec.RateRPS, spec.Burstiness, spec.Seed)
	// Output:
	// gamma 8 0.5 3
}

// A bad rate needs no error check where the arrival is made: Run reports
// it, naming the field, before it writes or sends anything.
func ExamplePoisson_badRate() {
	workload, _ := servebench.LoadWorkload("testdata/triage.jsonl")
	_, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workload,
		Arrival:  servebench.Poisson(-1, 1),
		Count:    10,
		Client:   servebench.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b"),
	})
	fmt.Println(err)
	// Output:
	// run: Arrival: poisson rate must be a positive finite number of requests per second, got -1
}

// NewClient streams chat completions with the deadlines a first run needs;
// change a field to tighten one.
func ExampleNewClient() {
	client := servebench.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b")
	client.FirstTokenTimeout = 5 * time.Second
	firstToken, idle, total := client.Deadlines()
	fmt.Println(client.Endpoint, "streamed:", !client.NoStream)
	fmt.Println("first token", firstToken, "idle", idle, "total", total)
	// Output:
	// chat streamed: true
	// first token 5s idle 1m0s total 5m0s
}

// Scoring and SLO declare what a request must achieve to qualify; TTFT,
// TPOT, E2E and ITL name the latency metrics the matchers take.
func ExampleScoring() {
	scoring := servebench.Scoring{SLO: servebench.SLO{TTFT: time.Second, E2E: 5 * time.Second}}
	fmt.Println(scoring.SLO.TTFT, scoring.SLO.E2E, servebench.TTFT, servebench.E2E)
	// Output:
	// 1s 5s ttft_ms e2e_ms
}

// A *RunResult is a Ginkgo report entry value: AddReportEntry("run",
// result) prints this line (Ginkgo colours the {{...}} marks).
func ExampleRunResult_ColorableString() {
	attainment, ttft := 1.0, 180.25
	result := &servebench.RunResult{Dir: "/runs/chat", Report: &report.Report{
		Offered: 60, Qualified: 60, Attainment: &attainment, Valid: true,
		StatusCounts: map[record.Status]int{record.StatusSuccess: 60},
		Percentiles:  map[record.Metric]report.Distribution{servebench.TTFT: {N: 60, P99: &ttft}},
	}}
	fmt.Println(result.ColorableString())
	// Output:
	// attainment 1.000 (60 of 60 offered qualified); success 60; p99 ttft 180.2 ms (n=60); {{green}}load delivered{{/}}; run directory /runs/chat
}
