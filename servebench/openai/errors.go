package openai

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/servebench/servebench/servebench/record"
)

// maxMessageBytes bounds a record's error message. Messages are cut to it
// only when the record is written (exchange.end), after the secrets are
// redacted, so that a cut never leaves part of a secret behind.
const maxMessageBytes = 512

// maxQuotedBytes bounds the raw data quoted in a message before it is
// redacted and cut: far more than maxMessageBytes, so that the final cut,
// not this one, decides what a record shows.
const maxQuotedBytes = 16 << 10

// serverMessage extracts the human-readable message of an error body:
// {"error":{"message":...}}, {"error":"..."}, {"message":...} or
// {"detail":...}; otherwise the body's text. The message is not cut to
// maxMessageBytes here: that happens after redaction.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		for _, raw := range []json.RawMessage{v.Error, v.Message, v.Detail} {
			if m := messageOf(raw); m != "" {
				return m
			}
		}
	}
	return quoteData(strings.TrimSpace(string(body)))
}

// messageOf reads an error member: a string, an object with a "message"
// string (or a nested "error"), or any other value as compact JSON text.
func messageOf(raw json.RawMessage) string {
	if !isJSONValue(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return quoteData(s)
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		if json.Unmarshal(obj.Message, &s) == nil && s != "" {
			return quoteData(s)
		}
		if m := messageOf(obj.Error); m != "" {
			return m
		}
	}
	return quoteData(string(raw))
}

// quoteData bounds raw data quoted in a message to maxQuotedBytes, on a
// rune boundary; the record's own cut comes later.
func quoteData(s string) string {
	if len(s) <= maxQuotedBytes {
		return s
	}
	cut := maxQuotedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// truncateText cuts s to maxMessageBytes on a rune boundary, marking the
// cut.
func truncateText(s string) string {
	if len(s) <= maxMessageBytes {
		return s
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(truncated)"
}

// redactOutcome removes the client's secrets and those of req's headers
// (see Client.redactorFor) from
// every text field of out that the server can fill: the error (cut to
// maxMessageBytes only after), the finish reason, the response text and
// the tool calls. It is the step every parser's record goes through before
// it is written.
func redactOutcome(out *record.Outcome, c *Client, req *record.Request) {
	r := c.redactorFor(req)
	out.Error = truncateText(r.Redact(out.Error))
	if r.Empty() {
		return
	}
	out.FinishReason = r.Redact(out.FinishReason)
	if out.Text != nil {
		out.Text = new(r.Redact(*out.Text))
	}
	for i := range out.ToolCalls {
		out.ToolCalls[i].Name = r.Redact(out.ToolCalls[i].Name)
		out.ToolCalls[i].Arguments = r.Redact(out.ToolCalls[i].Arguments)
	}
}
