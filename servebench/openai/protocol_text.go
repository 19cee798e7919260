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

func (completionsProtocol) endpoint() record.Endpoint { return record.EndpointCompletions }
func (chatProtocol) endpoint() record.Endpoint        { return record.EndpointChat }

// terminal: both streams end with data: [DONE].
func (openAIText) terminal() string { return "data: [DONE]" }

// carries: a text row's inputs are its prompt or messages.
func (openAIText) carries(r *record.Request) bool { return textCarries(r) }

// textCarries reports whether r holds a prompt or messages.
func textCarries(r *record.Request) bool { return r.Prompt != "" || len(r.Messages) > 0 }

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
