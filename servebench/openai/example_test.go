package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// An engine stand-in that streams a chat completion the way vLLM does: a
// role-only chunk, two content chunks, a finish chunk, the usage chunk and
// [DONE].
func exampleEngine() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
			`{"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`,
			`{"choices":[{"index":0,"delta":{"content":" world"},"finish_reason":null}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
			`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", data)
			http.NewResponseController(w).Flush()
		}
	}))
}

func ExampleClient_Do() {
	engine := exampleEngine()
	defer engine.Close()

	client := &openai.Client{
		BaseURL:           engine.URL,
		Model:             "my-model",
		Endpoint:          record.EndpointChat,
		FirstTokenTimeout: 10 * time.Second,
		IdleTimeout:       5 * time.Second,
		TotalTimeout:      time.Minute,
		KeepText:          true,
	}
	row := &record.Request{ID: "greeting", Messages: []record.Message{{Role: "user", Content: "Say hello"}}, MaxTokens: 16}

	start := time.Now() // the run's start instant
	out := &record.Outcome{ID: row.ID, Attempt: 1}
	client.Do(context.Background(), start, row, "run-0001/greeting/1", out)

	fmt.Println("status:", out.Status)
	fmt.Println("text:", *out.Text)
	fmt.Println("content events:", len(out.ContentMS))
	fmt.Println("output tokens:", *out.OutputTokens, "from", *out.TokenCountSource)
	fmt.Println("finish reason:", out.FinishReason)
	fmt.Println("TTFT measured:", *out.FirstContentMS >= *out.SentMS)
	// Output:
	// status: success
	// text: Hello world
	// content events: 2
	// output tokens: 2 from usage
	// finish reason: stop
	// TTFT measured: true
}

func ExampleLengthControlFor() {
	for _, engine := range []string{"vllm", "sglang", "llama.cpp", "ollama", "tgi"} {
		lc, _ := openai.LengthControlFor(engine)
		forced := &record.Request{MaxTokens: 256, IgnoreEOS: true}
		fmt.Printf("%-9s %-22s enforced=%v\n", engine, lc, *lc.Enforces(forced))
	}
	// Output:
	// vllm      ignore_eos+min_tokens  enforced=true
	// sglang    ignore_eos+min_tokens  enforced=true
	// llama.cpp ignore_eos             enforced=true
	// ollama    unsupported            enforced=false
	// tgi       unsupported            enforced=false
}
