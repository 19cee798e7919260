package openai_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// respWriter writes a Responses stream: typed events numbered from 0.
type respWriter struct {
	w   *ssetest.Writer
	seq int
}

// send writes one typed event with the next sequence_number and fields.
func (r *respWriter) send(typ string, fields map[string]any) {
	ev := map[string]any{"type": typ, "sequence_number": r.seq}
	for k, v := range fields {
		ev[k] = v
	}
	r.seq++
	if typ == "response.output_text.delta" && fields["delta"] != "" {
		r.w.NoteContent()
	}
	r.w.Raw("event: " + typ + "\ndata: " + ssetest.MustJSON(ev) + "\n\n")
}

// opening writes the events before the first delta.
func (r *respWriter) opening() {
	r.w.StreamHeader()
	r.send("response.created", map[string]any{"response": map[string]any{"status": "in_progress"}})
	r.send("response.in_progress", map[string]any{"response": map[string]any{"status": "in_progress"}})
	r.send("response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"type": "message"}})
	r.send("response.content_part.added", map[string]any{"output_index": 0, "content_index": 0})
}

// terminal writes a terminal event with status and usage.
func (r *respWriter) terminal(typ, status string, extra map[string]any) {
	resp := map[string]any{"status": status, "usage": map[string]any{
		"input_tokens": 7, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 3, "output_tokens_details": map[string]any{"reasoning_tokens": 2}, "total_tokens": 10}}
	for k, v := range extra {
		resp[k] = v
	}
	r.send(typ, map[string]any{"response": resp})
}

func responsesClient() *openai.Client {
	return &openai.Client{Model: "test-model", Endpoint: record.EndpointResponses, KeepText: true}
}

func TestResponsesStreamClocksAndUsage(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		r := &respWriter{w: w}
		r.opening()
		w.Sleep(30 * time.Millisecond)
		r.send("response.reasoning_text.delta", map[string]any{"delta": "think"})
		w.Sleep(100 * time.Millisecond)
		r.send("response.output_text.delta", map[string]any{"delta": ""}) // empty: not content
		r.send("response.output_text.delta", map[string]any{"delta": "Hello"})
		w.Sleep(50 * time.Millisecond)
		r.send("response.output_text.delta", map[string]any{"delta": " there"})
		w.Sleep(50 * time.Millisecond)
		r.send("response.output_text.delta", map[string]any{"delta": "!"})
		r.send("response.output_text.done", map[string]any{"text": "Hello there!"})
		r.terminal("response.completed", "completed", nil)
	})
	row := &record.Request{ID: "r1", Messages: []record.Message{
		{Role: "system", Content: "be brief"}, {Role: "user", Content: "hi"}, {Role: "assistant", Content: "yes?"}, {Role: "user", Content: "greet"}},
		MaxTokens: 16}
	out := sendRow(t, srv, responsesClient(), row)
	wantStatus(t, out, record.StatusSuccess)
	server := srv.ContentTimes()
	if len(out.ContentMS) != 3 || len(server) != 3 {
		t.Fatalf("content events %v, server wrote %v: want 3", out.ContentMS, server)
	}
	for i := range server {
		within(t, "content event vs server write", out.ContentMS[i], server[i])
	}
	// Reasoning is not content: f is the first text delta, at least 130
	// ms after the reasoning delta's 30.
	within(t, "first reasoning", *out.FirstReasoningMS, *out.SentMS+30)
	within(t, "TTFT", *out.FirstContentMS-*out.SentMS, 130)
	wantInt(t, "output tokens", out.OutputTokens, 3)
	wantInt(t, "prompt tokens", out.PromptTokens, 7)
	wantInt(t, "reasoning tokens", out.ReasoningTokens, 2)
	if *out.TokenCountSource != record.TokensFromUsage || out.FinishReason != "stop" || *out.Text != "Hello there!" {
		t.Errorf("source %v finish %q text %q", *out.TokenCountSource, out.FinishReason, *out.Text)
	}
	var body map[string]any
	if err := json.Unmarshal(srv.LastBody(), &body); err != nil {
		t.Fatal(err)
	}
	// Stateless: every earlier turn is an input item, and store is false.
	want := `{"input":[{"content":"be brief","role":"system","type":"message"},{"content":"hi","role":"user","type":"message"},{"content":"yes?","role":"assistant","type":"message"},{"content":"greet","role":"user","type":"message"}],"max_output_tokens":16,"model":"test-model","store":false,"stream":true}`
	if got := ssetest.MustJSON(body); got != want {
		t.Errorf("body %s\nwant %s", got, want)
	}
}

// Logprobs on every delta, one entry each, prove one token per event, as
// for chat: the record keeps the per-event counts that ITL needs.
func TestResponsesLogprobsProveTokens(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		r := &respWriter{w: w}
		r.opening()
		for _, d := range []string{"a", "b", "c"} {
			r.send("response.output_text.delta", map[string]any{"delta": d, "logprobs": []any{map[string]any{"token": d, "logprob": -0.1}}})
		}
		r.terminal("response.completed", "completed", nil)
	})
	out := sendRow(t, srv, responsesClient(), &record.Request{ID: "r", Prompt: "x", MaxTokens: 3})
	wantStatus(t, out, record.StatusSuccess)
	if len(out.EventTokens) != 3 || out.EventTokens[0] != 1 || out.EventTokens[2] != 1 {
		t.Errorf("event tokens %v, want [1 1 1]", out.EventTokens)
	}
	if got := string(srv.LastBody()); got != `{"model":"test-model","input":"x","max_output_tokens":3,"stream":true,"store":false}` {
		t.Errorf("body %s", got)
	}
}

func TestResponsesEndings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script func(r *respWriter)
		status record.Status
		finish string
		errSub string
	}{
		{"incomplete at max_output_tokens is a length finish", func(r *respWriter) {
			r.terminal("response.incomplete", "incomplete", map[string]any{"incomplete_details": map[string]any{"reason": "max_output_tokens"}})
		}, record.StatusSuccess, "length", ""},
		{"incomplete for another reason fails", func(r *respWriter) {
			r.terminal("response.incomplete", "incomplete", map[string]any{"incomplete_details": map[string]any{"reason": "content_filter"}})
		}, record.StatusStreamError, "content_filter", "response incomplete: content_filter"},
		{"response.failed", func(r *respWriter) {
			r.terminal("response.failed", "failed", map[string]any{"error": map[string]any{"code": "server_error", "message": "engine died"}})
		}, record.StatusStreamError, "", "response failed: engine died"},
		{"an error event", func(r *respWriter) {
			r.send("error", map[string]any{"code": "bad", "message": "went wrong"})
		}, record.StatusStreamError, "", "error event: went wrong"},
		{"no terminal event", func(*respWriter) {}, record.StatusStreamError, "",
			"stream ended without a terminal event (response.completed, response.incomplete or response.failed)"},
		{"out of sequence", func(r *respWriter) {
			r.seq += 2
			r.send("response.output_text.delta", map[string]any{"delta": "late"})
			r.terminal("response.completed", "completed", nil)
		}, record.StatusInvalidResponse, "", "event 6 has sequence_number 7 after 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				r := &respWriter{w: w}
				r.opening()
				r.send("response.output_text.delta", map[string]any{"delta": "Hi"})
				tc.script(r)
			})
			out := sendRow(t, srv, responsesClient(), &record.Request{ID: "r", Prompt: "x", MaxTokens: 1})
			wantStatus(t, out, tc.status)
			if out.FinishReason != tc.finish {
				t.Errorf("finish %q, want %q", out.FinishReason, tc.finish)
			}
			if tc.errSub != "" {
				wantContains(t, "error", out.Error, tc.errSub)
			}
		})
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	body := `{"id":"resp_1","object":"response","status":"completed","output":[{"type":"reasoning","summary":[]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"All good."}]}],"usage":{"input_tokens":5,"output_tokens":3,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":8}}`
	srv := ssetest.New(t, ssetest.JSONAnswer(40*time.Millisecond, body))
	c := responsesClient()
	c.NoStream = true
	out := sendRow(t, srv, c, &record.Request{ID: "r", Prompt: "x", MaxTokens: 8})
	wantStatus(t, out, record.StatusSuccess)
	if *out.Text != "All good." || len(out.ContentMS) != 1 || *out.FirstContentMS != out.TerminalMS {
		t.Errorf("text %q content %v terminal %v", *out.Text, out.ContentMS, out.TerminalMS)
	}
	wantInt(t, "output tokens", out.OutputTokens, 3)
	if !strings.Contains(string(srv.LastBody()), `"stream":false,"store":false`) {
		t.Errorf("body %s", srv.LastBody())
	}
}

func TestResponsesRowsRefuseChatOnlyFields(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		{`{"prompt":"p","max_tokens":4,"extra":{"max_tokens":3}}`, "w.jsonl:1: extra.max_tokens: a chat-only field; the Responses API calls it max_output_tokens"},
		{`{"prompt":"p","max_tokens":4,"extra":{"stream_options":{}}}`, "w.jsonl:1: extra.stream_options: a chat-only field the Responses API does not have"},
		{`{"prompt":"p","max_tokens":4,"ignore_eos":true}`, "w.jsonl:1: ignore_eos: the Responses API cannot force an output length"},
	} {
		w, err := schedule.ParseWorkload("w.jsonl", []byte(tc.row))
		if err != nil {
			t.Fatal(err)
		}
		if err := openai.CheckWorkload(record.EndpointResponses, w); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.row, err, tc.want)
		}
	}
}
