package llmdreport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// A run that writes its llm-d Benchmark Report beside report.json.
func ExampleWriter() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"Hello","max_tokens":4,"ignore_eos":true}`))
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20, Seed: 1})
	dir, _ := os.MkdirTemp("", "example-llmd-")
	defer os.RemoveAll(dir)

	_, err = servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 4, OutputDir: dir,
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
		Artifacts: []servebench.ArtifactWriter{llmdreport.Writer{Format: llmdreport.JSON}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := os.ReadFile(filepath.Join(dir, llmdreport.FileJSON))
	var br llmdreport.Report
	_ = json.Unmarshal(data, &br)
	agg := br.Results.RequestPerformance.Aggregate
	fmt.Println(br.Version, agg.Requests.Total, agg.Requests.OutputLength.Mean, agg.Latency.TimeToFirstToken.Units)
	// Output:
	// 0.2.1 4 4 ms
}
