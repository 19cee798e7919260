package openai

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// completionsProtocol is /v1/completions; chatProtocol is
// /v1/chat/completions. Both stream OpenAI chunks ended by data: [DONE]
// (see Client for the rules), and share the parser.
type (
	completionsProtocol struct{ openAIText }
	chatProtocol        struct{ openAIText }
)

// openAIText is the parser the completions and chat protocols share.
type openAIText struct{}

// The failures every text-generating API can record.
var textFailures = []string{
	"http_error: a non-2xx answer other than 429/503",
	"rejected: HTTP 429/503, or an admission refusal sent as an error event before any text",
	"stream_error: a broken connection, an error event, an unreadable event, a stream that ends early or breaks its bound",
	"timeout: the first-token, idle or total deadline passed",
	"empty_output: the protocol succeeded without visible text or a tool call",
}

var (
	completionsAPI = API{
		Endpoint: EndpointCompletions, Path: "/v1/completions", Description: "OpenAI completions (a prompt string)",
		Streams: true, FirstToken: true, Metrics: textMetrics,
		Throughput:     []ThroughputUnit{ThroughputRequests, ThroughputOutputTokens, ThroughputInputTokens},
		FailureReasons: textFailures, RowFields: []string{"prompt", "max_tokens", "ignore_eos", "expect", "prompt_tokens"},
		terminalName: "data: [DONE]",
	}
	chatAPI = API{
		Endpoint: EndpointChat, Path: "/v1/chat/completions", Description: "OpenAI chat completions (messages, or a prompt sent as one user message)",
		Streams: true, FirstToken: true, Metrics: textMetrics,
		Throughput:     []ThroughputUnit{ThroughputRequests, ThroughputOutputTokens, ThroughputInputTokens},
		FailureReasons: textFailures,
		RowFields: []string{"prompt", "messages", "max_tokens", "ignore_eos", "expect", "prompt_tokens",
			"conversation", "turn", "think_ms"},
		terminalName: "data: [DONE]",
	}
)

func (completionsProtocol) api() *API { return &completionsAPI }
func (chatProtocol) api() *API        { return &chatAPI }

// checkRow: a completions row needs a prompt.
func (completionsProtocol) checkRow(r *record.Request) error {
	if err := checkTextRow(r); err != nil {
		return err
	}
	if r.Prompt == "" {
		return fmt.Errorf("prompt: the completions endpoint needs a prompt and row %q has only messages (use the chat endpoint)", r.ID)
	}
	return nil
}

// checkRow: a chat row needs a prompt or messages.
func (chatProtocol) checkRow(r *record.Request) error { return checkTextRow(r) }

func (completionsProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	return c.requestBody(r, false)
}

func (chatProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	return c.requestBody(r, true)
}

func (openAIText) event(x *exchange, resp *http.Response, t time.Time, typ, data []byte) bool {
	return openAIEvent(x, resp, t, typ, data)
}

func (openAIText) whole(x *exchange, t time.Time, data []byte) { openAIWhole(x, t, data) }

func (openAIText) settle(x *exchange) { settleText(x) }

// checkTextRow checks that a row is a text-generation row: a prompt or
// messages with max_tokens, and none of the pooling APIs' fields.
func checkTextRow(r *record.Request) error {
	if f := record.PoolingField(r); f != "" {
		return fmt.Errorf("%s: a field of the embeddings and rerank endpoints, not of a text-generating one", f)
	}
	if r.Prompt == "" && len(r.Messages) == 0 {
		return errors.New("prompt or messages: one of them is required")
	}
	if r.MaxTokens <= 0 {
		return fmt.Errorf("max_tokens: must be a positive integer, got %d", r.MaxTokens)
	}
	return nil
}

// terminal names how the API's stream ends normally, for errors.
func (a *API) terminal() string {
	if a.terminalName == "" {
		return "its terminal event"
	}
	return a.terminalName
}
