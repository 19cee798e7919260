package servebench_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
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

	w, _ := schedule.ParseWorkload("triage.jsonl", []byte(
		`{"id":"t1","prompt":"Is the pager storm over?","max_tokens":8,"ignore_eos":true}`))
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 20, Seed: 1})
	dir, _ := os.MkdirTemp("", "example-run-")
	defer os.RemoveAll(dir)

	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 10, OutputDir: dir,
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: openai.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
		Score: score.Options{SLO: report.SLO{TTFT: 2 * time.Second}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Report
	// The outcome records are read back from outcomes.jsonl, one at a time.
	tokens := 0
	for o, err := range res.Outcomes() {
		if err != nil {
			fmt.Println(err)
			return
		}
		tokens += *o.OutputTokens
	}
	fmt.Printf("offered %d, successes %d, qualified %d, output tokens: %d\n",
		r.Offered, r.ProtocolSuccesses, r.Qualified, tokens)
	// Output:
	// offered 10, successes 10, qualified 10, output tokens: 80
}

// SetArrival is the one way from a declared arrival, of any process, to a
// run configuration: an open-loop process or a replay sets Arrival, a closed
// loop sets ClosedLoop.
func ExampleRunConfig_SetArrival() {
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":4}`))
	cfg := servebench.RunConfig{Workload: w}
	for _, spec := range []schedule.ArrivalSpec{
		{Process: schedule.ProcessGamma, RateRPS: 8, Burstiness: 0.5, Seed: 3},
		{Process: schedule.ProcessClosed, Users: 4, ThinkTimeMS: 500},
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
