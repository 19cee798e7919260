package capacity_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
)

// A sweep runs one configuration at each offered rate, each run in its own
// directory, and selects the SLO capacity: the highest passing tested
// rate. The arrival's process and seed are kept; its rate is each point's.
// This example only compiles: it needs an engine serving at the URL.
func ExampleRunSweep() {
	workload, err := servebench.LoadWorkload("workloads/chat.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	sweep, err := capacity.RunSweep(context.Background(), servebench.RunConfig{
		Workload:  workload,
		Arrival:   servebench.Poisson(1, 1), // each point sets its own rate
		Count:     200,
		Client:    servebench.NewClient("http://127.0.0.1:8000", "qwen2.5-0.5b"),
		Score:     servebench.Scoring{SLO: servebench.SLO{TTFT: time.Second}},
		OutputDir: "runs/sweep",
	}, capacity.Plan{Rates: []float64{2, 4, 8, 16}, Rule: capacity.Rule{MinAttainment: 0.95}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if rps := sweep.Selection.RPS; rps != nil {
		fmt.Printf("SLO capacity %g req/s (%s)\n", *rps, sweep.Selection.Label)
	}
}
