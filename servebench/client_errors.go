package servebench

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// maxMessageBytes bounds a server message copied into a record.
const maxMessageBytes = 512

// serverMessage extracts the human-readable message of an error body:
// {"error":{"message":...}}, {"error":"..."}, {"message":...} or
// {"detail":...}; otherwise the body's text, truncated.
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
	return truncateText(strings.TrimSpace(string(body)))
}

// messageOf reads an error member: a string, an object with a "message"
// string (or a nested "error"), or any other value as compact JSON text.
func messageOf(raw json.RawMessage) string {
	if !isJSONValue(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return truncateText(s)
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		if json.Unmarshal(obj.Message, &s) == nil && s != "" {
			return truncateText(s)
		}
		if m := messageOf(obj.Error); m != "" {
			return m
		}
	}
	return truncateText(string(raw))
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

// redactOutcome removes the API key from every text field of out.
func redactOutcome(out *Outcome, key string) {
	if key == "" {
		return
	}
	out.Error = redact(out.Error, key)
	out.FinishReason = redact(out.FinishReason, key)
	if out.Text != nil {
		out.Text = ptr(redact(*out.Text, key))
	}
	for i := range out.ToolCalls {
		out.ToolCalls[i].Name = redact(out.ToolCalls[i].Name, key)
		out.ToolCalls[i].Arguments = redact(out.ToolCalls[i].Arguments, key)
	}
}
