package openai_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// msgWriter writes a Messages stream as Anthropic frames it: an event:
// line, then a data: line whose JSON repeats the type.
type msgWriter struct{ w *ssetest.Writer }

// send writes one event of type typ with fields.
func (m msgWriter) send(typ string, fields map[string]any) {
	ev := map[string]any{"type": typ}
	for k, v := range fields {
		ev[k] = v
	}
	if d, ok := fields["delta"].(map[string]any); ok && (d["type"] == "text_delta" || d["type"] == "input_json_delta") {
		m.w.NoteContent()
	}
	m.w.Raw("event: " + typ + "\ndata: " + ssetest.MustJSON(ev) + "\n\n")
}

// start writes message_start with usage.
func (m msgWriter) start(usage map[string]any) {
	m.w.StreamHeader()
	m.send("message_start", map[string]any{"message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
		"content": []any{}, "model": "test-model", "stop_reason": nil, "usage": usage}})
	m.send("ping", map[string]any{})
}

// block writes content_block_start for block at index.
func (m msgWriter) block(index int, block map[string]any) {
	m.send("content_block_start", map[string]any{"index": index, "content_block": block})
}

// delta writes one content_block_delta.
func (m msgWriter) delta(index int, delta map[string]any) {
	m.send("content_block_delta", map[string]any{"index": index, "delta": delta})
}

// end writes message_delta with stop_reason and usage, then message_stop.
func (m msgWriter) end(stopReason string, usage map[string]any) {
	m.send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stopReason, "stop_sequence": nil}, "usage": usage})
	m.send("message_stop", map[string]any{})
}

func messagesClient() *openai.Client {
	return &openai.Client{Model: "test-model", Endpoint: record.EndpointMessages, KeepText: true, APIKey: "sk-ant-secret"}
}

// Thinking is reasoning, not content: f is the first text delta. The
// request goes to /v1/messages with anthropic-version and x-api-key, its
// system message in system.
func TestMessagesStreamClocksRequestAndHeaders(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		m := msgWriter{w}
		m.start(map[string]any{"input_tokens": 9, "output_tokens": 1})
		m.block(0, map[string]any{"type": "thinking", "thinking": ""})
		w.Sleep(30 * time.Millisecond)
		m.delta(0, map[string]any{"type": "thinking_delta", "thinking": "hmm"})
		m.delta(0, map[string]any{"type": "signature_delta", "signature": "abc"})
		m.send("content_block_stop", map[string]any{"index": 0})
		m.block(1, map[string]any{"type": "text", "text": ""})
		w.Sleep(100 * time.Millisecond)
		m.delta(1, map[string]any{"type": "text_delta", "text": "Hello"})
		w.Sleep(50 * time.Millisecond)
		m.delta(1, map[string]any{"type": "text_delta", "text": " there"})
		m.send("content_block_stop", map[string]any{"index": 1})
		m.end("end_turn", map[string]any{"output_tokens": 4})
	})
	row := &record.Request{ID: "r1", Messages: []record.Message{
		{Role: "system", Content: "be brief"}, {Role: "user", Content: "hi"}, {Role: "assistant", Content: "yes?"}, {Role: "user", Content: "greet"}},
		MaxTokens: 16}
	out := sendRow(t, srv, messagesClient(), row)
	wantStatus(t, out, record.StatusSuccess)
	server := srv.ContentTimes()
	if len(out.ContentMS) != 2 || len(server) != 2 {
		t.Fatalf("content events %v, server wrote %v: want 2", out.ContentMS, server)
	}
	within(t, "first reasoning", *out.FirstReasoningMS, *out.SentMS+30)
	within(t, "TTFT", *out.FirstContentMS-*out.SentMS, 130)
	wantInt(t, "output tokens", out.OutputTokens, 4)
	wantInt(t, "prompt tokens", out.PromptTokens, 9)
	if out.FinishReason != "stop" || *out.Text != "Hello there" {
		t.Errorf("finish %q text %q", out.FinishReason, *out.Text)
	}
	want := `{"max_tokens":16,"messages":[{"content":"hi","role":"user"},{"content":"yes?","role":"assistant"},{"content":"greet","role":"user"}],"model":"test-model","stream":true,"system":"be brief"}`
	var body map[string]any
	if err := json.Unmarshal(srv.LastBody(), &body); err != nil {
		t.Fatal(err)
	}
	if got := ssetest.MustJSON(body); got != want {
		t.Errorf("body %s\nwant %s", got, want)
	}
	h := srv.LastHeader()
	if h.Get("X-Api-Key") != "sk-ant-secret" || h.Get("Anthropic-Version") != "2023-06-01" || h.Get("Authorization") != "" {
		t.Errorf("x-api-key %q, anthropic-version %q, authorization %q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"), h.Get("Authorization"))
	}
}

// An extra anthropic-version header pins another version; anthropic-beta
// passes through.
func TestMessagesExtraVersionHeaderWins(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		m := msgWriter{w}
		m.start(map[string]any{"input_tokens": 1})
		m.delta(0, map[string]any{"type": "text_delta", "text": "x"})
		m.end("end_turn", map[string]any{"output_tokens": 1})
	})
	c := messagesClient()
	c.Header = http.Header{"Anthropic-Version": {"2024-01-01"}, "Anthropic-Beta": {"tools-2024"}}
	out := sendRow(t, srv, c, &record.Request{ID: "r", Prompt: "p", MaxTokens: 1})
	wantStatus(t, out, record.StatusSuccess)
	if h := srv.LastHeader(); h.Get("Anthropic-Version") != "2024-01-01" || h.Get("Anthropic-Beta") != "tools-2024" {
		t.Errorf("anthropic-version %q, anthropic-beta %q", h.Get("Anthropic-Version"), h.Get("Anthropic-Beta"))
	}
}

// A prompt is one user message and the body has no system.
func TestMessagesPromptBody(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		m := msgWriter{w}
		m.start(map[string]any{"input_tokens": 1})
		m.delta(0, map[string]any{"type": "text_delta", "text": "x"})
		m.end("max_tokens", map[string]any{"output_tokens": 1})
	})
	out := sendRow(t, srv, messagesClient(), &record.Request{ID: "r", Prompt: "p", MaxTokens: 1})
	wantStatus(t, out, record.StatusSuccess)
	if out.FinishReason != "length" {
		t.Errorf("finish %q, want length", out.FinishReason)
	}
	if got := string(srv.LastBody()); got != `{"model":"test-model","messages":[{"role":"user","content":"p"}],"max_tokens":1,"stream":true}` {
		t.Errorf("body %s", got)
	}
}

// Anthropic's input_tokens leaves out the cache: the prompt is 5 + 100 +
// 20 = 125 tokens, 100 of them cached; message_delta's usage replaces
// message_start's fields it carries (input_tokens 5 over 3) and keeps the
// others.
func TestMessagesUsageAddsTheCacheBack(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		m := msgWriter{w}
		m.start(map[string]any{"input_tokens": 3, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20, "output_tokens": 1})
		m.block(0, map[string]any{"type": "text", "text": ""})
		m.delta(0, map[string]any{"type": "text_delta", "text": "ok"})
		m.end("end_turn", map[string]any{"input_tokens": 5, "output_tokens": 7})
	})
	out := sendRow(t, srv, messagesClient(), &record.Request{ID: "r", Prompt: "p", MaxTokens: 8})
	wantStatus(t, out, record.StatusSuccess)
	wantInt(t, "prompt tokens", out.PromptTokens, 125)
	wantInt(t, "cached tokens", out.CachedTokens, 100)
	wantInt(t, "output tokens", out.OutputTokens, 7)
	if *out.TokenCountSource != record.TokensFromUsage {
		t.Errorf("source %v", *out.TokenCountSource)
	}
}

// A tool_use block is a tool call: its name from content_block_start, its
// input the input_json_delta pieces; f is the first input piece, not the
// block's start.
func TestMessagesToolUse(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		m := msgWriter{w}
		m.start(map[string]any{"input_tokens": 4})
		m.block(0, map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{}})
		w.Sleep(80 * time.Millisecond)
		m.delta(0, map[string]any{"type": "input_json_delta", "partial_json": ""})
		m.delta(0, map[string]any{"type": "input_json_delta", "partial_json": `{"city":`})
		m.delta(0, map[string]any{"type": "input_json_delta", "partial_json": `"Paris"}`})
		m.send("content_block_stop", map[string]any{"index": 0})
		m.end("tool_use", map[string]any{"output_tokens": 6})
	})
	out := sendRow(t, srv, messagesClient(), &record.Request{ID: "r", Prompt: "p", MaxTokens: 8})
	wantStatus(t, out, record.StatusSuccess)
	if out.FinishReason != "tool_calls" || len(out.ToolCalls) != 1 {
		t.Fatalf("finish %q, tool calls %v", out.FinishReason, out.ToolCalls)
	}
	if tc := out.ToolCalls[0]; tc.Name != "get_weather" || tc.Arguments != `{"city":"Paris"}` {
		t.Errorf("tool call %+v", tc)
	}
	if len(out.ContentMS) != 2 {
		t.Errorf("content events %v, want the 2 non-empty input pieces", out.ContentMS)
	}
	within(t, "TTFT", *out.FirstContentMS-*out.SentMS, 80)
}

func TestMessagesStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script func(m msgWriter)
		want   string
	}{
		{"an error event", func(m msgWriter) {
			m.send("error", map[string]any{"error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
		}, "error event: Overloaded"},
		{"no message_stop", func(m msgWriter) {
			m.send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": 1}})
		}, "stream ended without a message_stop event"},
		{"an unreadable event", func(m msgWriter) { m.w.Raw("event: content_block_delta\ndata: {\"type\":\n\n") },
			"event 5 is not a readable Messages event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				m := msgWriter{w}
				m.start(map[string]any{"input_tokens": 1})
				m.block(0, map[string]any{"type": "text", "text": ""})
				m.delta(0, map[string]any{"type": "text_delta", "text": "Hi"})
				tc.script(m)
			})
			out := sendRow(t, srv, messagesClient(), &record.Request{ID: "r", Prompt: "x", MaxTokens: 1})
			wantStatus(t, out, record.StatusStreamError)
			wantContains(t, "error", out.Error, tc.want)
		})
	}
}

// An HTTP error in Anthropic's shape gives its message; the key never
// appears in the record.
func TestMessagesHTTPErrorBody(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.RW.Header().Set("Content-Type", "application/json")
		w.RW.WriteHeader(http.StatusBadRequest)
		w.Raw(`{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required (key sk-ant-secret)"}}`)
	})
	out := sendRow(t, srv, messagesClient(), &record.Request{ID: "r", Prompt: "x", MaxTokens: 1})
	wantStatus(t, out, record.StatusHTTPError)
	if out.Error != "HTTP 400: max_tokens: Field required (key [redacted])" {
		t.Errorf("error %q", out.Error)
	}
}

func TestMessagesNonStreaming(t *testing.T) {
	body := `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"All good."},{"type":"tool_use","id":"t","name":"f","input":{"a":1}}],"stop_reason":"tool_use","usage":{"input_tokens":2,"cache_read_input_tokens":8,"output_tokens":3}}`
	srv := ssetest.New(t, ssetest.JSONAnswer(20*time.Millisecond, body))
	c := messagesClient()
	c.NoStream = true
	out := sendRow(t, srv, c, &record.Request{ID: "r", Prompt: "x", MaxTokens: 8})
	wantStatus(t, out, record.StatusSuccess)
	if *out.Text != "All good." || len(out.ToolCalls) != 1 || out.ToolCalls[0].Arguments != `{"a":1}` || out.FinishReason != "tool_calls" {
		t.Errorf("text %q tool calls %v finish %q", *out.Text, out.ToolCalls, out.FinishReason)
	}
	wantInt(t, "prompt tokens", out.PromptTokens, 10)
	wantInt(t, "cached tokens", out.CachedTokens, 8)
	wantInt(t, "output tokens", out.OutputTokens, 3)
}

func TestMessagesRowsRefuseIgnoreEOS(t *testing.T) {
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"prompt":"p","max_tokens":4,"ignore_eos":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "w.jsonl:1: ignore_eos: the Messages API cannot force an output length"
	if err := openai.CheckWorkload(record.EndpointMessages, w); err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}

// x-api-key is the key's header: --header may not set it.
func TestXAPIKeyIsAReservedHeader(t *testing.T) {
	err := openai.ValidateExtraHeader("x-api-key", "k")
	want := `header "x-api-key": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env (Client.APIKey); the messages endpoint sends it so)`
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}
