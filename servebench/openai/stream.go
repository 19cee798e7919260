package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/sse"
)

// readStream reads an event stream until data: [DONE], an error, a
// deadline or the end of the connection.
func (x *exchange) readStream(ctx context.Context, resp *http.Response) {
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		x.wd.settle(time.Now(), errorBodyWait)
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		drain(resp.Body)
		x.end(record.StatusStreamError, time.Now(), "asked for an event stream, got application/json: "+serverMessage(data))
		return
	}
	x.body = clockedBody{r: resp.Body, wd: x.wd}
	x.sse.Reset(&x.body)
	for {
		ev, err := x.sse.Next()
		if err != nil {
			x.streamEnded(ctx, err)
			return
		}
		if ev.Kind != sse.KindEvent {
			continue // a comment: alive (the idle clock saw its line), never content
		}
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		if x.proto.event(x, resp, x.body.readAt, ev.Type, data) {
			return
		}
	}
}

// openAIEvent folds one event of a completions or chat stream: an error
// event, data: [DONE], or a chunk. It returns true when the stream has
// ended.
func openAIEvent(x *exchange, resp *http.Response, t time.Time, typ, data []byte) bool {
	if string(typ) == "error" {
		x.streamError(resp, t, "error event: "+serverMessage(data))
		return true
	}
	if string(data) == "[DONE]" {
		if f := &x.body.errField; f.seen {
			x.streamError(resp, f.at, "error line: "+f.message())
			return true
		}
		x.settleAt(resp, t)
		return true
	}
	x.events++
	x.chunk.reset()
	if !decodeChunkFast(data, &x.chunk) {
		x.chunk.reset()
		if err := x.decoder.decode(data, &x.chunk); err != nil {
			x.streamError(resp, t, fmt.Sprintf("event %d is not a readable chunk: %v: %s", x.events, err, quoteData(string(data))))
			return true
		}
	}
	if msg, isErr := x.chunk.errorMessage(); isErr {
		if x.textEvents == 0 && !x.visible && x.chunk.refusesAdmission(msg) {
			x.end(record.StatusRejected, t, "error event, admission refused: "+msg)
			x.wd.settle(t, drainWait)
			drain(resp.Body)
			return true
		}
		x.streamError(resp, t, "error event: "+msg)
		return true
	}
	x.apply(t, false)
	if msg := x.boundViolation(); msg != "" {
		x.streamError(resp, t, msg)
		return true
	}
	return false
}

// settleAt ends a stream that reached its protocol's normal end at t, and
// reads what is left so that the connection can be reused.
func (x *exchange) settleAt(resp *http.Response, t time.Time) {
	x.settled = true
	x.out.TerminalMS = x.ms(t)
	x.wd.settle(t, drainWait)
	drain(resp.Body)
}

// streamError ends the request at t with a stream error, then reads what
// the server still sends (often data: [DONE]) so that the connection can
// be reused.
func (x *exchange) streamError(resp *http.Response, t time.Time, msg string) {
	x.end(record.StatusStreamError, t, msg)
	x.wd.settle(t, drainWait)
	drain(resp.Body)
}

// streamEnded classifies the end of a stream that stopped before [DONE].
func (x *exchange) streamEnded(ctx context.Context, err error) {
	now := time.Now()
	if src := x.body.err; src != nil && src != io.EOF {
		x.failed(ctx, src, now)
		return
	}
	if kind, at, due := x.wd.expired(); kind != deadlineNone {
		x.timedOut(kind, at, due)
		return
	}
	if f := &x.body.errField; f.seen {
		x.end(record.StatusStreamError, f.at, "error line: "+f.message())
		return
	}
	terminal := x.proto.terminal()
	switch {
	case errors.Is(err, io.EOF):
		x.end(record.StatusStreamError, now, "stream ended without "+terminal)
	case errors.Is(err, io.ErrUnexpectedEOF):
		x.end(record.StatusStreamError, now, "stream ended inside an event, without "+terminal)
	default:
		x.end(record.StatusStreamError, now, "stream unreadable: "+err.Error())
	}
}

// readWhole reads a non-streaming response: one JSON body whose arrival is
// the first and last content time.
func (x *exchange) readWhole(ctx context.Context, resp *http.Response) {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxWholeBody+1))
	t := time.Now()
	if err != nil {
		x.failed(ctx, err, t)
		return
	}
	x.wd.settle(t, drainWait)
	if len(data) > maxWholeBody {
		x.end(record.StatusStreamError, t, fmt.Sprintf("response body larger than %d bytes", maxWholeBody))
		return
	}
	x.proto.whole(x, t, bytes.TrimSpace(data))
}

// openAIWhole folds a whole completions or chat body received at t.
func openAIWhole(x *exchange, t time.Time, data []byte) {
	x.chunk.reset()
	if err := x.decoder.decode(data, &x.chunk); err != nil {
		x.end(record.StatusStreamError, t, fmt.Sprintf("response body is not a readable completion: %v: %s", err, quoteData(string(data))))
		return
	}
	if msg, isErr := x.chunk.errorMessage(); isErr {
		x.end(record.StatusStreamError, t, "error in a 2xx response: "+msg)
		return
	}
	x.events = 1
	x.apply(t, true)
	x.settled = true
	x.out.TerminalMS = x.ms(t)
}

// apply folds one decoded chunk, received at t, into the request's state.
// whole is true for a non-streaming body, whose usage rides with its
// choices and whose chat output is in "message".
func (x *exchange) apply(t time.Time, whole bool) {
	ch := &x.chunk
	if sd := ch.speculativeDecoding(); sd != nil {
		x.out.SpeculativeDecoding = sd
	}
	if u, ok := ch.usage(); ok {
		switch {
		case len(ch.Choices) == 0 || whole:
			x.finalUsage, x.hasFinalUsage = u, true
		case u.CompletionTokens.ok && u.CompletionTokens.v > 0:
			x.lastUsage, x.hasLastUsage = u, true
		}
	}
	for i := range ch.Choices {
		c := &ch.Choices[i]
		if c.Index != 0 {
			continue
		}
		m := &c.Delta
		if whole {
			m = &c.Message
		}
		x.applyChoice(t, c, m, whole)
		return
	}
}

// applyChoice folds choice 0 of a chunk into the request's state.
func (x *exchange) applyChoice(t time.Time, c *wireChoice, m *wireMessage, whole bool) {
	out := x.out
	if c.FinishReason != "" {
		out.FinishReason = c.FinishReason
	}
	visible := len(c.Text) > 0 || len(m.Content) > 0
	reasoning := m.reasoning()
	toolPiece := false
	for j := range m.ToolCalls {
		tc := &m.ToolCalls[j]
		if tc.Function.Name == "" && tc.Function.Arguments == "" {
			continue
		}
		toolPiece = true
		if x.keepText {
			index := tc.Index
			if whole {
				index = j // a whole message lists its calls without indexes
			}
			x.addToolPiece(index, tc.Function.Name, tc.Function.Arguments)
		}
	}
	if x.keepText {
		x.text.WriteString(c.Text)
		x.text.WriteString(m.Content)
	}

	entries, hasLogprobs := c.Logprobs.entries()
	if hasLogprobs {
		x.logprobTotal += entries
		x.logprobsSeen = true
	}
	if visible || reasoning != "" || toolPiece {
		x.generated++
		x.generatedBytes += len(c.Text) + len(m.Content) + len(reasoning)
		for j := range m.ToolCalls {
			x.generatedBytes += len(m.ToolCalls[j].Function.Name) + len(m.ToolCalls[j].Function.Arguments)
		}
		if !hasLogprobs {
			x.textWithoutLogprobs = true
		}
		if visible || reasoning != "" {
			x.textEvents++
			x.textBytes += len(c.Text) + len(m.Content) + len(reasoning)
		}
	}
	if reasoning != "" && out.FirstReasoningMS == nil {
		out.FirstReasoningMS = new(x.ms(t))
	}
	if !visible && !toolPiece {
		return
	}
	at := x.ms(t)
	if out.ContentMS == nil {
		out.ContentMS = make([]float64, 0, min(max(x.req.MaxTokens, 16), 1024))
		out.FirstContentMS = new(at)
		x.wd.markContent()
	}
	out.ContentMS = append(out.ContentMS, at)
	x.visible = true
	if hasLogprobs {
		if x.eventTokens == nil {
			x.eventTokens = make([]int, 0, cap(out.ContentMS))
		}
		x.eventTokens = append(x.eventTokens, entries)
	} else {
		x.contentWithoutLogprobs = true
	}
}

// addToolPiece appends a piece of tool call index's name and arguments.
func (x *exchange) addToolPiece(index int, name, args string) {
	var acc *toolAccum
	for _, a := range x.tools {
		if a.index == index {
			acc = a
			break
		}
	}
	if acc == nil {
		acc = &toolAccum{index: index}
		x.tools = append(x.tools, acc)
	}
	acc.name.WriteString(name)
	acc.arg.WriteString(args)
}
