package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// The simulated engine serves every pooling route, and each answer costs
// at least the prefill of all its tokens: E2E is never below
// PrefillTime(tokens), whatever the machine's load (a lower bound).
func TestSimengineServesThePoolingAPIs(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.PrefillPerToken = 2 * time.Millisecond
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }
	for _, tc := range []struct {
		endpoint record.Endpoint
		row      string
		items    int
		tokens   int // the query read with each document, for ranking
	}{
		{record.EndpointEmbeddings, `{"input":["` + words(10) + `","` + words(10) + `","` + words(10) + `","` + words(10) + `"]}`, 4, 40},
		{record.EndpointRerank, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"],"top_n":1}`, 2, 5 + 10 + 5 + 20},
		{record.EndpointRerankTEI, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"]}`, 2, 40},
		{record.EndpointPairScore, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"]}`, 2, 40},
	} {
		t.Run(string(tc.endpoint), func(t *testing.T) {
			c := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: tc.endpoint,
				TotalTimeout: 10 * time.Second}
			out := &record.Outcome{ID: "r", Attempt: 1}
			start := time.Now()
			c.Do(context.Background(), start, parseRow(t, tc.row), "run/r/1", out)
			wantStatus(t, out, record.StatusSuccess)
			wantInt(t, "items", out.Items, tc.items)
			if tc.endpoint == record.EndpointRerankTEI {
				wantNil(t, "prompt tokens (TEI's bare list has no usage)", out.PromptTokens)
			} else {
				wantInt(t, "prompt tokens", out.PromptTokens, tc.tokens)
			}
			within(t, "E2E vs the prefill of every token", out.TerminalMS-*out.SentMS, record.Millis(cfg.PrefillTime(tc.tokens)))
		})
	}
}

// The simulated engine streams the Responses API's typed events, in
// sequence, with usage in the terminal event; a capped answer ends with
// response.incomplete for max_output_tokens, a length finish.
func TestSimengineServesTheResponsesAPI(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	for _, stream := range []bool{true, false} {
		c := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointResponses,
			NoStream:     !stream,
			TotalTimeout: 10 * time.Second, KeepText: true}
		row := &record.Request{ID: "r", Messages: []record.Message{{Role: "user", Content: "hello there"}, {Role: "assistant", Content: "yes"}, {Role: "user", Content: "go on"}},
			MaxTokens: 12, IgnoreEOS: false, Extra: map[string]json.RawMessage{"sim_response": json.RawMessage(`"one two three four five six seven eight nine ten eleven twelve thirteen"`)}}
		out := &record.Outcome{ID: "r", Attempt: 1}
		c.Do(context.Background(), time.Now(), row, "run/r/1", out)
		wantStatus(t, out, record.StatusSuccess)
		wantInt(t, "output tokens", out.OutputTokens, 12)
		if out.FinishReason != "length" || out.PromptTokens == nil || *out.PromptTokens == 0 {
			t.Errorf("stream %v: finish %q, prompt tokens %v", stream, out.FinishReason, show(out.PromptTokens))
		}
		if stream && len(out.ContentMS) < 2 {
			t.Errorf("%d content events for 12 streamed tokens", len(out.ContentMS))
		}
		if !strings.HasPrefix(*out.Text, "one two three") {
			t.Errorf("text %q", *out.Text)
		}
	}
}

// The simulated engine serves the Messages API: Anthropic's events with
// usage in message_delta, a capped answer ending with stop_reason
// max_tokens (a length finish), and a tool_use block for a request with
// tools.
func TestSimengineServesTheMessagesAPI(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	for _, stream := range []bool{true, false} {
		c := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointMessages,
			NoStream: !stream, TotalTimeout: 10 * time.Second, KeepText: true}
		row := &record.Request{ID: "r", Messages: []record.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "hello there"}},
			MaxTokens: 12, Extra: map[string]json.RawMessage{"sim_response": json.RawMessage(`"one two three four five six seven eight nine ten eleven twelve thirteen"`)}}
		out := &record.Outcome{ID: "r", Attempt: 1}
		c.Do(context.Background(), time.Now(), row, "run/r/1", out)
		wantStatus(t, out, record.StatusSuccess)
		wantInt(t, "output tokens", out.OutputTokens, 12)
		if out.FinishReason != "length" || out.PromptTokens == nil || *out.PromptTokens == 0 {
			t.Errorf("stream %v: finish %q, prompt tokens %v", stream, out.FinishReason, show(out.PromptTokens))
		}
		if stream && len(out.ContentMS) < 2 {
			t.Errorf("%d content events for 12 streamed tokens", len(out.ContentMS))
		}
		if !strings.HasPrefix(*out.Text, "one two three") {
			t.Errorf("text %q", *out.Text)
		}

		tools := &record.Request{ID: "t", Prompt: "weather?", MaxTokens: 64, Extra: map[string]json.RawMessage{
			"tools": json.RawMessage(`[{"name":"get_weather","description":"d","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]`)}}
		out = &record.Outcome{ID: "t", Attempt: 1}
		c.Do(context.Background(), time.Now(), tools, "run/t/1", out)
		wantStatus(t, out, record.StatusSuccess)
		if out.FinishReason != "tool_calls" || len(out.ToolCalls) != 1 || out.ToolCalls[0].Name != "get_weather" ||
			!strings.HasPrefix(out.ToolCalls[0].Arguments, `{"city":`) {
			t.Errorf("stream %v: finish %q, tool calls %+v", stream, out.FinishReason, out.ToolCalls)
		}
	}
}

// The simulated engine answers a Messages error in Anthropic's shape.
func TestSimengineMessagesErrorShape(t *testing.T) {
	cfg := simengine.DefaultConfig()
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	c := &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointMessages, TotalTimeout: 10 * time.Second}
	row := &record.Request{ID: "r", Prompt: "p", MaxTokens: 4, Extra: map[string]json.RawMessage{"sim_fault": json.RawMessage(`"http_error"`)}}
	out := &record.Outcome{ID: "r", Attempt: 1}
	c.Do(context.Background(), time.Now(), row, "run/r/1", out)
	wantStatus(t, out, record.StatusHTTPError)
	if out.Error != "HTTP 500: simulated internal error (http_error fault)" {
		t.Errorf("error %q", out.Error)
	}
}
