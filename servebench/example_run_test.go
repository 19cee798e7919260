package servebench_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
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

	workload, err := servebench.LoadWorkload("testdata/triage.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "example-run-")
	defer os.RemoveAll(dir)

	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload:  workload,
		Arrival:   servebench.Poisson(20, 1),
		Count:     10,
		Client:    servebench.NewClient(engine.BaseURL(), cfg.Model),
		Score:     servebench.Scoring{SLO: servebench.SLO{TTFT: 2 * time.Second}},
		OutputDir: dir,
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

// Settings declares a run as data, as a contract's arrival: block or the
// command's flags do, with an arrival of any process; RunConfig maps it to
// a run configuration: an open-loop process or a replay sets Arrival, a
// closed loop sets ClosedLoop. Go code sets Arrival with Constant, Poisson
// or Gamma instead.
func ExampleSettings_RunConfig() {
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":4}`))
	for _, spec := range []schedule.ArrivalSpec{
		{Process: schedule.ProcessGamma, RateRPS: 8, Burstiness: 0.5, Seed: 3},
		{Process: schedule.ProcessClosed, Users: 4, ThinkTimeMS: 500},
	} {
		cfg, err := servebench.Settings{Workload: w, Arrival: spec}.RunConfig()
		if err != nil {
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
