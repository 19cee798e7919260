package livemetrics_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// A suite reads the live series through the Observer seam: the same
// series --metrics-listen serves, without a server.
func ExampleMetrics() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","class":"chat","prompt":"Hello","max_tokens":4,"ignore_eos":true}`))
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20, Seed: 1})
	dir, _ := os.MkdirTemp("", "example-live-")
	defer os.RemoveAll(dir)

	m := livemetrics.New()
	_, err = servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 5, OutputDir: dir, Observer: m,
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fams, _ := m.Gather()
	for _, f := range fams {
		if f.GetName() == "servebench_requests_completed_total" {
			mm := f.GetMetric()[0]
			fmt.Println(mm.GetLabel()[0].GetValue(), mm.GetCounter().GetValue())
		}
	}
	// Output:
	// chat 5
}

// A run with an adapter mix labels its per-request series by adapter too.
func ExampleNewWithAdapters() {
	m := livemetrics.NewWithAdapters()
	m.DueAdapter("chat", "sql")
	fams, _ := m.Gather()
	for _, f := range fams {
		if f.GetName() == "servebench_requests_offered_total" {
			for _, l := range f.GetMetric()[0].GetLabel() {
				fmt.Printf("%s=%s ", l.GetName(), l.GetValue())
			}
			fmt.Println(f.GetMetric()[0].GetCounter().GetValue())
		}
	}
	// Output:
	// adapter=sql class=chat 1
}
