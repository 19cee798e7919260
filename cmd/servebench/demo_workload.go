package main

import (
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/schedule"
)

// demoWorkloadName is the bundled workload the demo replays: a mixed
// population of chat, retrieval and code requests with correlated lengths.
const demoWorkloadName = "mixed.jsonl"

// demoCapacity estimates the engine's saturated throughput for the
// workload's mean prompt and mean expected output (the natural length,
// capped by each row's max_tokens).
func demoCapacity(cfg simengine.Config, w *schedule.Workload) float64 {
	var prompt, output float64
	for _, r := range w.Requests {
		prompt += float64(simengine.CountTokens(r.Prompt))
		output += float64(min(r.MaxTokens, cfg.OutputMeanTokens))
	}
	n := float64(len(w.Requests))
	return cfg.ApproxCapacityRPS(int(prompt/n), int(output/n)+1)
}
