package openai_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// A preflight before any load: the engine must list the model and answer
// one probe request.
func ExamplePreflight() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()

	probe := record.Request{ID: "p", Prompt: "Is the pager storm over?", MaxTokens: 4}
	client := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
		TotalTimeout: 10 * time.Second}
	rep, err := openai.Preflight(context.Background(), client, probe)
	fmt.Println(rep.ServedModels, rep.Probe.Status, err)

	client.Model = "Qwen/Qwen3-0.6B"
	_, err = openai.Preflight(context.Background(), client, probe)
	fmt.Println(err)
	// Output:
	// [simengine-tiny] success <nil>
	// model "Qwen/Qwen3-0.6B" is not served here; served: simengine-tiny
}

// Base URLs are checked before anything is sent; a password in the URL
// would be written into every output, so it is refused.
func ExampleValidateBaseURL() {
	for _, u := range []string{"http://127.0.0.1:8000", "http://127.0.0.1:8000/v1", "ftp://host/", "http://user:pw@host/", "http://host/?a=1"} {
		fmt.Println(openai.ValidateBaseURL(u) == nil)
	}
	// Output:
	// true
	// true
	// false
	// false
	// false
}

// A header value with a CR or LF would split the request.
func ExampleValidateHeader() {
	fmt.Println(openai.ValidateHeader("X-Gateway-Key", "k-123"))
	fmt.Println(openai.ValidateHeader("X-Gateway-Key", "k\r\nX-Evil: 1"))
	// Output:
	// <nil>
	// header "X-Gateway-Key": the value holds a control character (CR, LF or another) at byte 1
}

// PreflightRun checks the whole configuration first, as Run would.
func ExamplePreflightRun() {
	w, _ := schedule.ParseWorkload("chat.jsonl", []byte(`{"id":"c1","messages":[{"role":"user","content":"hi"}],"max_tokens":4}`))
	_, err := servebench.PreflightRun(context.Background(), servebench.RunConfig{
		Workload: w,
		Client:   &openai.Client{BaseURL: "http://127.0.0.1:1", Model: "m", Endpoint: record.EndpointCompletions},
	})
	fmt.Println(err)
	// Output:
	// run: chat.jsonl:1: prompt: the completions endpoint needs a prompt and row "c1" has only messages (use the chat endpoint)
}

// CheckServedModel asks GET /v1/models only: nothing is generated.
func ExampleCheckServedModel() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	client := &openai.Client{BaseURL: engine.BaseURL() + "/v1", Model: "Qwen/Qwen3-0.6B"}
	_, err = openai.CheckServedModel(context.Background(), client)
	fmt.Println(err)
	fmt.Println(engine.Stats().Submitted)
	// Output:
	// model "Qwen/Qwen3-0.6B" is not served here; served: simengine-tiny
	// 0
}
