package openai

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// tgiOverloadedMessage is text-generation-inference's message when its
// concurrency limit (--max-concurrent-requests) refuses a request. On its
// OpenAI-compatible routes a streamed request learns this from an error
// event after an HTTP 200, and the event's "http_status_code" is 422 for
// every kind of error (router/src/infer/mod.rs, into_openai_event), so the
// message is the only sign that the server shed load.
const tgiOverloadedMessage = "Model is overloaded"

// refusesAdmission reports whether an error event, whose message is msg,
// says that the server refused to take the request on: a status code of
// 429 or 503 inside the error ("code", as SGLang sends when its queue is
// full, or "http_status_code"), or TGI's overload refusal ("error_type"
// "overloaded" on its own routes, its fixed message on the OpenAI ones).
// The caller applies it only to an error that came before any generated
// text: once the server has produced output it had admitted the request.
func (c *wireChunk) refusesAdmission(msg string) bool {
	if c.ErrorType == "overloaded" || msg == tgiOverloadedMessage {
		return true
	}
	code := c.errorCode()
	return code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable
}

// errorCode returns the integer status code an error event carries, from
// the error object's "code" or "http_status_code", or from the top-level
// "code" of the older object form; 0 when there is none.
func (c *wireChunk) errorCode() int {
	var inner struct {
		Code           json.RawMessage `json:"code"`
		HTTPStatusCode json.RawMessage `json:"http_status_code"`
	}
	if t := bytes.TrimSpace(c.Error); len(t) > 0 && t[0] == '{' {
		_ = json.Unmarshal(t, &inner) // the chunk decoded, so the object is valid
	}
	for _, raw := range []json.RawMessage{inner.Code, inner.HTTPStatusCode, c.Code} {
		if n, err := strconv.Atoi(string(bytes.TrimSpace(raw))); err == nil {
			return n
		}
	}
	return 0
}
