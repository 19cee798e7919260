package openai_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/openai"
)

// Loading a LoRA adapter into a running engine, as --load-adapters does:
// the route follows the client's adapter form, and a second load of the
// same name is the engine's 400.
func ExampleClient_LoadAdapter() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()

	loads, err := openai.ParseAdapterLoads("sql=/models/sql")
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model}
	res, err := client.LoadAdapter(context.Background(), loads[0], time.Minute)
	fmt.Println(res.Route, res.Status, err)
	_, err = client.LoadAdapter(context.Background(), loads[0], time.Minute)
	fmt.Println(err)
	// Output:
	// /v1/load_lora_adapter 200 <nil>
	// load adapter "sql": POST /v1/load_lora_adapter: HTTP 400: The lora adapter 'sql' has already been loaded. If you want to load the adapter in place, set 'load_inplace' to True.
}
