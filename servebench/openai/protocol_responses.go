package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// responsesProtocol is the OpenAI Responses API, /v1/responses. Its stream
// is typed events: each data: JSON carries "type" and "sequence_number",
// and the stream ends with a terminal event (response.completed,
// response.incomplete or response.failed), not data: [DONE].
//
// Clocks: f is the first response.output_text.delta with text (or the
// first piece of a function call's arguments, as for chat tool calls);
// response.reasoning_text.delta and response.reasoning_summary_text.delta
// are reasoning (FirstReasoningMS), never content. A delta's "logprobs"
// prove its token count, under the same ITL rules as chat.
//
// Usage comes from the terminal event's response.usage: input_tokens,
// input_tokens_details.cached_tokens, output_tokens and
// output_tokens_details.reasoning_tokens, recorded as chat usage is
// ("usage").
//
// Outcomes: response.completed is the normal end (finish "stop");
// response.incomplete for max_output_tokens ends like a chat "length"
// finish; response.incomplete for any other reason, response.failed and an
// error event are stream_error with the server's reason; a stream that
// ends without a terminal event is stream_error; an event whose
// sequence_number does not follow the previous one is invalid_response.
type responsesProtocol struct{}

func (responsesProtocol) endpoint() record.Endpoint { return record.EndpointResponses }

// carries: a Responses row's inputs are its prompt or messages.
func (responsesProtocol) carries(r *record.Request) bool { return textCarries(r) }

// terminal: the stream ends with a terminal event.
func (responsesProtocol) terminal() string {
	return "a terminal event (response.completed, response.incomplete or response.failed)"
}

// chatOnlyExtra are request members of the chat API that the Responses API
// names otherwise or does not have.
var chatOnlyExtra = map[string]string{
	"messages": "input", "max_tokens": "max_output_tokens", "max_completion_tokens": "max_output_tokens",
	"stream_options": "", "logprobs": "include", "top_logprobs": "", "n": "", "response_format": "text.format",
}

// checkRow: a Responses row is a chat row without chat-only fields.
func (responsesProtocol) checkRow(r *record.Request) error {
	if err := checkTextRow(r); err != nil {
		return err
	}
	if r.IgnoreEOS {
		return errors.New("ignore_eos: the Responses API cannot force an output length")
	}
	for k := range r.Extra {
		if instead, chatOnly := chatOnlyExtra[k]; chatOnly {
			if instead != "" {
				return fmt.Errorf("extra.%s: a chat-only field; the Responses API calls it %s", k, instead)
			}
			return fmt.Errorf("extra.%s: a chat-only field the Responses API does not have", k)
		}
	}
	return nil
}

// body writes model; input (the prompt as a string, or every message,
// earlier turns included, as an input item: the request is stateless);
// max_output_tokens; stream; store false; then the row's Extra.
func (responsesProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	b, stream, err := startTextBody(c, r)
	if err != nil {
		return payload{}, false, err
	}
	if len(r.Messages) > 0 {
		err = b.responsesInput("input", r.Messages)
	} else {
		err = b.put("input", r.Prompt)
	}
	if err != nil {
		return payload{}, false, err
	}
	if r.MaxTokens > 0 {
		b.literal("max_output_tokens", strconv.Itoa(r.MaxTokens))
	}
	b.literal("stream", strconv.FormatBool(stream))
	b.literal("store", "false")
	body, err := b.finish()
	return body, stream, err
}

// wireResponseEvent is one typed event of a Responses stream. One is
// reused for every event of a request. A delta event is read by
// decodeResponseDeltaFast without allocating (its Delta then aliases the
// event's bytes); any other by encoding/json, which allocates the delta's
// text and a terminal event's response object.
type wireResponseEvent struct {
	Type           respEventType   `json:"type"`
	SequenceNumber optInt          `json:"sequence_number"`
	OutputIndex    int             `json:"output_index"`
	Delta          string          `json:"delta"`
	Logprobs       arrayLen        `json:"logprobs"`
	Response       *wireResponse   `json:"response"`
	Message        string          `json:"message"`
	Error          json.RawMessage `json:"error"`
}

// wireResponse is the response object of a terminal event, or a whole
// non-streaming answer.
type wireResponse struct {
	Status            string `json:"status"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error  json.RawMessage `json:"error"`
	Output []struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Arguments string `json:"arguments"`
		Name      string `json:"name"`
	} `json:"output"`
	Usage *struct {
		InputTokens        optInt `json:"input_tokens"`
		OutputTokens       optInt `json:"output_tokens"`
		InputTokensDetails struct {
			CachedTokens optInt `json:"cached_tokens"`
			ImageTokens  optInt `json:"image_tokens"`
			AudioTokens  optInt `json:"audio_tokens"`
		} `json:"input_tokens_details"`
		OutputTokensDetails struct {
			ReasoningTokens optInt `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// responsesState is what a Responses stream remembers between events,
// and the event being decoded.
type responsesState struct {
	lastSeq int
	hasSeq  bool
	ev      wireResponseEvent
}

// respEventType is the "type" of a Responses event, read without
// allocating: the types the client acts on, and respOther for the rest.
type respEventType uint8

const (
	respOther respEventType = iota
	respTextDelta
	respReasoningDelta
	respToolDelta
	respTerminal
	respError
)

// respEventTypes maps the types the client acts on.
var respEventTypes = map[string]respEventType{
	"response.output_text.delta": respTextDelta, "response.reasoning_text.delta": respReasoningDelta,
	"response.reasoning_summary_text.delta": respReasoningDelta, "response.function_call_arguments.delta": respToolDelta,
	"response.completed": respTerminal, "response.incomplete": respTerminal, "response.failed": respTerminal, "error": respError,
}

// UnmarshalJSON looks the type up without allocating (a map index with a
// converted byte slice does not copy).
func (t *respEventType) UnmarshalJSON(b []byte) error {
	*t = respOther
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		*t = respEventTypes[string(b[1:len(b)-1])]
	}
	return nil
}

// event folds one typed event. The type is the JSON's "type", or the
// event: line's when the JSON has none.
func (responsesProtocol) event(x *exchange, resp *http.Response, t time.Time, typ, data []byte) bool {
	st := &x.responses
	ev := &st.ev
	*ev = wireResponseEvent{}
	x.events++
	if !decodeResponseDeltaFast(data, ev) {
		*ev = wireResponseEvent{}
		if err := x.decoder.decode(data, ev); err != nil {
			x.streamError(resp, t, fmt.Sprintf("event %d is not a readable Responses event: %v: %s", x.events, err, quoteData(string(data))))
			return true
		}
	}
	if ev.Type == respOther && len(typ) > 0 {
		_ = ev.Type.UnmarshalJSON(strconv.AppendQuote(nil, string(typ)))
	}
	if s := ev.SequenceNumber; s.ok {
		if st.hasSeq && s.v != st.lastSeq+1 {
			x.end(record.StatusInvalidResponse, t, fmt.Sprintf("invalid response: event %d has sequence_number %d after %d", x.events, s.v, st.lastSeq))
			x.wd.settle(t, drainWait)
			drain(resp.Body)
			return true
		}
		st.lastSeq, st.hasSeq = s.v, true
	}
	switch ev.Type {
	case respTextDelta:
		x.responsesDelta(t, ev, false, false)
	case respReasoningDelta:
		x.responsesDelta(t, ev, true, false)
	case respToolDelta:
		x.responsesDelta(t, ev, false, true)
	case respTerminal:
		if msg := x.responsesTerminal(ev.Response); msg != "" {
			x.streamError(resp, t, msg)
		} else {
			x.settleAt(resp, t)
		}
		return true
	case respError:
		msg := ev.Message
		if msg == "" {
			msg = messageOf(ev.Error)
		}
		x.streamError(resp, t, "error event: "+msg)
		return true
	}
	if msg := x.boundViolation(); msg != "" {
		x.streamError(resp, t, msg)
		return true
	}
	return false
}

// responsesDelta folds a text, reasoning or function-call delta through
// the chat rules (see applyChoice), so that the clocks, the kept text and
// the bounds are counted alike.
func (x *exchange) responsesDelta(t time.Time, ev *wireResponseEvent, reasoning, tool bool) {
	var c wireChoice
	switch {
	case reasoning:
		c.Delta.ReasoningContent = ev.Delta
	case tool:
		c.Delta.ToolCalls = []wireToolCall{{Index: ev.OutputIndex}}
		c.Delta.ToolCalls[0].Function.Arguments = ev.Delta
	default:
		c.Delta.Content = ev.Delta
	}
	if ev.Logprobs.set {
		c.Logprobs.Content = ev.Logprobs
	}
	x.applyChoice(t, &c, &c.Delta, false)
}

// responsesTerminal folds a terminal response object: its usage and how
// it ended. It returns the failure message of a response that failed, ""
// for a normal end.
func (x *exchange) responsesTerminal(r *wireResponse) string {
	if r == nil {
		return "a terminal event without its response object"
	}
	if u := r.Usage; u != nil {
		x.finalUsage = wireUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens}
		x.finalUsage.Details.ReasoningTokens = u.OutputTokensDetails.ReasoningTokens
		x.finalUsage.PromptDetails.CachedTokens = u.InputTokensDetails.CachedTokens
		x.finalUsage.PromptDetails.ImageTokens = u.InputTokensDetails.ImageTokens
		x.finalUsage.PromptDetails.AudioTokens = u.InputTokensDetails.AudioTokens
		x.hasFinalUsage = true
	}
	switch r.Status {
	case "completed":
		x.out.FinishReason = "stop"
		return ""
	case "incomplete":
		reason := ""
		if r.IncompleteDetails != nil {
			reason = r.IncompleteDetails.Reason
		}
		if reason == "max_output_tokens" {
			x.out.FinishReason = "length"
			return ""
		}
		x.out.FinishReason = reason
		return fmt.Sprintf("response incomplete: %s", quoteData(reason))
	case "failed":
		return "response failed: " + messageOf(r.Error)
	}
	return fmt.Sprintf("a terminal event with status %q", quoteData(r.Status))
}

// whole folds a non-streaming Responses answer: its output text (and
// function-call arguments) is one content event at t.
func (responsesProtocol) whole(x *exchange, t time.Time, data []byte) {
	var r wireResponse
	if err := json.Unmarshal(data, &r); err != nil {
		x.end(record.StatusStreamError, t, fmt.Sprintf("response body is not a readable Responses answer: %v: %s", err, quoteData(string(data))))
		return
	}
	if isJSONValue(r.Error) && r.Status != "failed" {
		x.end(record.StatusStreamError, t, "error in a 2xx response: "+messageOf(r.Error))
		return
	}
	x.events = 1
	var c wireChoice
	for _, o := range r.Output {
		switch o.Type {
		case "message":
			for _, p := range o.Content {
				if p.Type == "output_text" {
					c.Message.Content += p.Text
				}
			}
		case "function_call":
			c.Message.ToolCalls = append(c.Message.ToolCalls, wireToolCall{})
			tc := &c.Message.ToolCalls[len(c.Message.ToolCalls)-1]
			tc.Function.Name, tc.Function.Arguments = o.Name, o.Arguments
		}
	}
	if msg := x.responsesTerminal(&r); msg != "" {
		x.end(record.StatusStreamError, t, msg)
		return
	}
	x.applyChoice(t, &c, &c.Message, true)
	x.settled = true
	x.out.TerminalMS = x.ms(t)
}

// settle: as chat (visible text or a tool call is a success).
func (responsesProtocol) settle(x *exchange) { settleText(x) }
