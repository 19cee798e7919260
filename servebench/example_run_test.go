package servebench_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
)

// A whole run against the simulated engine: the schedule is realized and
// saved, every request is sent at its time, and the report counts every
// offered request.
func ExampleRun() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()

	w, _ := servebench.ParseWorkload("triage.jsonl", []byte(
		`{"id":"t1","prompt":"Is the pager storm over?","max_tokens":8,"ignore_eos":true}`))
	arrival, _ := servebench.NewArrival(servebench.ArrivalSpec{Process: "poisson", RateRPS: 20, Seed: 1})
	dir, _ := os.MkdirTemp("", "example-run-")
	defer os.RemoveAll(dir)

	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 10, OutputDir: dir,
		Client: &servebench.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: servebench.EndpointCompletions,
			Stream: true, TotalTimeout: 10 * time.Second},
		Score: servebench.ScoreOptions{SLO: servebench.SLO{TTFT: 2 * time.Second}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Report
	fmt.Printf("offered %d, successes %d, qualified %d, output tokens of the first: %d\n",
		r.Offered, r.ProtocolSuccesses, r.Qualified, *res.Outcomes[0].OutputTokens)
	// Output:
	// offered 10, successes 10, qualified 10, output tokens of the first: 8
}

// Arrival processes are pure functions of their seed: the same spec gives
// the same schedule, without a clock.
func ExampleNewArrival() {
	a, _ := servebench.NewArrival(servebench.ArrivalSpec{Process: "burst", RateRPS: 10, BurstSize: 3})
	offsets, windowEnd, _ := a.Offsets(7, 0)
	fmt.Println(offsets, "window ends at", windowEnd)
	// Output:
	// [0s 0s 0s 300ms 300ms 300ms 600ms] window ends at 900ms
}

// A schedule cycles the workload's rows and gives every use its own ID.
func ExampleBuildSchedule() {
	w, _ := servebench.ParseWorkload("w.jsonl", []byte("{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":4}\n{\"id\":\"b\",\"prompt\":\"y\",\"max_tokens\":4}\n"))
	a, _ := servebench.NewArrival(servebench.ArrivalSpec{Process: "constant", RateRPS: 4})
	s, _ := servebench.BuildSchedule(servebench.SchedulePlan{Workload: w, Arrival: a, Count: 3})
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
	_, err := servebench.ParseWorkload("incident.jsonl", []byte(
		"{\"prompt\":\"summarize\",\"max_tokens\":64}\n{\"prompt\":\"triage\"}\n"))
	fmt.Println(err)
	// Output:
	// incident.jsonl:2: max_tokens: must be a positive integer, got 0
}

// SetArrival is the one way from a declared arrival, of any process, to a
// run configuration: an open-loop process or a replay sets Arrival, a closed
// loop sets ClosedLoop.
func ExampleRunConfig_SetArrival() {
	w, _ := servebench.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":4}`))
	cfg := servebench.RunConfig{Workload: w}
	for _, spec := range []servebench.ArrivalSpec{
		{Process: servebench.ProcessGamma, RateRPS: 8, Burstiness: 0.5, Seed: 3},
		{Process: servebench.ProcessClosed, Users: 4, ThinkTimeMS: 500},
	} {
		if err := cfg.SetArrival(spec); err != nil {
			fmt.Println(err)
			continue
		}
		if cfg.ClosedLoop != nil {
			fmt.Printf("%s loop: %d users, think %v\n", spec.Process.Mode(), cfg.ClosedLoop.Users, cfg.ClosedLoop.ThinkTime)
		} else {
			fmt.Printf("%s loop: %s at %g req/s\n", spec.Process.Mode(), cfg.Arrival.Spec().Process, cfg.Arrival.Spec().RateRPS)
		}
	}
	// Output:
	// open loop: gamma at 8 req/s
	// closed loop: 4 users, think 500ms
}
