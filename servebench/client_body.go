package servebench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
func (c *Client) requestBody(req *Request) (body []byte, stream bool, err error) {
	stream = c.Stream
	if raw, ok := req.Extra["stream"]; ok {
		if err := json.Unmarshal(raw, &stream); err != nil {
			return nil, false, fmt.Errorf("extra field \"stream\": want true or false, got %s", raw)
		}
	}
	chat := c.Endpoint == EndpointChat
	if !chat && req.Prompt == "" && len(req.Messages) > 0 {
		return nil, false, errors.New("the completions endpoint needs a prompt, and the row has only messages")
	}

	buf := bytes.NewBuffer(make([]byte, 0, 256+len(req.Prompt)+messagesSize(req.Messages)))
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	first := true
	member := func(name string) bool {
		if _, overridden := req.Extra[name]; overridden {
			return false
		}
		if first {
			buf.WriteByte('{')
			first = false
		} else {
			buf.WriteByte(',')
		}
		buf.WriteByte('"')
		buf.WriteString(name)
		buf.WriteString(`":`)
		return true
	}
	value := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode ends every value with "\n"
		return nil
	}

	if member("model") {
		if err := value(c.Model); err != nil {
			return nil, false, err
		}
	}
	switch {
	case !chat:
		if member("prompt") {
			err = value(req.Prompt)
		}
	case len(req.Messages) > 0:
		if member("messages") {
			err = value(req.Messages)
		}
	default:
		if member("messages") {
			err = value([]Message{{Role: "user", Content: req.Prompt}})
		}
	}
	if err != nil {
		return nil, false, err
	}
	if req.MaxTokens > 0 && member("max_tokens") {
		buf.WriteString(strconv.Itoa(req.MaxTokens))
	}
	if member("stream") {
		buf.WriteString(strconv.FormatBool(stream))
	}
	if stream && member("stream_options") {
		buf.WriteString(`{"include_usage":true}`)
	}
	if c.Logprobs {
		if chat {
			if member("logprobs") {
				buf.WriteString("true")
			}
			if member("top_logprobs") {
				buf.WriteString("0")
			}
		} else if member("logprobs") {
			buf.WriteString("1")
		}
	}
	ignoreEOS, minTokens := c.LengthControl.lengthFields(req)
	if ignoreEOS && member("ignore_eos") {
		buf.WriteString("true")
	}
	if minTokens && member("min_tokens") {
		buf.WriteString(strconv.Itoa(req.MaxTokens))
	}
	if len(req.Extra) > 0 {
		keys := make([]string, 0, len(req.Extra))
		for k := range req.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			raw := req.Extra[k]
			if !json.Valid(raw) {
				return nil, false, fmt.Errorf("extra field %q: not valid JSON", k)
			}
			if first {
				buf.WriteByte('{')
				first = false
			} else {
				buf.WriteByte(',')
			}
			if err := value(k); err != nil {
				return nil, false, err
			}
			buf.WriteByte(':')
			buf.Write(bytes.TrimSpace(raw))
		}
	}
	if first {
		buf.WriteByte('{')
	}
	buf.WriteByte('}')
	return buf.Bytes(), stream, nil
}

// messagesSize estimates the encoded size of messages, to size the buffer.
func messagesSize(ms []Message) int {
	n := 0
	for _, m := range ms {
		n += len(m.Role) + len(m.Content) + 32
	}
	return n
}

// endpointURL joins BaseURL and the endpoint's path. BaseURL is the
// server's root ("http://host:8000"); a trailing "/v1" is accepted too.
func (c *Client) endpointURL() string {
	base := strings.TrimRight(c.BaseURL, "/")
	path := "/v1/completions"
	if c.Endpoint == EndpointChat {
		path = "/v1/chat/completions"
	}
	if strings.HasSuffix(base, "/v1") {
		path = strings.TrimPrefix(path, "/v1")
	}
	return base + path
}
