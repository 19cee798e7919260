package record

import (
	"math"
	"time"
)

// TokenCountSource says where an output token count came from.
type TokenCountSource string

// The token count sources, in order of preference.
const (
	// TokensFromUsage: the server's usage object (completion_tokens).
	TokensFromUsage TokenCountSource = "usage"
	// TokensFromLogprobs: one logprob entry per token, counted by the client.
	TokensFromLogprobs TokenCountSource = "logprobs"
	// TokensEstimated: a labelled estimate, made only when asked for.
	TokensEstimated TokenCountSource = "estimate"
)

// Outcome is the record of one request attempt, written as one JSON line to
// outcomes.jsonl the moment the attempt ends. Times are milliseconds since
// the run's start instant on the client's monotonic clock; a time that did
// not happen is nil.
type Outcome struct {
	// ID is the scheduled request's identity (unique within a run).
	ID string `json:"id"`
	// Attempt counts from 1.
	Attempt int `json:"attempt"`
	// Class is the workload row's request class, if any.
	Class string `json:"class"`
	// Status is the terminal status.
	Status Status `json:"status"`

	// ScheduledMS is a: when the schedule says the request arrives.
	ScheduledMS float64 `json:"scheduled_ms"`
	// SlotMS is q: when a client concurrency slot was granted.
	SlotMS *float64 `json:"slot_ms"`
	// SentMS is d: when the request was handed to the connection.
	SentMS *float64 `json:"sent_ms"`
	// FirstContentMS is f: the first event with non-empty visible text.
	FirstContentMS *float64 `json:"first_content_ms"`
	// LastContentMS is l: the last event with non-empty visible text.
	LastContentMS *float64 `json:"last_content_ms"`
	// FirstReasoningMS is the first event with non-empty reasoning text,
	// kept apart from visible content.
	FirstReasoningMS *float64 `json:"first_reasoning_ms"`
	// TerminalMS is e: when the attempt ended, whatever the status.
	TerminalMS float64 `json:"terminal_ms"`
	// ContentMS lists the time of every content event, in order.
	ContentMS []float64 `json:"content_ms"`
	// EventTokens gives the tokens in each content event where logprobs
	// prove it; nil otherwise.
	EventTokens []int `json:"event_tokens"`

	// OutputTokens is n, the number of output tokens; nil when unknown.
	OutputTokens *int `json:"output_tokens"`
	// TokenCountSource says where OutputTokens came from.
	TokenCountSource *TokenCountSource `json:"token_count_source"`
	// PromptTokens is the server's usage.prompt_tokens; nil when not reported.
	PromptTokens *int `json:"prompt_tokens"`
	// CachedTokens is how many of the prompt tokens the engine served from
	// its prefix cache: usage.prompt_tokens_details.cached_tokens
	// (completions and chat) or usage.input_tokens_details.cached_tokens
	// (Responses). nil when the engine did not report it, which is not 0:
	// vLLM reports it only with --enable-prompt-tokens-details, SGLang only
	// with --enable-cache-report (and leaves it out when it is 0). Always
	// written; a record written before the field existed lacks it and
	// reads as nil.
	CachedTokens *int `json:"cached_tokens" strict:"optional"`
	// ReasoningTokens is the server's reasoning token count when reported.
	ReasoningTokens *int `json:"reasoning_tokens,omitempty"`
	// Items counts the inputs embedded or the documents ranked, for the
	// APIs without a first token (embeddings, rerank, pair-score); absent
	// for the others. Its presence is what tells a success without content
	// events from an empty output.
	Items *int `json:"items,omitempty"`

	// HTTPStatus is the response status code; nil when no response came.
	HTTPStatus *int `json:"http_status"`
	// Error is the failure's message (the server's own where it sent one).
	Error string `json:"error"`
	// FinishReason is the last finish_reason the server sent.
	FinishReason string `json:"finish_reason"`
	// LengthEnforced is set for rows that force their output length
	// (ignore_eos): true when the engine's length control can express it,
	// false when the engine ignores it and the length was not enforced.
	LengthEnforced *bool `json:"length_enforced,omitempty"`
	// Timeout names the deadline that ended a StatusTimeout attempt.
	Timeout *TimeoutKind `json:"timeout"`
	// Backend is the value of the client's BackendHeader in the response:
	// which backend behind a gateway served the attempt ("" when the
	// header was not asked for or not returned).
	Backend string `json:"backend,omitempty"`
	// Adapter is the LoRA adapter the attempt was sent to, from the
	// schedule's adapter mix ("base" for the base model); omitted when the
	// run has no mix.
	Adapter string `json:"adapter,omitempty"`
	// Tenant is the value of the client's tenant header (Client.TenantHeader,
	// --tenant-header) that the attempt was sent with, from the row's
	// headers or the client's; omitted when it carried none. Unlike other
	// header values it is recorded, not redacted.
	Tenant string `json:"tenant,omitempty"`
	// Objective is the value of the client's objective header
	// (Client.ObjectiveHeader, --objective-header) that the attempt was
	// sent with; omitted when it carried none. It is recorded, not
	// redacted.
	Objective string `json:"objective,omitempty"`
	// Images is the number of image parts the request sent; omitted when 0.
	Images int `json:"images,omitempty"`
	// ImageBytes is the images' encoded size in bytes (base64-decoded for
	// data: URLs), counting the images whose size is known; omitted when 0.
	ImageBytes int `json:"image_bytes,omitempty"`
	// ImagePixels is the images' width × height summed, counting the
	// images whose size is known; omitted when 0.
	ImagePixels int `json:"image_pixels,omitempty"`
	// ImageTokens is usage.prompt_tokens_details.image_tokens where the
	// engine reports it; nil (omitted) otherwise, never 0 for unknown.
	ImageTokens *int `json:"image_tokens,omitempty"`
	// AudioInputs is the number of input_audio parts the request sent;
	// omitted when 0.
	AudioInputs int `json:"audio_inputs,omitempty"`
	// AudioTokens is usage.prompt_tokens_details.audio_tokens where the
	// engine reports it; nil (omitted) otherwise, never 0 for unknown.
	AudioTokens *int `json:"audio_tokens,omitempty"`
	// SpeculativeDecoding is the request's own speculative-decoding
	// figures where the engine sends them (vLLM's
	// metrics.speculative_decoding); nil (omitted) otherwise.
	SpeculativeDecoding *SpeculativeDecoding `json:"speculative_decoding,omitempty"`
	// ReusablePromptTokens is the workload row's declared
	// reusable_prompt_tokens (record.Request.ReusablePromptTokens): how
	// many of the prompt's leading tokens an earlier row already sent,
	// which a prefix cache could serve. nil (omitted) when the row
	// declares none.
	ReusablePromptTokens *int `json:"reusable_prompt_tokens,omitempty"`
	// TimeoutDueMS is when the deadline named by Timeout was due; the
	// attempt's TerminalMS is when it fired (never earlier). Absent for
	// any other status.
	TimeoutDueMS *float64 `json:"timeout_due_ms,omitempty"`

	// Reason says more about a status where one status covers several
	// causes: ReasonRedirect for an http_error that is a redirect not
	// followed, ReasonConversationStopped or ReasonSessionTruncated for a
	// not_sent later turn. Empty otherwise.
	Reason string `json:"reason,omitempty"`

	// Text is the visible response text, kept only for rows that need
	// judging or when the run asks for it.
	Text *string `json:"text,omitempty"`
	// ToolCalls holds the arguments of tool calls in the response, kept
	// under the same rule as Text.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Quality is the judge's verdict with its evidence; nil when the row
	// carried no expectation (unscored, never passed).
	Quality *Verdict `json:"quality,omitempty"`
}

// Millis converts a duration since the run's start instant into the
// records' unit: milliseconds rounded to microsecond resolution.
func Millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// ReasonConversationStopped is the Outcome.Reason of a later turn of a
// conversation that was not sent because an earlier turn did not succeed:
// the engine's failure, not the generator's, so it stays in the
// denominator without making the load undelivered.
const ReasonConversationStopped = "conversation_stopped"

// ReasonSessionTruncated is the Outcome.Reason of a later turn of a
// session (a conversation) that was still running when a closed loop
// bounded by time reached its deadline: the turn was never due inside the
// window, so it was never scheduled, is not offered and does not make the
// load undelivered. Its ScheduledMS is when it would have been due, at or
// after the deadline.
const ReasonSessionTruncated = "session_truncated"
