package openai

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/servebench/record"
)

// Client sends requests to an OpenAI-compatible endpoint (completions and
// chat, described here; the Responses, embeddings and ranking APIs are
// described in protocol_responses.go, protocol_embeddings.go and
// protocol_rerank.go), streamed over Server-Sent Events or not, and turns
// each into the timing and status fields of an Outcome. One Client is safe for
// concurrent use by many goroutines; do not change its fields while it is
// in use. The zero Client (with a BaseURL and a Model) is NewClient's:
// streamed chat completions with the default deadlines.
//
// # Clocks
//
// Every time is read from the monotonic clock and recorded as
// millis(t - start), where start is the run's start instant:
//
//   - SentMS (d) is stamped when the transport has obtained a connection
//     for the request and is about to write it (httptrace GotConn): the
//     closest observable point to "handed to the connection". Waiting for
//     a connection and dialing a new one come before d and so show up in
//     schedule lag (d - a); writing the request and everything after it is
//     inside TTFT. With a custom transport that never reports GotConn, d
//     falls back to the instant the request was handed to the transport.
//   - An event's time is when the read that completed it returned from the
//     connection, so events that arrived together share a time and parsing
//     one event never delays the next one's stamp.
//   - FirstContentMS (f) is the first event with non-empty visible text:
//     choices[0].text (completions) or choices[0].delta.content (chat), or
//     a non-empty piece of a tool call's name or arguments (a tool call is
//     the visible output of a tool-calling request). A role-only delta, an
//     empty string, a comment line (keepalive), a finish-only event and a
//     usage-only event are not content. delta.reasoning_content (or
//     delta.reasoning) is reasoning: FirstReasoningMS records its first
//     event, and it never counts as content.
//   - ContentMS holds every content event's time; LastContentMS (l) is the
//     last of them.
//   - TerminalMS (e) is when data: [DONE] arrived, or when the error, the
//     deadline or the cancellation ended the attempt.
//
// Without streaming the whole body arrives at once: f = l = the time the
// body was fully read, so TTFT equals E2E and there is one content event.
//
// # Deadlines
//
// FirstTokenTimeout runs from d until the first content event (response
// headers that never come count here; comments and role-only events do not
// stop it). IdleTimeout bounds the gap between two received stream lines,
// events or comments alike, from the first line on; before any line arrives
// only the first-token and total deadlines apply. TotalTimeout runs from
// the hand-over to the transport. The deadlines
// are enforced together: whichever is due first ends the request, and a
// long one never delays a short one (before the first line the timer looks
// again at least once per IdleTimeout). A zero deadline field stands for
// its default (DefaultTotalTimeout, DefaultIdleTimeout, no first-token
// deadline); NoDeadline disables it. Outcome.Timeout names the deadline
// that fired, Outcome.TimeoutDueMS says when it was due, and TerminalMS is
// when it fired. The deadlines share one lazily re-armed timer per request
// (no goroutine or timer reset per event).
//
// # Statuses
//
// HTTP 429 and 503 are rejected; any other non-2xx status is http_error
// with the server's message. A connection failure or reset, a stream that
// ends without data: [DONE], an error event (a JSON object with a non-null
// "error", with or without "event: error"), an event whose data is not a
// readable JSON chunk, or a 2xx non-streaming body that carries an error
// is stream_error, and so is a stream that breaks its bound (more generated
// events than max_tokens allows, see streamEventLimit, or too much text):
// its error starts "protocol violation". A protocol success without
// visible text or tool call is
// empty_output. A passed deadline is timeout with Outcome.Timeout naming
// it. A cancelled ctx is cancelled, or not_sent if the request had not yet
// been handed to a connection (likewise a body that cannot be built). An
// event whose data is empty is ignored, like a comment.
//
// Real engines add three cases, each checked against the engine's source:
//
//   - An error event before any generated text that refuses admission is
//     rejected, like a 429 or 503, although the HTTP status was 200: its
//     error carries code 429 or 503 (SGLang when its queue is full), or it
//     is TGI's "Model is overloaded" (TGI's OpenAI routes stream every
//     error, overload included, after a 200 and mark each 422). After
//     generated text, an error event is always stream_error.
//   - A stream that reaches data: [DONE] after a finish_reason of "abort"
//     or "error" is stream_error, not success: SGLang ends an aborted
//     request that way, with whatever text it had produced.
//   - A stream line "error: {...}" is stream_error with the server's
//     message. The event-stream standard has no "error" field, but
//     llama.cpp's server sent its mid-stream failures so (then data:
//     [DONE]) until late 2025; read by the standard alone, such a stream
//     would pass as a success.
//
// # Token counts
//
// Usage is read from the chunk whose "choices" is empty (the include_usage
// chunk). A usage object riding on a chunk with choices is used only when
// no such chunk came, and only the last one with completion_tokens > 0:
// Ollama puts a zero usage on every completions chunk. OutputTokens comes
// from usage.completion_tokens ("usage"); else from the number of logprob
// entries, when every event with text carried logprobs ("logprobs"); else,
// only with EstimateTokens, from an estimate ("estimate": the larger of the
// number of events with text and a quarter of the text's UTF-8 bytes,
// reasoning included); else it stays nil. EventTokens holds the logprob
// entries of each content event, only when every content event carried
// logprobs. Only choice index 0 is read.
type Client struct {
	// BaseURL is the server's root, such as "http://127.0.0.1:8000" (a
	// trailing "/v1" is accepted).
	BaseURL string
	// Model is sent as "model".
	Model string
	// Endpoint selects the API (see record.Endpoints); empty is chat.
	Endpoint record.Endpoint
	// APIKey, when set, is sent as "Authorization: Bearer <key>" (as
	// "x-api-key: <key>" on the messages endpoint). It is
	// never written to a record, log, error or report: a server message
	// that echoes it is redacted, and the Client's String, GoString and
	// JSON forms leave it out.
	APIKey string `json:"-"`
	// Header holds extra headers sent with every request (a gateway's
	// key, a tenant): each value is a secret, redacted wherever a server
	// echoes it (see Redactor). A header the Client sets itself
	// (Authorization, X-Api-Key, Content-Type, Accept, X-Request-Id, and those the
	// transport owns) cannot be replaced: see ValidateExtraHeader.
	Header http.Header `json:"-"`
	// Redirects says which redirects are followed: none (the zero value;
	// a 3xx response is an http_error with Reason "redirect") or
	// RedirectSameOrigin (only within the base URL's origin, keeping the
	// method and body). No request, and so no credential, goes to another
	// origin.
	Redirects RedirectPolicy
	// NoStream sends a non-streaming request (the command's --no-stream);
	// without it a Server-Sent Events stream is asked for.
	NoStream bool
	// HTTPClient sends the requests; nil uses one shared client with the
	// transport of NewTransport.
	HTTPClient *http.Client `json:"-"`
	// FirstTokenTimeout, IdleTimeout and TotalTimeout are the request's
	// deadlines (see Deadlines above): zero stands for the default,
	// NoDeadline for none. Deadlines says which apply.
	FirstTokenTimeout, IdleTimeout, TotalTimeout time.Duration
	// LengthControl says how a row's IgnoreEOS is expressed for this
	// engine.
	LengthControl LengthControl
	// KeepText keeps every response's text and tool calls in its record.
	// Without it they are kept only for rows with an expectation to judge.
	KeepText bool
	// BackendHeader, when set, names a response header that says which
	// backend served the request (one a gateway in front of several
	// replicas is set up to return); its value is recorded in each
	// outcome's Backend, and the report breaks the run down by it.
	BackendHeader string
	// TenantHeader names the request header whose value is the request's
	// tenant (record.DefaultTenantHeader when empty): the value a request
	// is sent with, from its row's headers (record.Request.Headers) or
	// from Header, is recorded in its outcome's Tenant, and the report
	// breaks the run down by it. Its values are recorded, not redacted.
	TenantHeader string
	// ObjectiveHeader names the request header whose value is the
	// request's objective, its priority band (record.DefaultObjectiveHeader
	// when empty): recorded in the outcome's Objective, not redacted, for
	// the report's shed-order check.
	ObjectiveHeader string
	// EstimateTokens allows a labelled estimate of the output token count
	// when neither usage nor logprobs give one.
	EstimateTokens bool
	// Logprobs asks for logprobs, so that each event's token count is
	// proven rather than assumed.
	Logprobs bool
	// AdapterForm says how a request's LoRA adapter (record.Request's
	// Adapter) is named in "model": by its own name (vLLM) or as
	// BASE:ADAPTER (SGLang).
	AdapterForm AdapterForm
}

// Do sends one request and fills the timing and status fields of out:
// Status, SentMS, FirstContentMS, LastContentMS, FirstReasoningMS,
// TerminalMS, ContentMS, EventTokens, the token counts, HTTPStatus, Error,
// FinishReason, Timeout, Tenant, Objective, the media counts (record.MediaOf the request:
// Images, ImageBytes, ImagePixels, AudioInputs), ImageTokens, AudioTokens,
// the row's ReusablePromptTokens, and (when
// kept) Text and ToolCalls. The caller has
// already set out.ID, Attempt, Class, ScheduledMS and SlotMS, which Do
// leaves alone. start is the run's start instant (with its monotonic
// reading); requestID is sent as the X-Request-Id header.
//
// Do never panics on server behaviour and always leaves a terminal Status
// and TerminalMS.
func (c *Client) Do(ctx context.Context, start time.Time, req *record.Request, requestID string, out *record.Outcome) {
	out.SetMedia(record.MediaOf(req))
	out.Tenant, out.Objective = c.sentValue(req, c.ResolvedTenantHeader()), c.sentValue(req, c.ResolvedObjectiveHeader())
	out.ReusablePromptTokens = req.ReusablePromptTokens
	x := getExchange(c, start, req, out)
	defer putExchange(x)
	x.run(ctx, requestID)
	x.finish()
}

// String describes the Client without its API key or the userinfo of its
// base URL.
func (c Client) String() string {
	key := "none"
	if c.APIKey != "" {
		key = redact.Marker
	}
	return fmt.Sprintf("openai.Client{BaseURL: %q, Model: %q, Endpoint: %q, APIKey: %s, NoStream: %t, "+
		"FirstTokenTimeout: %v, IdleTimeout: %v, TotalTimeout: %v, LengthControl: %q, KeepText: %t, "+
		"EstimateTokens: %t, Logprobs: %t}",
		redact.URL(c.BaseURL), c.Model, c.Endpoint, key, c.NoStream, c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout,
		c.LengthControl, c.KeepText, c.EstimateTokens, c.Logprobs)
}

// GoString is String, so that %#v does not print the API key either.
func (c Client) GoString() string { return c.String() }
