package openai_test

import (
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// usageWithDetails is a streamed usage chunk whose prompt_tokens_details is
// details (left out when nil).
func usageWithDetails(prompt, completion int, details map[string]any) string {
	usage := map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
	if details != nil {
		usage["prompt_tokens_details"] = details
	}
	return ssetest.MustJSON(map[string]any{"id": "cmpl-test", "object": "chat.completion.chunk", "choices": []any{}, "usage": usage})
}

// TestClientCachedTokensFromPromptTokensDetails reads
// usage.prompt_tokens_details.cached_tokens from a real SSE stream, chat
// and completions, and keeps every way of not reporting it (the object
// left out, as vLLM does without --enable-prompt-tokens-details; null; the
// key left out, as SGLang does for 0) apart from a reported 0.
func TestClientCachedTokensFromPromptTokensDetails(t *testing.T) {
	cases := []struct {
		name    string
		details map[string]any
		want    *int
	}{
		{"reported", map[string]any{"cached_tokens": 192}, new(192)},
		{"reported zero", map[string]any{"cached_tokens": 0}, new(0)},
		{"details left out", nil, nil},
		{"details without the key", map[string]any{"audio_tokens": 0}, nil},
		{"null", map[string]any{"cached_tokens": nil}, nil},
	}
	for _, c := range cases {
		for _, client := range []*openai.Client{chatClient(), completionsClient()} {
			t.Run(c.name+"/"+string(client.Endpoint), func(t *testing.T) {
				srv := ssetest.New(t, func(w *ssetest.Writer) {
					w.StreamHeader()
					if client.Endpoint == record.EndpointChat {
						w.Content(ssetest.ChatContent("Hello"))
					} else {
						w.Content(ssetest.TextChunk("Hello", nil, nil))
					}
					w.Event(usageWithDetails(256, 1, c.details))
					w.Done()
				})
				row := chatRow()
				if client.Endpoint == record.EndpointCompletions {
					row = promptRow()
				}
				out := sendRow(t, srv, client, row)
				wantStatus(t, out, record.StatusSuccess)
				wantInt(t, "prompt tokens", out.PromptTokens, 256)
				if c.want == nil {
					wantNil(t, "cached tokens", out.CachedTokens)
				} else {
					wantInt(t, "cached tokens", out.CachedTokens, *c.want)
				}
			})
		}
	}
}

// TestClientCachedTokensNonStreaming reads the count from a whole chat
// response body.
func TestClientCachedTokensNonStreaming(t *testing.T) {
	body := ssetest.MustJSON(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "hi"}, "finish_reason": "stop"}},
		"usage": map[string]any{"prompt_tokens": 40, "completion_tokens": 1, "total_tokens": 41,
			"prompt_tokens_details": map[string]any{"cached_tokens": 32}}})
	srv := ssetest.New(t, ssetest.JSONAnswer(0, body))
	c := chatClient()
	c.NoStream = true
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	wantInt(t, "cached tokens", out.CachedTokens, 32)
}

// TestResponsesCachedTokensFromInputTokensDetails reads
// usage.input_tokens_details.cached_tokens from the terminal event of a
// Responses stream, and leaves the count unknown when the details are not
// sent.
func TestResponsesCachedTokensFromInputTokensDetails(t *testing.T) {
	for _, c := range []struct {
		name    string
		details any
		want    *int
	}{
		{"reported", map[string]any{"cached_tokens": 5}, new(5)},
		{"reported zero", map[string]any{"cached_tokens": 0}, new(0)},
		{"left out", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				r := &respWriter{w: w}
				r.opening()
				r.send("response.output_text.delta", map[string]any{"delta": "Hello"})
				usage := map[string]any{"input_tokens": 7, "output_tokens": 1, "total_tokens": 8}
				if c.details != nil {
					usage["input_tokens_details"] = c.details
				}
				r.send("response.completed", map[string]any{"response": map[string]any{"status": "completed", "usage": usage}})
			})
			out := sendRow(t, srv, responsesClient(), chatRow())
			wantStatus(t, out, record.StatusSuccess)
			wantInt(t, "prompt tokens", out.PromptTokens, 7)
			if c.want == nil {
				wantNil(t, "cached tokens", out.CachedTokens)
			} else {
				wantInt(t, "cached tokens", out.CachedTokens, *c.want)
			}
		})
	}
}
