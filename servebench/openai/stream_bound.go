package openai

import "fmt"

// A stream's generated events are bounded by the request's max_tokens: an
// engine emits at most one event per generated token, plus a few that
// carry no new token (an EOS piece, an empty or partial piece that
// completes a character, a tool parser's flush). A stream that goes past
// max_tokens + max_tokens/4 + streamEventMargin generated events, or past
// maxBytesPerEvent bytes of generated text per allowed event (and at
// least minTextBound bytes), breaks the
// protocol: it is ended and recorded as stream_error, and the record
// keeps no more than that bound of times and text, so one stream's memory
// is bounded whatever the server sends.
const (
	// streamEventMargin is the fixed part of the allowance beyond
	// max_tokens.
	streamEventMargin = 16
	// maxBytesPerEvent bounds the generated text per allowed event (no
	// tokenizer's token decodes to anything near it).
	maxBytesPerEvent = 1 << 10
	// minTextBound is the least generated text any stream may carry (a
	// short answer sent whole in one event is no violation).
	minTextBound = 1 << 20
	// maxEventsWithoutLimit bounds a request that declares no max_tokens.
	maxEventsWithoutLimit = 1 << 20
)

// streamEventLimit is the most generated events a stream for a request
// with maxTokens may send.
func streamEventLimit(maxTokens int) int {
	if maxTokens <= 0 {
		return maxEventsWithoutLimit
	}
	return maxTokens + maxTokens/4 + streamEventMargin
}

// boundViolation says how the stream broke its bound so far, or "" while
// it is within it. A generated event is one with visible text, reasoning
// text or a piece of a tool call.
func (x *exchange) boundViolation() string {
	limit := streamEventLimit(x.req.MaxTokens)
	if x.generated > limit {
		return fmt.Sprintf("protocol violation: more than %d generated events for max_tokens %d (the bound is max_tokens + max_tokens/4 + %d); the stream was ended",
			limit, x.req.MaxTokens, streamEventMargin)
	}
	if maxBytes := max(limit*maxBytesPerEvent, minTextBound); x.generatedBytes > maxBytes {
		return fmt.Sprintf("protocol violation: more than %d bytes of generated text for max_tokens %d (the bound is %d bytes per allowed event, at least %d); the stream was ended",
			maxBytes, x.req.MaxTokens, maxBytesPerEvent, minTextBound)
	}
	return ""
}
