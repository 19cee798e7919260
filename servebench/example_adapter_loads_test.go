package servebench_test

import (
	"context"
	"fmt"
	"os"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
)

// Loading the adapters before the preflight, so that it finds them, then
// running: the report carries each load.
func ExampleLoadAdapters() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"prompt":"Hello","max_tokens":4}`))
	mix, _ := schedule.ParseAdapterMix("sql=1,base=1")
	dir, _ := os.MkdirTemp("", "example-loads-")
	defer os.RemoveAll(dir)

	run := servebench.RunConfig{Workload: w, Arrival: servebench.Constant(20), Count: 4, OutputDir: dir,
		LoRA:   servebench.LoRAConfig{Mix: mix, Load: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}},
		Client: servebench.NewClient(engine.BaseURL(), cfg.Model)}
	ctx := context.Background()
	if run.LoRA.Loaded, err = servebench.LoadAdapters(ctx, run); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := servebench.PreflightRun(ctx, run); err != nil {
		fmt.Println(err)
		return
	}
	res, err := servebench.Run(ctx, run)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range res.Report.AdapterLoads {
		fmt.Println(l.Adapter, l.Path, l.Route, l.Status)
	}
	// Output:
	// sql /models/sql /v1/load_lora_adapter 200
}
