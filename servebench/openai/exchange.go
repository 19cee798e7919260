package openai

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/sse"
)

// How long the client keeps reading after the outcome is decided.
const (
	// drainWait bounds reading the rest of a body after data: [DONE] or an
	// error event, so that the connection can be reused.
	drainWait = 250 * time.Millisecond
	// errorBodyWait bounds reading an error response's body.
	errorBodyWait = 2 * time.Second
	// maxDrainBytes bounds what is read and discarded after [DONE].
	maxDrainBytes = 256 << 10
	// maxErrorBody bounds the part of an error body that is examined.
	maxErrorBody = 64 << 10
	// maxWholeBody bounds a non-streaming response body.
	maxWholeBody = 64 << 20
)

// Header values shared by every request (the transport only reads them).
var (
	headerJSON        = []string{"application/json"}
	headerEventStream = []string{"text/event-stream"}
	headerUserAgent   = []string{"servebench"}
)

// exchange is the state of one request. Exchanges are pooled: everything
// handed to the Outcome is allocated afresh, everything else is reused.
type exchange struct {
	c        *Client
	proto    protocol // the Client's endpoint's; nil for an unknown one
	req      *record.Request
	out      *record.Outcome
	start    time.Time // the run's start instant
	begin    time.Time // when the request was handed to the transport
	wd       *watchdog
	keepText bool
	settled  bool // the protocol ended normally ([DONE] or a whole body)

	gotConnFn func(httptrace.GotConnInfo) // x.gotConn, bound once
	body      clockedBody
	sse       *sse.Reader
	chunk     wireChunk
	text      strings.Builder
	tools     []*toolAccum

	events     int // data events decoded
	textEvents int // events with visible or reasoning text
	textBytes  int // their bytes
	// generated counts events with visible text, reasoning or a tool
	// call's piece, and generatedBytes their bytes (see boundViolation).
	generated, generatedBytes int
	visible                   bool
	eventTokens               []int

	responses responsesState // a Responses stream's sequence
	messages  messagesState  // a Messages stream's usage and tool_use blocks

	decoder                     *chunkDecoder
	finalUsage, lastUsage       wireUsage
	hasFinalUsage, hasLastUsage bool

	logprobTotal           int
	logprobsSeen           bool
	textWithoutLogprobs    bool // an event with text or a tool piece had none
	contentWithoutLogprobs bool // a content event had none
}

// toolAccum accumulates one tool call's streamed pieces.
type toolAccum struct {
	index     int
	name, arg strings.Builder
}

// streamBufferSize is the initial buffer of an exchange's event reader. It
// lives as long as the stream: 1 KiB holds several events of a token or a
// few, reads from the connection's own 4 KiB buffer (no system call), and
// grows for a longer line; at 4 KiB it was 3 MB more per 1,000 streams.
const streamBufferSize = 1 << 10

var exchangePool = sync.Pool{New: func() any {
	x := &exchange{sse: sse.NewReaderSize(nil, streamBufferSize), decoder: new(chunkDecoder)}
	x.gotConnFn = x.gotConn
	return x
}}

// getExchange takes a clean exchange from the pool.
func getExchange(c *Client, start time.Time, req *record.Request, out *record.Outcome) *exchange {
	x := exchangePool.Get().(*exchange)
	x.c, x.req, x.out, x.start = c, req, out, start
	x.proto, _ = protocolFor(c.ResolvedEndpoint())
	x.keepText = c.KeepText || req.Expect != nil || req.KeepText
	clearOutcome(out)
	return x
}

// putExchange resets x and returns it to the pool.
func putExchange(x *exchange) {
	reader, gotConn, choices, decoder := x.sse, x.gotConnFn, x.chunk.Choices, x.decoder
	reader.Reset(nil)
	*x = exchange{sse: reader, gotConnFn: gotConn, chunk: wireChunk{Choices: choices}, decoder: decoder}
	x.chunk.reset()
	exchangePool.Put(x)
}

// clearOutcome zeroes the fields Do owns.
func clearOutcome(out *record.Outcome) {
	out.Status, out.SentMS, out.FirstContentMS, out.LastContentMS = "", nil, nil, nil
	out.FirstReasoningMS, out.TerminalMS, out.ContentMS, out.EventTokens = nil, 0, nil, nil
	out.OutputTokens, out.TokenCountSource, out.PromptTokens, out.ReasoningTokens = nil, nil, nil, nil
	out.HTTPStatus, out.Error, out.FinishReason, out.Timeout, out.TimeoutDueMS = nil, "", "", nil, nil
	out.Text, out.ToolCalls, out.LengthEnforced, out.Reason, out.Items = nil, nil, nil, "", nil
}

// ms converts an instant into the records' unit.
func (x *exchange) ms(t time.Time) float64 { return record.Millis(t.Sub(x.start)) }

// gotConn stamps d.
func (x *exchange) gotConn(httptrace.GotConnInfo) { x.wd.markSent(time.Now()) }

// run sends the request and reads the response into x.out.
func (x *exchange) run(ctx context.Context, requestID string) {
	x.out.LengthEnforced = x.c.LengthControl.Enforces(x.req)
	if x.proto == nil {
		x.end(record.StatusNotSent, time.Now(), fmt.Sprintf("request not sent: unknown endpoint %q: want one of %s", x.c.Endpoint, record.EndpointList()))
		return
	}
	body, stream, err := x.proto.body(x.c, x.req)
	if err != nil {
		x.end(record.StatusNotSent, time.Now(), "request not sent: "+err.Error())
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The trace is not pooled: the transport may still look at it after
	// Do returns (and WithClientTrace rewrites its hooks to compose them
	// with a trace already in ctx).
	trace := &httptrace.ClientTrace{GotConn: x.gotConnFn}
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(rctx, trace), http.MethodPost, x.c.endpointURL(), body.reader())
	if err != nil {
		x.end(record.StatusNotSent, time.Now(), "request not sent: "+err.Error())
		return
	}
	hreq.ContentLength = body.size
	hreq.GetBody = func() (io.ReadCloser, error) { return body.reader(), nil }
	h := hreq.Header
	x.c.setHeaders(h)
	setRowHeaders(h, x.req)
	h["Content-Type"] = headerJSON
	h["User-Agent"] = headerUserAgent
	if stream {
		h["Accept"] = headerEventStream
	} else {
		h["Accept"] = headerJSON
	}
	if requestID != "" {
		h["X-Request-Id"] = []string{requestID}
	}

	x.begin = time.Now()
	firstToken, idle, total := x.c.Deadlines()
	x.wd = newWatchdog(x.begin, firstToken, idle, total, cancel)
	defer x.wd.stop()
	resp, err := x.c.send(hreq, body)
	if err != nil {
		x.failed(ctx, err, time.Now())
		return
	}
	defer resp.Body.Close()
	if x.wd.sent.Load() == 0 {
		x.wd.markSent(x.begin)
	}
	x.out.HTTPStatus = new(resp.StatusCode)
	if x.c.BackendHeader != "" {
		x.out.Backend = resp.Header.Get(x.c.BackendHeader)
	}
	switch {
	case isRedirect(resp.StatusCode):
		x.redirected(resp)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		x.httpError(resp)
	case stream:
		x.readStream(ctx, resp)
	default:
		x.readWhole(ctx, resp)
	}
}

// end records a terminal status decided at t. The message loses its
// secrets first and is cut to maxMessageBytes after.
//
// The terminal time is never before an event the request recorded: an
// event already buffered when a deadline closed the body, or read after an
// error line, can come after the instant the end was decided, and the
// request then ended with it.
func (x *exchange) end(status record.Status, t time.Time, msg string) {
	x.out.Status, x.out.TerminalMS, x.out.Error = status, x.ms(t), truncateText(x.c.redactorFor(x.req).Redact(msg))
	if n := len(x.out.ContentMS); n > 0 {
		x.out.TerminalMS = max(x.out.TerminalMS, x.out.ContentMS[n-1])
	}
	if r := x.out.FirstReasoningMS; r != nil {
		x.out.TerminalMS = max(x.out.TerminalMS, *r)
	}
}

// failed ends a request whose transport call or body read failed at t:
// a passed deadline, a cancelled run, or a broken connection.
func (x *exchange) failed(ctx context.Context, err error, t time.Time) {
	if kind, at, due := x.wd.expired(); kind != deadlineNone {
		x.timedOut(kind, at, due)
		return
	}
	if ctx.Err() != nil {
		if x.wd.sent.Load() == 0 {
			x.end(record.StatusNotSent, t, "run cancelled before the request was sent: "+context.Cause(ctx).Error())
		} else {
			x.end(record.StatusCancelled, t, "run cancelled while the request was in flight: "+context.Cause(ctx).Error())
		}
		return
	}
	x.end(record.StatusStreamError, t, "connection failed: "+err.Error())
}

// timedOut records a passed deadline: which one, when it was due, and at,
// when it fired, as the terminal time.
func (x *exchange) timedOut(kind deadlineKind, at, due time.Time) {
	var msg string
	firstToken, idle, total := x.c.Deadlines()
	switch kind {
	case deadlineFirstToken:
		msg = fmt.Sprintf("no content within %v of sending (first-token timeout)", firstToken)
	case deadlineIdle:
		msg = fmt.Sprintf("no stream line for %v (idle timeout)", idle)
	default:
		msg = fmt.Sprintf("request not finished within %v (total timeout)", total)
	}
	x.end(record.StatusTimeout, at, msg)
	x.out.Timeout = new(kind.timeoutKind())
	x.out.TimeoutDueMS = new(x.ms(due))
}

// httpError records a non-2xx response with the server's message.
func (x *exchange) httpError(resp *http.Response) {
	x.wd.settle(time.Now(), errorBodyWait)
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	t := time.Now()
	drain(resp.Body)
	msg := serverMessage(data)
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	status := record.StatusHTTPError
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		status = record.StatusRejected
	}
	x.end(status, t, fmt.Sprintf("HTTP %d: %s", resp.StatusCode, msg))
}

// redirected records a redirect that was not followed: an http_error
// whose Reason is ReasonRedirect and whose message names the status and
// the target's origin only.
func (x *exchange) redirected(resp *http.Response) {
	x.wd.settle(time.Now(), errorBodyWait)
	t := time.Now()
	drain(resp.Body)
	x.end(record.StatusHTTPError, t, redirectMessage(resp.Request.URL, resp))
	x.out.Reason = ReasonRedirect
}

// drain reads what is left of a body, within bounds, so that the transport
// can reuse the connection (it closes a connection whose body was not
// read to the end).
func drain(r io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, maxDrainBytes))
}

// clockedBody wraps a response body: it records when each read returned
// bytes, tells the watchdog whenever a read completed a line, and watches
// for a nonstandard "error:" line (see errorField).
type clockedBody struct {
	r        io.Reader
	wd       *watchdog
	readAt   time.Time
	err      error
	errField errorField
}

// Read reads from the body and stamps the bytes' arrival.
func (b *clockedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.readAt = b.wd.now()
		if bytes.IndexByte(p[:n], '\n') >= 0 || bytes.IndexByte(p[:n], '\r') >= 0 {
			b.wd.markLine(b.readAt)
		}
		b.errField.scan(p[:n], b.readAt)
	}
	if err != nil {
		b.err = err
	}
	return n, err
}
