package ab_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
)

// An A/B qualification: rounds of one baseline run and one candidate run
// of the same workload, arrival and seed, in ABBA order, compared into a
// verdict (compare.json, compare.txt and compare.html in the output directory). The two
// sides differ only in the engine. This example only compiles: it needs
// the two engines serving at the URLs.
func ExampleRun() {
	workload, err := servebench.LoadWorkload("workloads/chat.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	side := servebench.RunConfig{
		Workload: workload,
		Arrival:  servebench.Poisson(20, 1), // round K uses seed 1 + K - 1 on both sides
		Count:    400,
		Warmup:   10,
		Score:    servebench.Scoring{SLO: servebench.SLO{TTFT: time.Second}},
	}
	baseline, candidate := side, side
	baseline.Client = servebench.NewClient("http://baseline:8000", "qwen2.5-0.5b")
	candidate.Client = servebench.NewClient("http://candidate:8000", "qwen2.5-0.5b")
	result, err := ab.Run(context.Background(), ab.Config{
		// Rounds until decided (ab.RoundsAuto, the default): 4 rounds, then 2
		// more before each look, at most 20 a side.
		Baseline: baseline, Candidate: candidate, Rounds: ab.RoundsAuto, MaxRounds: 20, OutputDir: "runs/ab",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(result.Comparison.Verdict, result.Stopping.Describe())
}
