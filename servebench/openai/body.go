package openai

import (
	"errors"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench/record"
)

// requestBody renders the JSON body for req, and says whether the response
// will be a stream (the row's Extra may override "stream").
//
// Members, in order: model; prompt (completions) or messages (chat; a row
// with only a prompt is sent as one user message); max_tokens when the row
// sets it; stream; stream_options {include_usage: true} when streaming;
// logprobs when the Client asks (completions: "logprobs": 1; chat:
// "logprobs": true, "top_logprobs": 0); ignore_eos and min_tokens as the
// LengthControl says; then every member of the row's Extra in key order.
// Extra wins: a key present in Extra replaces the member of the same name,
// which is then not written at all (a JSON object never carries a key
// twice).
func (c *Client) requestBody(req *record.Request, chat bool) (body payload, stream bool, err error) {
	if stream, err = streamRequested(c, req); err != nil {
		return payload{}, false, err
	}
	if !chat && req.Prompt == "" && len(req.Messages) > 0 {
		return payload{}, false, errors.New("the completions endpoint needs a prompt, and the row has only messages")
	}
	b := newBodyWriter(256+len(req.Prompt)+messagesSize(req.Messages), req.Extra)
	if err := b.put("model", c.modelFor(req)); err != nil {
		return payload{}, false, err
	}
	switch {
	case !chat:
		err = b.put("prompt", req.Prompt)
	case len(req.Messages) > 0:
		err = b.messages("messages", req.Messages)
	default:
		err = b.messages("messages", []record.Message{{Role: "user", Content: req.Prompt}})
	}
	if err != nil {
		return payload{}, false, err
	}
	if req.MaxTokens > 0 {
		b.literal("max_tokens", strconv.Itoa(req.MaxTokens))
	}
	b.literal("stream", strconv.FormatBool(stream))
	if stream {
		b.literal("stream_options", `{"include_usage":true}`)
	}
	if c.Logprobs {
		if chat {
			b.literal("logprobs", "true")
			b.literal("top_logprobs", "0")
		} else {
			b.literal("logprobs", "1")
		}
	}
	ignoreEOS, minTokens := c.LengthControl.lengthFields(req)
	if ignoreEOS {
		b.literal("ignore_eos", "true")
	}
	if minTokens {
		b.literal("min_tokens", strconv.Itoa(req.MaxTokens))
	}
	body, err = b.finish()
	return body, stream, err
}

// messagesSize estimates the encoded size of messages, to size the buffer.
func messagesSize(ms []record.Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Role) + len(m.Content) + 32
		if m.Parts != nil {
			n += mediaSize(&m)
		}
	}
	return n
}

// endpointURL joins BaseURL and the endpoint's path. BaseURL is the
// server's root ("http://host:8000"); a trailing "/v1" is accepted too
// (for a route outside /v1, such as TEI's /rerank, the root is the URL
// without it).
func (c *Client) endpointURL() string {
	base := strings.TrimRight(c.BaseURL, "/")
	path := "/v1/completions"
	if api, ok := record.APIOf(c.ResolvedEndpoint()); ok {
		path = api.Path
	}
	return strings.TrimSuffix(base, "/v1") + path
}
