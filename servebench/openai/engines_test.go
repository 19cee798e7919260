package openai_test

// How each real engine streams over its OpenAI-compatible API, replayed
// byte for byte by a real HTTP server on 127.0.0.1, and what the client
// must record from it. The shapes were read from each engine's own source
// (named above each test); the JSON below is test data written for these
// tests in the engines' framing (key order, spacing, "data:" with or
// without a space), not text taken from the projects.

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

// engineWrite is one write of an engine's response: after wait, bytes go
// out in one write and one flush. content marks a write that carries
// visible text; its server time is recorded to compare with the client's.
type engineWrite struct {
	wait    time.Duration
	bytes   string
	content bool
}

// engineStream describes a streamed response: the writes, and whether the
// status line and headers wait for the first write (llama.cpp holds them
// back until its first result, to turn an early error into an HTTP status).
type engineStream struct {
	headersWithFirstWrite bool
	writes                []engineWrite
}

// newEngineServer starts a server that answers every request with s.
func newEngineServer(t *testing.T, s engineStream) *ssetest.Server {
	t.Helper()
	return ssetest.New(t, func(w *ssetest.Writer) {
		w.RW.Header().Set("Content-Type", "text/event-stream")
		if !s.headersWithFirstWrite {
			w.RW.WriteHeader(http.StatusOK)
			w.Flush()
		}
		for i, wr := range s.writes {
			if !w.Sleep(wr.wait) {
				return
			}
			w.Mark() // marks[i] is write i's server time
			if wr.content {
				w.NoteContent()
			}
			if i == 0 && s.headersWithFirstWrite {
				w.RW.WriteHeader(http.StatusOK)
			}
			w.Raw(wr.bytes)
		}
	})
}

// newEngineErrorServer starts a server that answers every request with an
// HTTP error status and body after delay.
func newEngineErrorServer(t *testing.T, delay time.Duration, code int, contentType, body string) *ssetest.Server {
	t.Helper()
	return ssetest.New(t, func(w *ssetest.Writer) {
		w.Sleep(delay)
		w.RW.Header().Set("Content-Type", contentType)
		w.RW.WriteHeader(code)
		_, _ = w.RW.Write([]byte(body))
	})
}

// wantEngineSuccess checks the fields every successful engine stream must
// yield: success, one content time per content write (each no earlier than
// the server wrote it), TTFT from the server's prefill delay, the token
// count and its source, the prompt tokens and the finish reason.
func wantEngineSuccess(t *testing.T, srv *ssetest.Server, out *record.Outcome, ttftMS float64, tokens int,
	source record.TokenCountSource, promptTokens int, finish string) {
	t.Helper()
	wantStatus(t, out, record.StatusSuccess)
	server := srv.ContentTimes()
	if len(out.ContentMS) != len(server) {
		t.Fatalf("content times %v, want %d (one per write with visible text)", out.ContentMS, len(server))
	}
	for i := range server {
		within(t, "content time vs the server's write", out.ContentMS[i], server[i])
	}
	within(t, "TTFT (f - d)", *out.FirstContentMS-*out.SentMS, ttftMS)
	wantInt(t, "output tokens", out.OutputTokens, tokens)
	if out.TokenCountSource == nil || *out.TokenCountSource != source {
		t.Errorf("token count source %v, want %s", show(out.TokenCountSource), source)
	}
	wantInt(t, "prompt tokens", out.PromptTokens, promptTokens)
	if out.FinishReason != finish {
		t.Errorf("finish reason %q, want %q", out.FinishReason, finish)
	}
	wantInt(t, "HTTP status", out.HTTPStatus, 200)
	if out.Error != "" {
		t.Errorf("error %q on a success", out.Error)
	}
}

// sseData frames data as one event with "data: " (a space after the colon).
func sseData(data string) string { return "data: " + data + "\n\n" }

// sseTight frames data as axum does for TGI: "data:" with no space.
func sseTight(data string) string { return "data:" + data + "\n\n" }

// --- vLLM -----------------------------------------------------------------
//
// Read: vllm/entrypoints/openai/chat_completion/serving.py
// (chat_completion_stream_generator), vllm/entrypoints/openai/completion/
// serving.py (completion_stream_generator), vllm/entrypoints/openai/engine/
// serving.py (create_streaming_error_response, _check_model) and the
// DeltaMessage model in vllm/entrypoints/openai/engine/protocol.py.
//
//   - Chat: the first chunk, sent when the first engine output arrives, is
//     role-only with an empty content string. Chunks are pydantic compact
//     JSON with unset fields left out. The chunk that carries finish_reason
//     also carries the last token's text, an empty string when the model
//     stopped on EOS (the EOS token still counts in completion_tokens).
//   - With stream_options.include_usage a last chunk has "choices": [] and
//     the usage; with continuous_usage_stats every chunk also carries a
//     running usage, 0 completion tokens on the role chunk.
//   - A failure after the stream began is data: {"error": {...}} written by
//     json.dumps (spaces after separators), then data: [DONE].
//   - Reasoning: newer releases name the delta field "reasoning", older
//     ones "reasoning_content"; usage counts reasoning tokens in
//     completion_tokens_details only when a reasoning parser is set.
//   - HTTP errors: 400 BadRequestError for a prompt past the context, 404
//     NotFoundError "The model `x` does not exist.", body {"error": {...}}.

const vllmChatHead = `{"id":"chatcmpl-7c1e","object":"chat.completion.chunk","created":1764400000,"model":"qwen","choices":[`

func vllmChat(choice, tail string) string { return vllmChatHead + choice + `]` + tail + `}` }

func TestEngineStreamVLLMChat(t *testing.T) {
	cases := []struct {
		name  string
		usage [5]string // riding on the role, three content and finish chunks
	}{
		{"include_usage", [5]string{}},
		{"continuous_usage_stats", [5]string{
			`,"usage":{"prompt_tokens":9,"total_tokens":9,"completion_tokens":0}`,
			`,"usage":{"prompt_tokens":9,"total_tokens":10,"completion_tokens":1}`,
			`,"usage":{"prompt_tokens":9,"total_tokens":11,"completion_tokens":2}`,
			`,"usage":{"prompt_tokens":9,"total_tokens":12,"completion_tokens":3}`,
			`,"usage":{"prompt_tokens":9,"total_tokens":13,"completion_tokens":4}`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newEngineServer(t, engineStream{writes: []engineWrite{
				{0, sseData(vllmChat(`{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}`, `,"prompt_token_ids":null`+c.usage[0])), false},
				{150 * time.Millisecond, sseData(vllmChat(`{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null,"token_ids":null}`, c.usage[1])), true},
				{50 * time.Millisecond, sseData(vllmChat(`{"index":0,"delta":{"content":" there"},"logprobs":null,"finish_reason":null,"token_ids":null}`, c.usage[2])), true},
				{50 * time.Millisecond, sseData(vllmChat(`{"index":0,"delta":{"content":"!"},"logprobs":null,"finish_reason":null,"token_ids":null}`, c.usage[3])), true},
				{50 * time.Millisecond, sseData(vllmChat(`{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null,"token_ids":null}`, c.usage[4])), false},
				{0, sseData(vllmChat(``, `,"usage":{"prompt_tokens":9,"total_tokens":13,"completion_tokens":4}`)) + sseData("[DONE]"), false},
			}})
			out := sendRow(t, srv, chatClient(), chatRow())
			// Three writes carry text; the role chunk and the EOS chunk do
			// not. completion_tokens (4) counts the EOS token too.
			wantEngineSuccess(t, srv, out, 150, 4, record.TokensFromUsage, 9, "stop")
			near(t, "gap between the first two tokens", out.ContentMS[1]-out.ContentMS[0], 50)
			within(t, "terminal at data: [DONE], after the finish chunk", out.TerminalMS, srv.MarkTimes()[5])
			wantNil(t, "first reasoning", out.FirstReasoningMS)
		})
	}
}

func TestEngineStreamVLLMCompletionsWithLogprobs(t *testing.T) {
	// /v1/completions with "logprobs": 1: every chunk holds one token and
	// its logprob entry; the third token ends the request by length, in the
	// same chunk as its text.
	chunk := func(text, finish string) string {
		return `{"id":"cmpl-5d","object":"text_completion","created":1764400000,"model":"qwen","choices":[{"index":0,"text":` +
			ssetest.MustJSON(text) + `,"logprobs":{"text_offset":[0],"token_logprobs":[-0.25],"tokens":[` + ssetest.MustJSON(text) +
			`],"top_logprobs":[{` + ssetest.MustJSON(text) + `:-0.25}]},"finish_reason":` + finish + `,"stop_reason":null}]}`
	}
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		{120 * time.Millisecond, sseData(chunk(" one", "null")), true},
		{40 * time.Millisecond, sseData(chunk(" two", "null")), true},
		{40 * time.Millisecond, sseData(chunk(" three", `"length"`)), true},
		{0, sseData(`{"id":"cmpl-5d","object":"text_completion","created":1764400000,"model":"qwen","choices":[],"usage":{"prompt_tokens":5,"total_tokens":8,"completion_tokens":3}}`) + sseData("[DONE]"), false},
	}})
	c := completionsClient()
	c.Logprobs = true
	out := sendRow(t, srv, c, promptRow())
	wantEngineSuccess(t, srv, out, 120, 3, record.TokensFromUsage, 5, "length")
	if len(out.EventTokens) != 3 || out.EventTokens[0] != 1 || out.EventTokens[1] != 1 || out.EventTokens[2] != 1 {
		t.Errorf("event tokens %v, want [1 1 1] (one logprob entry per chunk)", out.EventTokens)
	}
}

func TestEngineStreamVLLMReasoning(t *testing.T) {
	// A reasoning parser splits the output: two reasoning chunks, then two
	// content chunks. The field is "reasoning" in newer releases and
	// "reasoning_content" in older ones; both are reasoning, not content.
	for _, field := range []string{"reasoning", "reasoning_content"} {
		t.Run(field, func(t *testing.T) {
			think := func(s string) string {
				return sseData(vllmChat(`{"index":0,"delta":{"`+field+`":`+ssetest.MustJSON(s)+`},"logprobs":null,"finish_reason":null,"token_ids":null}`, ``))
			}
			say := func(s string) string {
				return sseData(vllmChat(`{"index":0,"delta":{"content":`+ssetest.MustJSON(s)+`},"logprobs":null,"finish_reason":null,"token_ids":null}`, ``))
			}
			srv := newEngineServer(t, engineStream{writes: []engineWrite{
				{0, sseData(vllmChat(`{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}`, ``)), false},
				{100 * time.Millisecond, think("Two and two"), false},
				{40 * time.Millisecond, think(" make four."), false},
				{40 * time.Millisecond, say("Four"), true},
				{40 * time.Millisecond, say("."), true},
				{0, sseData(vllmChat(`{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null,"token_ids":null}`, ``)) +
					sseData(vllmChat(``, `,"usage":{"prompt_tokens":12,"total_tokens":17,"completion_tokens":5,"completion_tokens_details":{"reasoning_tokens":2}}`)) +
					sseData("[DONE]"), false},
			}})
			c := chatClient()
			c.KeepText = true
			out := sendRow(t, srv, c, chatRow())
			// Visible text starts 180 ms after the request (100 + 40 + 40);
			// reasoning at 100 ms.
			wantEngineSuccess(t, srv, out, 180, 5, record.TokensFromUsage, 12, "stop")
			if out.FirstReasoningMS == nil {
				t.Fatal("first reasoning time not recorded")
			}
			within(t, "first reasoning (from d)", *out.FirstReasoningMS-*out.SentMS, 100)
			wantInt(t, "reasoning tokens", out.ReasoningTokens, 2)
			if out.Text == nil || *out.Text != "Four." {
				t.Errorf("text %v, want %q (reasoning is not part of the answer)", show(out.Text), "Four.")
			}
		})
	}
}

func TestEngineStreamVLLMErrors(t *testing.T) {
	t.Run("failure after the first token", func(t *testing.T) {
		srv := newEngineServer(t, engineStream{writes: []engineWrite{
			{0, sseData(vllmChat(`{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}`, ``)), false},
			{60 * time.Millisecond, sseData(vllmChat(`{"index":0,"delta":{"content":"Hel"},"logprobs":null,"finish_reason":null,"token_ids":null}`, ``)), true},
			{80 * time.Millisecond, sseData(`{"error": {"message": "Internal server error", "type": "InternalServerError", "param": null, "code": 500}}`) + sseData("[DONE]"), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusStreamError)
		if out.Error != "error event: Internal server error" {
			t.Errorf("error %q", out.Error)
		}
		if len(out.ContentMS) != 1 {
			t.Errorf("content times %v, want the one token before the error", out.ContentMS)
		}
		within(t, "terminal at the error event", out.TerminalMS, srv.MarkTimes()[2])
		wantNil(t, "output tokens (no usage came)", out.OutputTokens)
	})
	httpCases := []struct {
		name, body, want string
		code             int
	}{
		{"prompt past the context", `{"error":{"message":"This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages.","type":"BadRequestError","param":null,"code":400}}`,
			"HTTP 400: This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages.", 400},
		{"unknown model", `{"error":{"message":"The model ` + "`nope`" + ` does not exist.","type":"NotFoundError","param":"model","code":404}}`,
			"HTTP 404: The model `nope` does not exist.", 404},
	}
	for _, c := range httpCases {
		t.Run(c.name, func(t *testing.T) {
			srv := newEngineErrorServer(t, 30*time.Millisecond, c.code, "application/json", c.body)
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, record.StatusHTTPError)
			if out.Error != c.want {
				t.Errorf("error %q, want %q", out.Error, c.want)
			}
			wantInt(t, "HTTP status", out.HTTPStatus, c.code)
		})
	}
}

// --- SGLang ---------------------------------------------------------------
//
// Read: python/sglang/srt/entrypoints/openai/serving_chat.py
// (_generate_chat_stream), serving_base.py (create_streaming_error_response)
// and python/sglang/srt/managers/tokenizer_manager.py (how an abort with a
// status reaches a stream).
//
//   - The role chunk ({"role":"assistant","content":""}) is written in the
//     same loop step as the first token, so both arrive together. Chunks are
//     model_dump_json() without exclusions: every unset field is null,
//     "usage":null included.
//   - Reasoning (with a reasoning parser) is "reasoning_content".
//   - The finish_reason comes in its own chunk after the last token, with an
//     all-null delta and "matched_stop" (the EOS id or the stop string);
//     then the include_usage chunk ("choices": []) and data: [DONE].
//   - Everything after the request was accepted reaches the client inside
//     the 200 stream: a prompt past the context as {"error": {"object":
//     "error", ..., "code": 400}}; a request aborted with a status (queue
//     full: 503 SERVICE_UNAVAILABLE) as the same shape with that code;
//     releases before that rule, and aborts without a status, end the
//     stream with finish_reason "abort" and data: [DONE].
//   - The model name is echoed, not checked.

func sglangChat(delta, finish, matched string) string {
	return `{"id":"b4c1","object":"chat.completion.chunk","created":1764400000,"model":"default","choices":[{"index":0,"delta":` + delta +
		`,"logprobs":null,"finish_reason":` + finish + `,"matched_stop":` + matched + `}],"usage":null}`
}

func sglangDelta(role, content, reasoning string) string {
	return `{"role":` + role + `,"content":` + content + `,"reasoning_content":` + reasoning + `,"tool_calls":null}`
}

const sglangUsage = `{"id":"b4c1","object":"chat.completion.chunk","created":1764400000,"model":"default","choices":[],"usage":{"prompt_tokens":7,"total_tokens":11,"completion_tokens":4,"prompt_tokens_details":null}}`

func TestEngineStreamSGLangChat(t *testing.T) {
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		// The role chunk and the first output (reasoning here) in one write.
		{100 * time.Millisecond, sseData(sglangChat(sglangDelta(`"assistant"`, `""`, `null`), `null`, `null`)) +
			sseData(sglangChat(sglangDelta(`null`, `null`, `"Easy."`), `null`, `null`)), false},
		{50 * time.Millisecond, sseData(sglangChat(sglangDelta(`null`, `"Hi"`, `null`), `null`, `null`)), true},
		{50 * time.Millisecond, sseData(sglangChat(sglangDelta(`null`, `" there"`, `null`), `null`, `null`)), true},
		{50 * time.Millisecond, sseData(sglangChat(sglangDelta(`null`, `null`, `null`), `"stop"`, `151645`)) + sseData(sglangUsage) + sseData("[DONE]"), false},
	}})
	c := chatClient()
	c.KeepText = true
	out := sendRow(t, srv, c, chatRow())
	wantEngineSuccess(t, srv, out, 150, 4, record.TokensFromUsage, 7, "stop")
	// Without --enable-cache-report SGLang sends prompt_tokens_details null:
	// the cached count is unknown, not 0.
	wantNil(t, "cached tokens", out.CachedTokens)
	within(t, "first reasoning (from d)", *out.FirstReasoningMS-*out.SentMS, 100)
	if out.Text == nil || *out.Text != "Hi there" {
		t.Errorf("text %v, want %q", show(out.Text), "Hi there")
	}
}

func TestEngineStreamSGLangAbortAndInStreamErrors(t *testing.T) {
	t.Run("finish_reason abort", func(t *testing.T) {
		// Text came, then the request was aborted; the stream still ends
		// with a usage chunk and data: [DONE]. That is not a success.
		srv := newEngineServer(t, engineStream{writes: []engineWrite{
			{80 * time.Millisecond, sseData(sglangChat(sglangDelta(`"assistant"`, `""`, `null`), `null`, `null`)) +
				sseData(sglangChat(sglangDelta(`null`, `"Par"`, `null`), `null`, `null`)), true},
			{60 * time.Millisecond, sseData(sglangChat(sglangDelta(`null`, `null`, `null`), `"abort"`, `null`)) +
				sseData(strings.Replace(sglangUsage, `"completion_tokens":4`, `"completion_tokens":1`, 1)) + sseData("[DONE]"), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusStreamError)
		if out.Error != `the server ended the request with finish_reason "abort"` {
			t.Errorf("error %q", out.Error)
		}
		if out.FinishReason != "abort" || len(out.ContentMS) != 1 {
			t.Errorf("finish %q content %v, want abort and the one token that came", out.FinishReason, out.ContentMS)
		}
		wantInt(t, "output tokens (the server's count still recorded)", out.OutputTokens, 1)
		within(t, "terminal at data: [DONE]", out.TerminalMS, srv.MarkTimes()[1])
	})
	t.Run("queue full", func(t *testing.T) {
		// The scheduler refused the request (503) after the 200 went out.
		srv := newEngineServer(t, engineStream{writes: []engineWrite{
			{40 * time.Millisecond, sseData(`{"error": {"object": "error", "message": "The request queue is full.", "type": "SERVICE_UNAVAILABLE", "param": null, "code": 503}}`) +
				sseData("[DONE]"), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusRejected)
		if out.Error != "error event, admission refused: The request queue is full." {
			t.Errorf("error %q", out.Error)
		}
		wantInt(t, "HTTP status (the real one)", out.HTTPStatus, 200)
		within(t, "terminal at the error event (from d)", out.TerminalMS-*out.SentMS, 40)
	})
	t.Run("prompt past the context", func(t *testing.T) {
		srv := newEngineServer(t, engineStream{writes: []engineWrite{
			{20 * time.Millisecond, sseData(`{"error": {"object": "error", "message": "The input (5000 tokens) is longer than the model's context length (4096 tokens).", "type": "BadRequestError", "param": null, "code": 400}}`) +
				sseData("[DONE]"), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusStreamError)
		if out.Error != "error event: The input (5000 tokens) is longer than the model's context length (4096 tokens)." {
			t.Errorf("error %q", out.Error)
		}
	})
	t.Run("refusal code after text is a stream error", func(t *testing.T) {
		// Once the server has produced text it had admitted the request.
		srv := newEngineServer(t, engineStream{writes: []engineWrite{
			{30 * time.Millisecond, sseData(sglangChat(sglangDelta(`"assistant"`, `""`, `null`), `null`, `null`)) +
				sseData(sglangChat(sglangDelta(`null`, `"Hi"`, `null`), `null`, `null`)), true},
			{30 * time.Millisecond, sseData(`{"error": {"object": "error", "message": "Aborted by the scheduler.", "type": "SERVICE_UNAVAILABLE", "param": null, "code": 503}}`) + sseData("[DONE]"), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusStreamError)
		wantContains(t, "error", out.Error, "Aborted by the scheduler.")
	})
}

// --- TGI (text-generation-inference) ----------------------------------------
//
// Read: router/src/server.rs (completions, chat_completions,
// generate_stream_internal, the InferError to status mapping),
// router/src/chat.rs (ChatState::push, create_event_from_stream_token),
// router/src/infer/mod.rs (generate_stream, into_openai_event),
// router/src/lib.rs (the chunk types, FinishReason) and axum's
// response/sse.rs (framing).
//
//   - axum frames each event as "data:" + compact JSON with no space, and
//     [DONE] as "data:[DONE]"; serde's tag puts "object" first.
//   - Chat: no role-only chunk; every delta repeats "role":"assistant".
//     The last token's chunk carries the finish_reason ("stop" for EOS,
//     whose text is dropped because it is a special token; "length" with
//     the token's text). include_usage adds a "choices": [] usage chunk;
//     other chunks say "usage":null.
//   - Completions: intermediate chunks have "finish_reason":""; the last
//     chunk carries the last token's text as decoded with special tokens
//     kept (so "</s>" or "<|im_end|>" on EOS), TGI's own finish names
//     ("eos_token", "stop_sequence", "length") and the usage, riding on
//     that chunk whatever stream_options says.
//   - Admission (--max-concurrent-requests), validation (a prompt past
//     --max-input-tokens) and generation failures all come inside the 200
//     stream as {"error":{"message":...,"http_status_code":422}}, then
//     data:[DONE]. Errors found before streaming (a template error) are an
//     HTTP 422 with TGI's own body {"error":"...","error_type":"..."}.
//   - The model name is not checked: it becomes an adapter id, and an
//     unknown one falls back to the base model.

func tgiChat(content, finish, tail string) string {
	return `{"object":"chat.completion.chunk","id":"","created":1764400000,"model":"tgi","system_fingerprint":"3.3.6-native","choices":[{"index":0,"delta":{"role":"assistant","content":` +
		ssetest.MustJSON(content) + `},"logprobs":null,"finish_reason":` + finish + `}]` + tail + `}`
}

func TestEngineStreamTGIChat(t *testing.T) {
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		{150 * time.Millisecond, sseTight(tgiChat("Hello", "null", `,"usage":null`)), true},
		{50 * time.Millisecond, sseTight(tgiChat(" world", "null", `,"usage":null`)), true},
		// EOS: a special token, so its text is dropped from the delta.
		{50 * time.Millisecond, sseTight(tgiChat("", `"stop"`, `,"usage":null`)) +
			sseTight(`{"object":"chat.completion.chunk","id":"","created":1764400000,"model":"tgi","system_fingerprint":"3.3.6-native","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":3,"total_tokens":11}}`) +
			"data:[DONE]\n\n", false},
	}})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantEngineSuccess(t, srv, out, 150, 3, record.TokensFromUsage, 8, "stop")
}

func TestEngineStreamTGICompletions(t *testing.T) {
	chunk := func(text, finish, usage string) string {
		return `{"object":"text_completion","id":"","created":1764400000,"model":"tgi","system_fingerprint":"3.3.6-native","choices":[{"index":0,"text":` +
			ssetest.MustJSON(text) + `,"logprobs":null,"finish_reason":` + ssetest.MustJSON(finish) + `}]` + usage + `}`
	}
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		{120 * time.Millisecond, sseTight(chunk(" Paris", "", "")), true},
		{40 * time.Millisecond, sseTight(chunk(" is", "", "")), true},
		// The EOS token's text is streamed as is: it is visible text.
		{40 * time.Millisecond, sseTight(chunk("</s>", "eos_token", `,"usage":{"prompt_tokens":6,"completion_tokens":3,"total_tokens":9}`)) + "data:[DONE]\n\n", true},
	}})
	c := completionsClient()
	c.KeepText = true
	out := sendRow(t, srv, c, promptRow())
	// Usage rides on a chunk with choices and is the only usage: it counts.
	// The finish reason is kept as TGI names it.
	wantEngineSuccess(t, srv, out, 120, 3, record.TokensFromUsage, 6, "eos_token")
	if out.Text == nil || *out.Text != " Paris is</s>" {
		t.Errorf("text %v, want %q", show(out.Text), " Paris is</s>")
	}
}

func TestEngineStreamTGIErrors(t *testing.T) {
	inStream := []struct {
		name, before, event string
		status              record.Status
		want                string
	}{
		{"overloaded", "", `{"error":{"message":"Model is overloaded","http_status_code":422}}`,
			record.StatusRejected, "error event, admission refused: Model is overloaded"},
		{"prompt past the input limit", "",
			`{"error":{"message":"Input validation error: ` + "`inputs`" + ` tokens + ` + "`max_new_tokens`" + ` must be <= 4096. Given: 4000 ` + "`inputs`" + ` tokens and 200 ` + "`max_new_tokens`" + `","http_status_code":422}}`,
			record.StatusStreamError, "error event: Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`"},
		{"failure during generation", tgiChat("A", "null", `,"usage":null`),
			`{"error":{"message":"Request failed during generation: Server error: CUDA out of memory","http_status_code":422}}`,
			record.StatusStreamError, "error event: Request failed during generation: Server error: CUDA out of memory"},
	}
	for _, c := range inStream {
		t.Run(c.name, func(t *testing.T) {
			writes := []engineWrite{}
			if c.before != "" {
				writes = append(writes, engineWrite{30 * time.Millisecond, sseTight(c.before), true})
			}
			writes = append(writes, engineWrite{30 * time.Millisecond, sseTight(c.event) + "data:[DONE]\n\n", false})
			srv := newEngineServer(t, engineStream{writes: writes})
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, c.status)
			if out.Error != c.want {
				t.Errorf("error %q, want %q", out.Error, c.want)
			}
			wantInt(t, "HTTP status", out.HTTPStatus, 200)
			if len(out.ContentMS) != len(srv.ContentTimes()) {
				t.Errorf("content times %v, want %d", out.ContentMS, len(srv.ContentTimes()))
			}
		})
	}
	t.Run("template error before streaming", func(t *testing.T) {
		srv := newEngineErrorServer(t, 20*time.Millisecond, 422, "application/json",
			`{"error":"Template error: unknown filter (in <string>:1)","error_type":"template_error"}`)
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusHTTPError)
		if out.Error != "HTTP 422: Template error: unknown filter (in <string>:1)" {
			t.Errorf("error %q", out.Error)
		}
	})
	t.Run("overloaded on a non-streaming request", func(t *testing.T) {
		srv := newEngineErrorServer(t, 20*time.Millisecond, 429, "application/json",
			`{"error":"Model is overloaded","error_type":"overloaded"}`)
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusRejected)
		if out.Error != "HTTP 429: Model is overloaded" {
			t.Errorf("error %q", out.Error)
		}
	})
}

// --- llama.cpp server -------------------------------------------------------
//
// Read: tools/server/server-task.cpp (to_json_oaicompat_chat and
// to_json_oaicompat_chat_stream of the partial and final results,
// to_json_oaicompat for /v1/completions), tools/server/server-context.cpp
// (handle_completions_impl: the first result decides the status), and
// server-common.cpp (format_oai_sse, format_error_response); for older
// builds, the server_sent_event helper of tools/server/utils.hpp.
//
//   - nlohmann::json sorts object keys. Each event is "data: " + JSON.
//   - Chat: the first token's result yields a role chunk with "content":
//     null, then that token's delta, in one write. Deltas carry "content"
//     or, with --reasoning-format deepseek (the default for thinking
//     models), "reasoning_content". The final result adds a finish chunk
//     with "delta": {}, then with include_usage a "choices": [] chunk with
//     usage and the "timings" object; data: [DONE] follows.
//   - Completions: the final chunk has empty text, the finish_reason, the
//     usage (riding on a chunk with choices) and timings.
//   - Current builds wait for the first result before sending the status
//     line: an error found then (a prompt past the context) is a plain
//     HTTP error, 400 exceed_context_size_error. A later error is
//     data: {"error": {...}} and the stream ends without data: [DONE].
//   - Builds before October 2025 sent a mid-stream error as a nonstandard
//     "error: {...}" line and then data: [DONE].
//   - While the model loads: HTTP 503 unavailable_error.

const llamaHead = `{"choices":[`
const llamaTail = `],"created":1764400000,"id":"chatcmpl-Xq2v","model":"gguf","object":"chat.completion.chunk","system_fingerprint":"b6900-3f1e"`

func llamaChat(delta, finish string) string {
	return llamaHead + `{"delta":` + delta + `,"finish_reason":` + finish + `,"index":0}` + llamaTail + `}`
}

const llamaUsage = llamaHead + llamaTail +
	`,"timings":{"cache_n":0,"predicted_ms":96.2,"predicted_n":3,"predicted_per_second":31.2,"predicted_per_token_ms":32.1,"prompt_ms":140.3,"prompt_n":11,"prompt_per_second":78.4,"prompt_per_token_ms":12.8}` +
	`,"usage":{"completion_tokens":3,"prompt_tokens":11,"prompt_tokens_details":{"cached_tokens":0},"total_tokens":14}}`

func TestEngineStreamLlamaCppChat(t *testing.T) {
	srv := newEngineServer(t, engineStream{headersWithFirstWrite: true, writes: []engineWrite{
		// The status line, the role chunk and the first token together.
		{150 * time.Millisecond, sseData(llamaChat(`{"content":null,"role":"assistant"}`, `null`)) + sseData(llamaChat(`{"content":"Hi"}`, `null`)), true},
		{40 * time.Millisecond, sseData(llamaChat(`{"content":" there"}`, `null`)), true},
		{40 * time.Millisecond, sseData(llamaChat(`{}`, `"stop"`)) + sseData(llamaUsage), false},
		{0, sseData("[DONE]"), false},
	}})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantEngineSuccess(t, srv, out, 150, 3, record.TokensFromUsage, 11, "stop")
	// llama.cpp always reports the count, 0 included.
	wantInt(t, "cached tokens", out.CachedTokens, 0)
}

func TestEngineStreamLlamaCppReasoning(t *testing.T) {
	srv := newEngineServer(t, engineStream{headersWithFirstWrite: true, writes: []engineWrite{
		{100 * time.Millisecond, sseData(llamaChat(`{"content":null,"role":"assistant"}`, `null`)) + sseData(llamaChat(`{"reasoning_content":"Hmm."}`, `null`)), false},
		{40 * time.Millisecond, sseData(llamaChat(`{"content":"Yes"}`, `null`)), true},
		{0, sseData(llamaChat(`{}`, `"stop"`)) + sseData(llamaUsage) + sseData("[DONE]"), false},
	}})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantEngineSuccess(t, srv, out, 140, 3, record.TokensFromUsage, 11, "stop")
	within(t, "first reasoning (from d)", *out.FirstReasoningMS-*out.SentMS, 100)
}

func TestEngineStreamLlamaCppCompletions(t *testing.T) {
	chunk := func(text, finish, extra string) string {
		return `{"choices":[{"finish_reason":` + finish + `,"index":0,"logprobs":null,"text":` + ssetest.MustJSON(text) +
			`}],"created":1764400000,"id":"cmpl-Q7","model":"gguf","object":"text_completion"` + extra + `}`
	}
	srv := newEngineServer(t, engineStream{headersWithFirstWrite: true, writes: []engineWrite{
		{90 * time.Millisecond, sseData(chunk(" one", "null", `,"system_fingerprint":"b6900-3f1e"`)), true},
		{30 * time.Millisecond, sseData(chunk(" two", "null", `,"system_fingerprint":"b6900-3f1e"`)), true},
		{30 * time.Millisecond, sseData(chunk(" three", "null", `,"system_fingerprint":"b6900-3f1e"`)), true},
		{0, sseData(chunk("", `"length"`, `,"timings":{"predicted_n":3,"prompt_n":4},"usage":{"completion_tokens":3,"prompt_tokens":4,"total_tokens":7}`)) + sseData("[DONE]"), false},
	}})
	out := sendRow(t, srv, completionsClient(), promptRow())
	wantEngineSuccess(t, srv, out, 90, 3, record.TokensFromUsage, 4, "length")
}

func TestEngineStreamLlamaCppErrors(t *testing.T) {
	t.Run("prompt past the context (current builds)", func(t *testing.T) {
		srv := newEngineErrorServer(t, 30*time.Millisecond, 400, "application/json; charset=utf-8",
			`{"error":{"code":400,"message":"request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it","n_ctx":4096,"n_prompt_tokens":5000,"type":"exceed_context_size_error"}}`)
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusHTTPError)
		if out.Error != "HTTP 400: request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it" {
			t.Errorf("error %q", out.Error)
		}
	})
	t.Run("model loading", func(t *testing.T) {
		srv := newEngineErrorServer(t, 10*time.Millisecond, 503, "application/json; charset=utf-8",
			`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`)
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusRejected)
		if out.Error != "HTTP 503: Loading model" {
			t.Errorf("error %q", out.Error)
		}
	})
	t.Run("failure after the first token (current builds)", func(t *testing.T) {
		srv := newEngineServer(t, engineStream{headersWithFirstWrite: true, writes: []engineWrite{
			{50 * time.Millisecond, sseData(llamaChat(`{"content":null,"role":"assistant"}`, `null`)) + sseData(llamaChat(`{"content":"A"}`, `null`)), true},
			{60 * time.Millisecond, sseData(`{"error":{"code":500,"message":"Failed to decode the batch","type":"server_error"}}`), false},
		}})
		out := sendRow(t, srv, chatClient(), chatRow())
		wantStatus(t, out, record.StatusStreamError)
		if out.Error != "error event: Failed to decode the batch" {
			t.Errorf("error %q", out.Error)
		}
		within(t, "terminal at the error event", out.TerminalMS, srv.MarkTimes()[1])
	})
	type legacyCase struct {
		name    string
		writes  []engineWrite
		content int
	}
	legacy := []legacyCase{
		{"error line before any text (older builds)", []engineWrite{
			{40 * time.Millisecond, `error: {"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}` + "\n\n", false},
			{0, sseData("[DONE]"), false},
		}, 0},
		{"error line after text (older builds)", []engineWrite{
			{40 * time.Millisecond, sseData(llamaChat(`{"content":null,"role":"assistant"}`, `null`)) + sseData(llamaChat(`{"content":"A"}`, `null`)), true},
			// Split inside the field name and before the blank line, as a
			// slow connection may deliver it.
			{30 * time.Millisecond, `err`, false},
			{0, `or: {"code":500,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}` + "\r\n", false},
			{0, "\r\n" + sseData("[DONE]"), false},
		}, 1},
	}
	// The same line delivered one byte per write, CRLF line ends: the
	// field name, the value and the blank line all arrive in pieces.
	byByte := []engineWrite{{40 * time.Millisecond, "e", false}}
	for _, b := range `rror: {"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}` + "\r\n\r\n" {
		byByte = append(byByte, engineWrite{0, string(b), false})
	}
	byByte = append(byByte, engineWrite{0, "data: [DONE]\r\n\r\n", false})
	legacy = append(legacy, legacyCase{"error line split into single bytes (older builds)", byByte, 0})
	for _, c := range legacy {
		t.Run(c.name, func(t *testing.T) {
			srv := newEngineServer(t, engineStream{writes: c.writes})
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, record.StatusStreamError)
			if out.Error != "error line: the request exceeds the available context size, try increasing it" {
				t.Errorf("error %q", out.Error)
			}
			if len(out.ContentMS) != c.content {
				t.Errorf("content times %v, want %d", out.ContentMS, c.content)
			}
			within(t, "terminal at the error line (from d)", out.TerminalMS-*out.SentMS, 40+float64(30*c.content))
		})
	}
}

// --- Ollama -----------------------------------------------------------------
//
// Read: middleware/openai.go and openai/openai.go of Ollama v0.17.4 (the
// module the containers package builds), server/routes.go and
// server/sched.go (handleScheduleError, ErrMaxQueue); the streaming facts
// were also checked against the running binary (see the shared note
// real-engine-ollama.md).
//
//   - One event per token; no role-only chunk, every delta repeats
//     "role":"assistant"; a thinking model's text is "reasoning". Go's
//     encoding/json keeps struct order.
//   - The last event has empty content and the finish_reason; with
//     include_usage a chunk with "choices": [] and the usage follows; then
//     data: [DONE].
//   - /v1/completions with include_usage puts a zero usage on every chunk.
//   - A full queue (OLLAMA_MAX_QUEUE) is HTTP 503, an unknown model 404,
//     both with {"error":{"message":...,"type":"api_error",...}}.

func ollamaChat(delta, finish, tail string) string {
	return `{"id":"chatcmpl-512","object":"chat.completion.chunk","created":1764400000,"model":"tiny","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":` +
		delta + `,"finish_reason":` + finish + `}]` + tail + `}`
}

func TestEngineStreamOllamaChat(t *testing.T) {
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		{80 * time.Millisecond, sseData(ollamaChat(`{"role":"assistant","content":"","reasoning":"Short."}`, `null`, ``)), false},
		{40 * time.Millisecond, sseData(ollamaChat(`{"role":"assistant","content":"Yes"}`, `null`, ``)), true},
		{40 * time.Millisecond, sseData(ollamaChat(`{"role":"assistant","content":"."}`, `null`, ``)), true},
		{40 * time.Millisecond, sseData(ollamaChat(`{"role":"assistant","content":""}`, `"stop"`, ``)) +
			sseData(`{"id":"chatcmpl-512","object":"chat.completion.chunk","created":1764400000,"model":"tiny","system_fingerprint":"fp_ollama","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`) +
			sseData("[DONE]"), false},
	}})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantEngineSuccess(t, srv, out, 120, 4, record.TokensFromUsage, 10, "stop")
	within(t, "first reasoning (from d)", *out.FirstReasoningMS-*out.SentMS, 80)
}

func TestEngineStreamOllamaCompletions(t *testing.T) {
	chunk := func(text, finish string, usage string) string {
		return `{"id":"cmpl-88","object":"text_completion","created":1764400000,"choices":[{"text":` + ssetest.MustJSON(text) +
			`,"index":0,"finish_reason":` + finish + `}],"model":"tiny","system_fingerprint":"fp_ollama","usage":` + usage + `}`
	}
	const zero = `{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}`
	srv := newEngineServer(t, engineStream{writes: []engineWrite{
		{70 * time.Millisecond, sseData(chunk(" one", "null", zero)), true},
		{30 * time.Millisecond, sseData(chunk(" two", "null", zero)), true},
		{30 * time.Millisecond, sseData(chunk("", `"length"`, zero)) +
			sseData(`{"id":"cmpl-88","object":"text_completion","created":1764400000,"choices":[],"model":"tiny","system_fingerprint":"fp_ollama","usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`) +
			sseData("[DONE]"), false},
	}})
	out := sendRow(t, srv, completionsClient(), promptRow())
	// The zero usage on every chunk must not hide the real count.
	wantEngineSuccess(t, srv, out, 70, 2, record.TokensFromUsage, 5, "length")
}

func TestEngineStreamOllamaErrors(t *testing.T) {
	cases := []struct {
		name   string
		code   int
		body   string
		status record.Status
		want   string
	}{
		{"queue full", 503, `{"error":{"message":"server busy, please try again.  maximum pending requests exceeded","type":"api_error","param":null,"code":null}}` + "\n",
			record.StatusRejected, "HTTP 503: server busy, please try again.  maximum pending requests exceeded"},
		{"unknown model", 404, `{"error":{"message":"model 'nope' not found","type":"api_error","param":null,"code":null}}` + "\n",
			record.StatusHTTPError, "HTTP 404: model 'nope' not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newEngineErrorServer(t, 20*time.Millisecond, c.code, "application/json", c.body)
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, c.status)
			if out.Error != c.want {
				t.Errorf("error %q, want %q", out.Error, c.want)
			}
		})
	}
}
