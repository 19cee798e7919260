package openai_test

import (
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

func TestClientNonStreamingCompletions(t *testing.T) {
	body := ssetest.MustJSON(map[string]any{"id": "cmpl-1", "object": "text_completion", "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "text": " there was a cat", "logprobs": nil, "finish_reason": "length"}},
		"usage":   map[string]any{"prompt_tokens": 4, "completion_tokens": 4, "total_tokens": 8}})
	srv := ssetest.New(t, ssetest.JSONAnswer(120*time.Millisecond, body))
	c := completionsClient()
	c.NoStream = true
	c.KeepText = true
	out := sendRow(t, srv, c, promptRow())
	wantStatus(t, out, record.StatusSuccess)
	// The whole body is one content event: f = l = e, so TTFT = E2E.
	if *out.FirstContentMS != *out.LastContentMS || *out.FirstContentMS != out.TerminalMS || len(out.ContentMS) != 1 {
		t.Errorf("first %v last %v terminal %v content %v: want one event at the body's arrival",
			*out.FirstContentMS, *out.LastContentMS, out.TerminalMS, out.ContentMS)
	}
	within(t, "body arrival vs server write", *out.FirstContentMS, srv.ContentTimes()[0])
	within(t, "TTFT = E2E", out.TerminalMS-*out.SentMS, 120)
	wantInt(t, "output tokens", out.OutputTokens, 4)
	wantInt(t, "prompt tokens", out.PromptTokens, 4)
	if *out.Text != " there was a cat" || out.FinishReason != "length" {
		t.Errorf("text %q finish %q", *out.Text, out.FinishReason)
	}
	if string(srv.LastBody()) != `{"model":"test-model","prompt":"Once upon a time","max_tokens":16,"stream":false}` {
		t.Errorf("body %s", srv.LastBody())
	}
}

func TestClientNonStreamingChat(t *testing.T) {
	body := ssetest.MustJSON(map[string]any{"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "logprobs": map[string]any{"content": []any{
			map[string]any{"token": "a", "logprob": -0.1, "top_logprobs": []any{}},
			map[string]any{"token": "b", "logprob": -0.2, "top_logprobs": []any{}},
		}}, "message": map[string]any{
			"role": "assistant", "content": "Checking.", "reasoning_content": "The user wants weather.",
			"tool_calls": []any{
				map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city":"Oslo"}`}},
				map[string]any{"id": "c2", "type": "function", "function": map[string]any{"name": "get_time", "arguments": `{}`}},
			}}}},
		"usage": map[string]any{"prompt_tokens": 30, "completion_tokens": 25, "completion_tokens_details": map[string]any{"reasoning_tokens": 6}}})
	srv := ssetest.New(t, ssetest.JSONAnswer(80*time.Millisecond, body))
	c := chatClient()
	c.NoStream = true
	row := chatRow()
	row.Expect = &record.Expectation{FinishReason: ptrTo("tool_calls")}
	out := sendRow(t, srv, c, row)
	wantStatus(t, out, record.StatusSuccess)
	within(t, "TTFT = E2E", out.TerminalMS-*out.SentMS, 80)
	if *out.Text != "Checking." {
		t.Errorf("text %q", *out.Text)
	}
	want := []record.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}, {Name: "get_time", Arguments: `{}`}}
	if len(out.ToolCalls) != 2 || out.ToolCalls[0] != want[0] || out.ToolCalls[1] != want[1] {
		t.Errorf("tool calls %+v, want %+v (listed calls are not merged)", out.ToolCalls, want)
	}
	if out.FirstReasoningMS == nil || *out.FirstReasoningMS != *out.FirstContentMS {
		t.Errorf("first reasoning %v, want the body's arrival", show(out.FirstReasoningMS))
	}
	wantInt(t, "output tokens", out.OutputTokens, 25)
	wantInt(t, "reasoning tokens", out.ReasoningTokens, 6)
	if len(out.EventTokens) != 1 || out.EventTokens[0] != 2 {
		t.Errorf("event tokens %v, want [2] (the logprob entries of the one event)", out.EventTokens)
	}
}

func TestClientNonStreamingErrorsAndEmpty(t *testing.T) {
	cases := []struct {
		name, body string
		status     record.Status
		want       string
	}{
		{"error in a 200 body", `{"error":{"message":"generation failed"}}`, record.StatusStreamError, "generation failed"},
		{"not JSON", `<html>gateway</html>`, record.StatusStreamError, "not a readable completion"},
		{"empty text", `{"choices":[{"index":0,"text":"","finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`, record.StatusEmptyOutput, "no visible text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := ssetest.New(t, ssetest.JSONAnswer(0, c.body))
			cl := completionsClient()
			cl.NoStream = true
			out := sendRow(t, srv, cl, promptRow())
			wantStatus(t, out, c.status)
			wantContains(t, "error", out.Error, c.want)
		})
	}
}

func TestClientNonStreamingFirstTokenTimeoutCoversTheBody(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(2*time.Second, `{"choices":[{"index":0,"text":"late"}]}`))
	c := completionsClient()
	c.NoStream = true
	c.FirstTokenTimeout = 150 * time.Millisecond
	out := sendRow(t, srv, c, promptRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutFirstToken {
		t.Errorf("timeout %s", *out.Timeout)
	}
	within(t, "terminal - sent", out.TerminalMS-*out.SentMS, 150)
}
