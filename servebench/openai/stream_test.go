package openai_test

import (
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

func chatClient() *openai.Client {
	return &openai.Client{Model: "test-model", Endpoint: record.EndpointChat}
}

func completionsClient() *openai.Client {
	return &openai.Client{Model: "test-model", Endpoint: record.EndpointCompletions}
}

func chatRow() *record.Request {
	return &record.Request{ID: "r1", Messages: []record.Message{{Role: "user", Content: "hi"}}, MaxTokens: 16}
}

func promptRow() *record.Request {
	return &record.Request{ID: "r1", Prompt: "Once upon a time", MaxTokens: 16}
}

func TestClientStreamRoleChunkThenContent(t *testing.T) {
	// vLLM-style: a role-only chunk at once, prefill of 150 ms, three
	// tokens 60 ms apart, a finish chunk, the usage chunk, [DONE].
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": ""}))
		w.Sleep(150 * time.Millisecond)
		w.Content(ssetest.ChatContent("Hello"))
		w.Sleep(60 * time.Millisecond)
		w.Content(ssetest.ChatContent(","))
		w.Sleep(60 * time.Millisecond)
		w.Content(ssetest.ChatContent(" world"))
		w.Event(ssetest.ChatFinish("length"))
		w.Event(ssetest.UsageChunk(9, 3))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusSuccess)
	server := srv.ContentTimes()
	if len(out.ContentMS) != 3 {
		t.Fatalf("content times %v, want 3", out.ContentMS)
	}
	for i := range server {
		within(t, "content event time vs server write", out.ContentMS[i], server[i])
	}
	within(t, "TTFT (f - d)", *out.FirstContentMS-*out.SentMS, 150)
	near(t, "first chunk gap", out.ContentMS[1]-out.ContentMS[0], 60)
	near(t, "second chunk gap", out.ContentMS[2]-out.ContentMS[1], 60)
	within(t, "terminal after last content", out.TerminalMS, *out.LastContentMS)
	wantInt(t, "output tokens", out.OutputTokens, 3)
	wantInt(t, "prompt tokens", out.PromptTokens, 9)
	if out.TokenCountSource == nil || *out.TokenCountSource != record.TokensFromUsage {
		t.Errorf("token source %v, want usage", show(out.TokenCountSource))
	}
	wantInt(t, "HTTP status", out.HTTPStatus, 200)
	if out.FinishReason != "length" {
		t.Errorf("finish reason %q, want length", out.FinishReason)
	}
	if out.EventTokens != nil {
		t.Errorf("event tokens %v without logprobs, want nil", out.EventTokens)
	}
	wantNil(t, "text (not kept)", out.Text)
	wantNil(t, "first reasoning", out.FirstReasoningMS)
	wantNil(t, "timeout", out.Timeout)
	if out.SlotMS == nil || out.ID != "r1" || out.Attempt != 1 {
		t.Errorf("Do changed the caller's fields: %+v", out)
	}
}

func TestClientStreamSplitByteByByteWithCRLFAndKeepalives(t *testing.T) {
	// Every byte is its own write and flush (its own HTTP chunk), lines end
	// in CRLF, and keepalive comments come before and between events.
	stream := ": keepalive\r\n\r\n" +
		"data: " + ssetest.ChatDelta(map[string]any{"role": "assistant"}) + "\r\n\r\n" +
		": keepalive\r\n" +
		"data: " + ssetest.ChatContent("héllo") + "\r\n\r\n" +
		": ping\r\n\r\n" +
		"data: " + ssetest.ChatContent(" ✓") + "\r\n\r\n" +
		"data: " + ssetest.UsageChunk(4, 2) + "\r\n\r\n" +
		"data: [DONE]\r\n\r\n"
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		for i := 0; i < len(stream); i++ {
			w.Raw(stream[i : i+1])
		}
	})
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if out.Text == nil || *out.Text != "héllo ✓" {
		t.Errorf("text %v, want %q", show(out.Text), "héllo ✓")
	}
	if len(out.ContentMS) != 2 {
		t.Errorf("content times %v, want 2 (comments and the role chunk are not content)", out.ContentMS)
	}
	wantInt(t, "output tokens", out.OutputTokens, 2)
}

func TestClientStreamEmptyFirstChunkIsNotContent(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.TextChunk("", nil, nil))
		w.Raw(": keepalive\n\n")
		w.Sleep(120 * time.Millisecond)
		w.Content(ssetest.TextChunk(" one", nil, nil))
		w.Event(ssetest.TextChunk("", nil, "stop"))
		w.Event(ssetest.UsageChunk(5, 1))
		w.Done()
	})
	out := sendRow(t, srv, completionsClient(), promptRow())
	wantStatus(t, out, record.StatusSuccess)
	within(t, "first content vs server", *out.FirstContentMS, srv.ContentTimes()[0])
	within(t, "TTFT", *out.FirstContentMS-*out.SentMS, 120)
	if len(out.ContentMS) != 1 || out.FinishReason != "stop" {
		t.Errorf("content %v finish %q, want one event and stop", out.ContentMS, out.FinishReason)
	}
}

func TestClientStreamMultiTokenChunksWithLogprobs(t *testing.T) {
	// A speculative engine sends 1, 3 and 2 tokens per event. Logprobs
	// prove the per-event counts; the delays are not split.
	script := func(withUsage bool) func(w *ssetest.Writer) {
		return func(w *ssetest.Writer) {
			w.StreamHeader()
			w.Content(ssetest.TextChunk(" a", []string{" a"}, nil))
			w.Sleep(50 * time.Millisecond)
			w.Content(ssetest.TextChunk(" b c d", []string{" b", " c", " d"}, nil))
			w.Sleep(50 * time.Millisecond)
			w.Content(ssetest.TextChunk(" e f", []string{" e", " f"}, "length"))
			if withUsage {
				w.Event(ssetest.UsageChunk(3, 6))
			}
			w.Done()
		}
	}
	c := completionsClient()
	c.Logprobs = true
	out := sendRow(t, ssetest.New(t, script(true)), c, promptRow())
	wantStatus(t, out, record.StatusSuccess)
	if got := out.EventTokens; len(got) != 3 || got[0] != 1 || got[1] != 3 || got[2] != 2 {
		t.Errorf("event tokens %v, want [1 3 2]", got)
	}
	wantInt(t, "output tokens", out.OutputTokens, 6)
	if *out.TokenCountSource != record.TokensFromUsage {
		t.Errorf("source %s, want usage", *out.TokenCountSource)
	}
	if len(out.ContentMS) != 3 {
		t.Errorf("content times %v: a multi-token chunk is one event", out.ContentMS)
	}

	out = sendRow(t, ssetest.New(t, script(false)), c, promptRow())
	wantStatus(t, out, record.StatusSuccess)
	wantInt(t, "output tokens counted from logprobs", out.OutputTokens, 6)
	if out.TokenCountSource == nil || *out.TokenCountSource != record.TokensFromLogprobs {
		t.Errorf("source %v, want logprobs", show(out.TokenCountSource))
	}
	wantNil(t, "prompt tokens without usage", out.PromptTokens)
}

func TestClientStreamMultiTokenChunksWithoutLogprobs(t *testing.T) {
	// Without logprobs the per-event counts are unknown: EventTokens stays
	// nil even though usage gives the total.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.TextChunk(" a", nil, nil))
		w.Content(ssetest.TextChunk(" b c d", nil, "length"))
		w.Event(ssetest.UsageChunk(3, 4))
		w.Done()
	})
	out := sendRow(t, srv, completionsClient(), promptRow())
	wantStatus(t, out, record.StatusSuccess)
	if out.EventTokens != nil {
		t.Errorf("event tokens %v, want nil", out.EventTokens)
	}
	wantInt(t, "output tokens", out.OutputTokens, 4)
}

func TestClientStreamLogprobsOnSomeEventsOnly(t *testing.T) {
	// One content event lacks logprobs: neither EventTokens nor a logprob
	// count may be claimed.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.TextChunk(" a", []string{" a"}, nil))
		w.Content(ssetest.TextChunk(" b", nil, "length"))
		w.Done()
	})
	c := completionsClient()
	c.Logprobs = true
	out := sendRow(t, srv, c, promptRow())
	wantStatus(t, out, record.StatusSuccess)
	if out.EventTokens != nil {
		t.Errorf("event tokens %v, want nil", out.EventTokens)
	}
	wantNil(t, "output tokens", out.OutputTokens)
	wantNil(t, "token source", out.TokenCountSource)
}

func TestClientStreamMissingUsage(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("Hello"))
		w.Content(ssetest.ChatContent(" there, friend"))
		w.Event(ssetest.ChatFinish("stop"))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusSuccess)
	wantNil(t, "output tokens without usage or logprobs", out.OutputTokens)
	wantNil(t, "token source", out.TokenCountSource)

	// With an estimate allowed: 2 events, 5 + 14 = 19 bytes, ceil(19/4) =
	// 5, and max(2, 5) = 5, labelled as an estimate.
	c := chatClient()
	c.EstimateTokens = true
	out = sendRow(t, srv, c, chatRow())
	wantInt(t, "estimated output tokens", out.OutputTokens, 5)
	if out.TokenCountSource == nil || *out.TokenCountSource != record.TokensEstimated {
		t.Errorf("source %v, want estimate", show(out.TokenCountSource))
	}
}

func TestClientStreamOllamaZeroUsageOnEveryChunk(t *testing.T) {
	// Ollama's /v1/completions with include_usage puts a zero usage on every
	// chunk, then sends the real one on a chunk with empty choices.
	zero := map[string]any{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
	ollamaChunk := func(text string, finish any) string {
		return ssetest.MustJSON(map[string]any{"id": "cmpl-1", "object": "text_completion", "model": "tiny",
			"choices": []any{map[string]any{"text": text, "index": 0, "finish_reason": finish}}, "usage": zero})
	}
	script := func(final bool) func(w *ssetest.Writer) {
		return func(w *ssetest.Writer) {
			w.StreamHeader()
			w.Content(ollamaChunk(" the", nil))
			w.Content(ollamaChunk(" cat", nil))
			w.Content(ollamaChunk(" sat", nil))
			w.Event(ollamaChunk("", "length"))
			if final {
				w.Event(ssetest.MustJSON(map[string]any{"id": "cmpl-1", "object": "text_completion", "choices": []any{},
					"usage": map[string]any{"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}}))
			}
			w.Done()
		}
	}
	out := sendRow(t, ssetest.New(t, script(true)), completionsClient(), promptRow())
	wantStatus(t, out, record.StatusSuccess)
	wantInt(t, "output tokens", out.OutputTokens, 3)
	wantInt(t, "prompt tokens", out.PromptTokens, 12)

	// Without the final chunk the zeros must not become a count of 0.
	out = sendRow(t, ssetest.New(t, script(false)), completionsClient(), promptRow())
	wantStatus(t, out, record.StatusSuccess)
	wantNil(t, "output tokens from zero usages", out.OutputTokens)
	wantNil(t, "prompt tokens from zero usages", out.PromptTokens)
}

func TestClientStreamContinuousUsageFallback(t *testing.T) {
	// Usage on every chunk (cumulative) and no choices-empty chunk: the
	// last usage with completion_tokens > 0 is taken.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		for i, tok := range []string{" x", " y", " z"} {
			w.Content(ssetest.MustJSON(map[string]any{"choices": []any{map[string]any{"index": 0, "text": tok}},
				"usage": map[string]any{"prompt_tokens": 7, "completion_tokens": i + 1}}))
		}
		w.Done()
	})
	out := sendRow(t, srv, completionsClient(), promptRow())
	wantInt(t, "output tokens", out.OutputTokens, 3)
	wantInt(t, "prompt tokens", out.PromptTokens, 7)
}

func TestClientStreamReasoningThenContent(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": ""}))
		w.Sleep(50 * time.Millisecond)
		w.Event(ssetest.ChatDelta(map[string]any{"reasoning_content": "Let me think"}))
		w.Sleep(50 * time.Millisecond)
		w.Event(ssetest.ChatDelta(map[string]any{"reasoning": " more"}))
		w.Sleep(100 * time.Millisecond)
		w.Content(ssetest.ChatContent("42"))
		w.Event(ssetest.ChatFinish("stop"))
		w.Event(ssetest.MustJSON(map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 5, "completion_tokens": 4,
			"completion_tokens_details": map[string]any{"reasoning_tokens": 3}}}))
		w.Done()
	})
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if out.FirstReasoningMS == nil {
		t.Fatal("first reasoning not recorded")
	}
	within(t, "first reasoning after send", *out.FirstReasoningMS-*out.SentMS, 50)
	within(t, "TTFT counts visible content only", *out.FirstContentMS-*out.SentMS, 200)
	within(t, "first content vs server", *out.FirstContentMS, srv.ContentTimes()[0])
	if len(out.ContentMS) != 1 || *out.Text != "42" {
		t.Errorf("content %v text %q: reasoning must not be content", out.ContentMS, *out.Text)
	}
	wantInt(t, "reasoning tokens", out.ReasoningTokens, 3)
	wantInt(t, "output tokens", out.OutputTokens, 4)
}

func TestClientStreamReasoningOnlyIsEmptyOutput(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"reasoning_content": "thinking until the cap"}))
		w.Event(ssetest.ChatFinish("length"))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusEmptyOutput)
	if out.FirstReasoningMS == nil || out.FirstContentMS != nil {
		t.Errorf("first reasoning %v, first content %v", show(out.FirstReasoningMS), show(out.FirstContentMS))
	}
}

func TestClientStreamToolCallsInPieces(t *testing.T) {
	call := func(index int, id, name, args string) string {
		tc := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
		if id != "" {
			tc["id"], tc["type"] = id, "function"
			tc["function"].(map[string]any)["name"] = name
		}
		return ssetest.ChatDelta(map[string]any{"tool_calls": []any{tc}})
	}
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": nil}))
		w.Sleep(80 * time.Millisecond)
		w.Content(call(0, "call_1", "get_weather", ""))
		w.Content(call(0, "", "", `{"ci`))
		w.Content(call(0, "", "", `ty": "Par`))
		w.Content(call(0, "", "", `is"}`))
		w.Content(call(1, "call_2", "get_time", `{"tz": "CET"}`))
		w.Event(ssetest.ChatFinish("tool_calls"))
		w.Event(ssetest.UsageChunk(20, 18))
		w.Done()
	})
	row := chatRow()
	row.Expect = &record.Expectation{FinishReason: ptrTo("tool_calls")} // an expectation keeps the output
	out := sendRow(t, srv, chatClient(), row)
	wantStatus(t, out, record.StatusSuccess)
	want := []record.ToolCall{{Name: "get_weather", Arguments: `{"city": "Paris"}`}, {Name: "get_time", Arguments: `{"tz": "CET"}`}}
	if len(out.ToolCalls) != 2 || out.ToolCalls[0] != want[0] || out.ToolCalls[1] != want[1] {
		t.Errorf("tool calls %+v, want %+v", out.ToolCalls, want)
	}
	if out.Text == nil || *out.Text != "" {
		t.Errorf("text %v, want kept and empty", show(out.Text))
	}
	if len(out.ContentMS) != 5 {
		t.Errorf("content times %v, want one per tool-call piece (5)", out.ContentMS)
	}
	within(t, "TTFT of a tool call", *out.FirstContentMS-*out.SentMS, 80)
	if out.FinishReason != "tool_calls" {
		t.Errorf("finish reason %q", out.FinishReason)
	}
}

func TestClientStreamEmptyOutput(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": ""}))
		w.Raw(": keepalive\n\n")
		w.Event(ssetest.ChatFinish("stop"))
		w.Event(ssetest.UsageChunk(5, 1))
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusEmptyOutput)
	wantContains(t, "error", out.Error, "no visible text")
	wantInt(t, "output tokens", out.OutputTokens, 1)
	if out.ContentMS != nil {
		t.Errorf("content times %v, want none", out.ContentMS)
	}
}

func TestClientStreamExtraFieldsAndBlankData(t *testing.T) {
	// Unknown fields, an "event: message" type, an id field, an empty data
	// event and a choice with another index are all tolerated; only index 0
	// is read.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Raw("id: 1\nevent: message\ndata: " + ssetest.ChatContent("A") + "\n\n")
		w.Raw("data:\n\n")
		w.Raw("data: " + ssetest.MustJSON(map[string]any{"choices": []any{map[string]any{"index": 1, "delta": map[string]any{"content": "other"}}},
			"system_fingerprint": "fp", "service_tier": nil}) + "\n\n")
		w.Raw("retry: 1000\ndata: " + ssetest.ChatContent("B") + "\n\n")
		w.Done()
	})
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if *out.Text != "AB" || len(out.ContentMS) != 2 {
		t.Errorf("text %q content %v, want AB in 2 events", *out.Text, out.ContentMS)
	}
}

func TestClientStreamLongEvent(t *testing.T) {
	// One event far longer than a read buffer (a whole answer in a chunk).
	long := strings.Repeat("abcdefghij", 20000)
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent(long))
		w.Done()
	})
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if len(*out.Text) != len(long) {
		t.Errorf("text of %d bytes, want %d", len(*out.Text), len(long))
	}
}
