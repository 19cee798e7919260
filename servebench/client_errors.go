package servebench

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
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

// redactedKey replaces the API key wherever a server echoed it.
const redactedKey = "[redacted]"

// redact removes key from s.
func redact(s, key string) string {
	if key == "" || !strings.Contains(s, key) {
		return s
	}
	return strings.ReplaceAll(s, key, redactedKey)
}

// redactOutcome removes the client's secrets from every text field of out:
// the error and finish reason lose the API key and the base URL's userinfo
// (and the error is cut to maxMessageBytes after), the response text and
// tool calls lose the API key.
func redactOutcome(out *Outcome, c *Client) {
	out.Error = truncateText(c.redactMessage(out.Error))
	out.FinishReason = c.redactMessage(out.FinishReason)
	key := c.APIKey
	if key == "" {
		return
	}
	if out.Text != nil {
		out.Text = ptr(redact(*out.Text, key))
	}
	for i := range out.ToolCalls {
		out.ToolCalls[i].Name = redact(out.ToolCalls[i].Name, key)
		out.ToolCalls[i].Arguments = redact(out.ToolCalls[i].Arguments, key)
	}
}
