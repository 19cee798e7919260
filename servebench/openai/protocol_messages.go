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

// anthropicVersion is the anthropic-version header every Messages request
// carries.
const anthropicVersion = "2023-06-01"

// messagesProtocol is the Anthropic Messages API, /v1/messages. The key
// goes in x-api-key (not Authorization), with anthropic-version; the body
// is model, system (the row's system messages), messages (the others),
// max_tokens and stream. The stream is typed events, each with an event:
// line and a data: JSON whose "type" names it, ended by message_stop.
//
// Clocks: f is the first text_delta with text, or the first
// input_json_delta of a tool_use block (as for chat tool calls);
// thinking_delta is reasoning (FirstReasoningMS), never content.
//
// Usage: Anthropic's input_tokens leaves out cached tokens, so the prompt
// tokens are input_tokens + cache_read_input_tokens +
// cache_creation_input_tokens, and the cached tokens
// cache_read_input_tokens; message_start's usage is replaced field by
// field by message_delta's. The output tokens are message_delta's
// output_tokens.
//
// Outcomes: message_stop is the normal end, with stop_reason mapped to a
// finish_reason (end_turn and stop_sequence "stop", max_tokens "length",
// tool_use "tool_calls"); an error event, or a stream that ends without
// message_stop, is stream_error with the server's reason.
type messagesProtocol struct{}

func (messagesProtocol) endpoint() record.Endpoint { return record.EndpointMessages }

// carries: a Messages row's inputs are its prompt or messages.
func (messagesProtocol) carries(r *record.Request) bool { return textCarries(r) }

// terminal: the stream ends with a message_stop event.
func (messagesProtocol) terminal() string { return "a message_stop event" }

// checkRow: a Messages row is a chat row that does not force its length
// (the Messages API has no ignore_eos).
func (messagesProtocol) checkRow(r *record.Request) error {
	if err := checkTextRow(r); err != nil {
		return err
	}
	if r.IgnoreEOS {
		return errors.New("ignore_eos: the Messages API cannot force an output length")
	}
	return nil
}

// body writes model; system, the text of the row's system messages
// joined by blank lines, when it has any; messages, the other messages
// (or the prompt as one user message); max_tokens; stream; then the row's
// Extra.
func (messagesProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	b, stream, err := startTextBody(c, r)
	if err != nil {
		return payload{}, false, err
	}
	system, turns := splitSystem(r)
	if system != "" {
		if err := b.put("system", system); err != nil {
			return payload{}, false, err
		}
	}
	if err := b.messages("messages", turns); err != nil {
		return payload{}, false, err
	}
	b.literal("max_tokens", strconv.Itoa(r.MaxTokens))
	b.literal("stream", strconv.FormatBool(stream))
	body, err := b.finish()
	return body, stream, err
}

// splitSystem returns the text of r's system messages, joined by blank
// lines, and its other messages (the prompt as one user message for a row
// without messages).
func splitSystem(r *record.Request) (string, []record.Message) {
	if len(r.Messages) == 0 {
		return "", []record.Message{{Role: "user", Content: r.Prompt}}
	}
	system := ""
	turns := make([]record.Message, 0, len(r.Messages))
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Role != "system" {
			turns = append(turns, *m)
			continue
		}
		if system != "" {
			system += "\n\n"
		}
		system += m.Text()
	}
	return system, turns
}

// wireMessagesEvent is one event of a Messages stream.
type wireMessagesEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage *wireMessagesUsage `json:"usage"`
	} `json:"message"`
	ContentBlock *struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *wireMessagesUsage `json:"usage"`
	Error json.RawMessage    `json:"error"`
}

// wireMessagesUsage is the usage of message_start, message_delta or a
// whole answer.
type wireMessagesUsage struct {
	InputTokens              optInt `json:"input_tokens"`
	OutputTokens             optInt `json:"output_tokens"`
	CacheReadInputTokens     optInt `json:"cache_read_input_tokens"`
	CacheCreationInputTokens optInt `json:"cache_creation_input_tokens"`
}

// messagesState is what a Messages stream remembers between events: the
// usage so far and which content blocks are tool_use blocks.
type messagesState struct {
	usage    wireMessagesUsage
	hasUsage bool
	toolUse  []int // the indexes of the tool_use blocks started
}

// merge replaces the fields of s's usage that u carries.
func (s *messagesState) merge(u *wireMessagesUsage) {
	if u == nil {
		return
	}
	s.hasUsage = true
	for _, f := range []struct{ dst, src *optInt }{
		{&s.usage.InputTokens, &u.InputTokens}, {&s.usage.OutputTokens, &u.OutputTokens},
		{&s.usage.CacheReadInputTokens, &u.CacheReadInputTokens},
		{&s.usage.CacheCreationInputTokens, &u.CacheCreationInputTokens},
	} {
		if f.src.ok {
			*f.dst = *f.src
		}
	}
}

// messagesStopReasons maps a Messages stop_reason to chat's finish_reason.
var messagesStopReasons = map[string]string{
	"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls",
}

// finishReasonOf maps stop_reason; one without a chat name is kept as it is.
func finishReasonOf(stopReason string) string {
	if f, ok := messagesStopReasons[stopReason]; ok {
		return f
	}
	return stopReason
}

// event folds one Messages event. The type is the JSON's "type", or the
// event: line's when the JSON has none.
func (messagesProtocol) event(x *exchange, resp *http.Response, t time.Time, typ, data []byte) bool {
	st := &x.messages
	var ev wireMessagesEvent
	x.events++
	if err := x.decoder.decode(data, &ev); err != nil {
		x.streamError(resp, t, fmt.Sprintf("event %d is not a readable Messages event: %v: %s", x.events, err, quoteData(string(data))))
		return true
	}
	if ev.Type == "" {
		ev.Type = string(typ)
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			st.merge(ev.Message.Usage)
		}
	case "content_block_start":
		if b := ev.ContentBlock; b != nil && b.Type == "tool_use" {
			st.toolUse = append(st.toolUse, ev.Index)
			if x.keepText {
				x.addToolPiece(ev.Index, b.Name, "")
			}
		}
	case "content_block_delta":
		x.messagesDelta(t, &ev)
	case "message_delta":
		st.merge(ev.Usage)
		if ev.Delta.StopReason != "" {
			x.out.FinishReason = finishReasonOf(ev.Delta.StopReason)
		}
	case "message_stop":
		x.messagesUsage()
		x.settleAt(resp, t)
		return true
	case "error":
		x.streamError(resp, t, "error event: "+messageOf(ev.Error))
		return true
	}
	if msg := x.boundViolation(); msg != "" {
		x.streamError(resp, t, msg)
		return true
	}
	return false
}

// messagesDelta folds a text, thinking or tool input delta through the
// chat rules (see applyChoice), so that the clocks, the kept text and the
// bounds are counted alike. A block's other deltas (a thinking block's
// signature) carry no output.
func (x *exchange) messagesDelta(t time.Time, ev *wireMessagesEvent) {
	var c wireChoice
	switch ev.Delta.Type {
	case "text_delta":
		c.Delta.Content = ev.Delta.Text
	case "thinking_delta":
		c.Delta.ReasoningContent = ev.Delta.Thinking
	case "input_json_delta":
		if !containsInt(x.messages.toolUse, ev.Index) {
			return
		}
		c.Delta.ToolCalls = []wireToolCall{{Index: ev.Index}}
		c.Delta.ToolCalls[0].Function.Arguments = ev.Delta.PartialJSON
	default:
		return
	}
	x.applyChoice(t, &c, &c.Delta, false)
}

// containsInt reports whether v is in s.
func containsInt(s []int, v int) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// messagesUsage records the usage the stream (or a whole answer) gave, as
// chat usage: prompt tokens with the cached ones added back.
func (x *exchange) messagesUsage() {
	st := &x.messages
	if !st.hasUsage {
		return
	}
	u := &st.usage
	x.finalUsage = wireUsage{CompletionTokens: u.OutputTokens}
	if u.InputTokens.ok || u.CacheReadInputTokens.ok || u.CacheCreationInputTokens.ok {
		x.finalUsage.PromptTokens = optInt{v: u.InputTokens.v + u.CacheReadInputTokens.v + u.CacheCreationInputTokens.v, ok: true}
	}
	x.finalUsage.PromptDetails.CachedTokens = u.CacheReadInputTokens
	x.hasFinalUsage = true
}

// wireMessagesAnswer is a whole (non-streaming) Messages answer.
type wireMessagesAnswer struct {
	Type    string `json:"type"`
	Content []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking string          `json:"thinking"`
		Name     string          `json:"name"`
		Input    json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string             `json:"stop_reason"`
	Usage      *wireMessagesUsage `json:"usage"`
	Error      json.RawMessage    `json:"error"`
}

// whole folds a non-streaming Messages answer: its text, thinking and
// tool_use blocks are one event at t.
func (messagesProtocol) whole(x *exchange, t time.Time, data []byte) {
	var a wireMessagesAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		x.end(record.StatusStreamError, t, fmt.Sprintf("response body is not a readable Messages answer: %v: %s", err, quoteData(string(data))))
		return
	}
	if a.Type == "error" || isJSONValue(a.Error) {
		x.end(record.StatusStreamError, t, "error in a 2xx response: "+messageOf(a.Error))
		return
	}
	x.events = 1
	var c wireChoice
	for _, b := range a.Content {
		switch b.Type {
		case "text":
			c.Message.Content += b.Text
		case "thinking":
			c.Message.ReasoningContent += b.Thinking
		case "tool_use":
			c.Message.ToolCalls = append(c.Message.ToolCalls, wireToolCall{})
			tc := &c.Message.ToolCalls[len(c.Message.ToolCalls)-1]
			tc.Function.Name, tc.Function.Arguments = b.Name, string(b.Input)
		}
	}
	x.messages.merge(a.Usage)
	x.messagesUsage()
	x.applyChoice(t, &c, &c.Message, true)
	if a.StopReason != "" {
		x.out.FinishReason = finishReasonOf(a.StopReason)
	}
	x.settled = true
	x.out.TerminalMS = x.ms(t)
}

// settle: as chat (visible text or a tool call is a success).
func (messagesProtocol) settle(x *exchange) { settleText(x) }
