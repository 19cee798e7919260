package record

import "slices"

// Status is the terminal status of one request attempt.
type Status string

// The terminal statuses. Every attempt ends in exactly one of them.
const (
	// StatusSuccess: the stream ended normally ([DONE] or a complete
	// non-streaming body) with visible content.
	StatusSuccess Status = "success"
	// StatusHTTPError: the server answered with a non-2xx status other than
	// an admission rejection.
	StatusHTTPError Status = "http_error"
	// StatusStreamError: the connection failed, the stream ended without
	// [DONE], or the server sent an error event or an unreadable event.
	StatusStreamError Status = "stream_error"
	// StatusTimeout: a declared deadline passed (see TimeoutKind).
	StatusTimeout Status = "timeout"
	// StatusRejected: admission was refused: HTTP 429 or 503, or a refusal
	// sent as an error event before any text inside a 200 stream (SGLang's
	// full queue, TGI's "Model is overloaded").
	StatusRejected Status = "rejected"
	// StatusCancelled: the run was cancelled while the request was in flight.
	StatusCancelled Status = "cancelled"
	// StatusNotSent: the request was scheduled but never handed to the
	// connection.
	StatusNotSent Status = "not_sent"
	// StatusEmptyOutput: the protocol succeeded but no visible content came
	// back, which the text-response contract counts as a failure.
	StatusEmptyOutput Status = "empty_output"
	// StatusInvalidResponse: an HTTP success whose body contradicts the
	// request: the wrong number or dimension of embedding vectors, rerank
	// indices that do not cover the documents sent, or Responses events
	// out of sequence.
	StatusInvalidResponse Status = "invalid_response"
)

// statuses are the declared statuses in report order.
var statuses = [...]Status{
	StatusSuccess, StatusHTTPError, StatusStreamError, StatusTimeout,
	StatusRejected, StatusCancelled, StatusNotSent, StatusEmptyOutput,
	StatusInvalidResponse,
}

// Statuses lists every Status in a stable order, for reports and
// validation. The slice is the caller's own.
func Statuses() []Status { return slices.Clone(statuses[:]) }

// Valid reports whether s is one of the declared statuses.
func (s Status) Valid() bool {
	for _, k := range statuses {
		if s == k {
			return true
		}
	}
	return false
}

// TimeoutKind names the deadline that ended a request with StatusTimeout.
type TimeoutKind string

// The declared deadlines.
const (
	// TimeoutFirstToken: no content arrived within the first-token deadline
	// after the request was sent.
	TimeoutFirstToken TimeoutKind = "first_token"
	// TimeoutIdle: the gap between two stream events exceeded the idle
	// deadline.
	TimeoutIdle TimeoutKind = "idle"
	// TimeoutTotal: the request did not end within its total deadline.
	TimeoutTotal TimeoutKind = "total"
)
