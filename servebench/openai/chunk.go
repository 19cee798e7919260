package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/servebench/record"
)

// wireChunk is one streamed chunk, or a whole non-streaming response, of
// the OpenAI completions and chat APIs: only the fields the client reads.
// Unknown fields are skipped without allocating. One wireChunk is reused
// for every event of a request (see reset).
type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	// Usage points at usageBuf before each decode, so that decoding a
	// usage object does not allocate; null makes it nil.
	Usage *wireUsage `json:"usage"`
	// Error is the error object or string of an error event or body.
	Error json.RawMessage `json:"error"`
	// Object is true when "object" is "error" (vLLM's older error form,
	// whose message is the top-level "message").
	Object  objectIsError   `json:"object"`
	Message json.RawMessage `json:"message"`
	// Code is the top-level status code of that older form; ErrorType is
	// the "error_type" beside a string "error" (TGI's own error shape).
	// Both are read only to recognise an admission refusal.
	Code      json.RawMessage `json:"code"`
	ErrorType string          `json:"error_type"`
	// Metrics is vLLM's per-request metrics object (with
	// --per-request-spec-decode-metrics), on the last chunk of a stream
	// and at the root of a whole body; it points at metricsBuf before each
	// decode, as Usage does.
	Metrics *wireMetrics `json:"metrics"`

	usageBuf   wireUsage
	metricsBuf wireMetrics
}

// wireMetrics is vLLM's per-request metrics: the speculative-decoding
// counts only.
type wireMetrics struct {
	SpeculativeDecoding struct {
		NumSpecSteps           optInt `json:"num_spec_steps"`
		NumDraftTokens         optInt `json:"num_draft_tokens"`
		NumAcceptedDraftTokens optInt `json:"num_accepted_draft_tokens"`
	} `json:"speculative_decoding"`
}

// speculativeDecoding returns the chunk's speculative-decoding figures,
// nil unless it carried all three counts.
func (c *wireChunk) speculativeDecoding() *record.SpeculativeDecoding {
	if c.Metrics == nil {
		return nil
	}
	sd := &c.Metrics.SpeculativeDecoding
	if !sd.NumSpecSteps.ok || !sd.NumDraftTokens.ok || !sd.NumAcceptedDraftTokens.ok {
		return nil
	}
	return &record.SpeculativeDecoding{Steps: sd.NumSpecSteps.v, DraftTokens: sd.NumDraftTokens.v, AcceptedTokens: sd.NumAcceptedDraftTokens.v}
}

// reset clears the chunk for the next decode while keeping the capacity of
// its choices: encoding/json decodes into reused slice elements without
// zeroing them, so stale fields must be cleared first.
func (c *wireChunk) reset() {
	choices := c.Choices[:cap(c.Choices)]
	clear(choices)
	*c = wireChunk{Choices: choices[:0]}
	c.Usage = &c.usageBuf
	c.Metrics = &c.metricsBuf
}

// usage returns the chunk's usage and whether it carried one with at least
// one known count.
func (c *wireChunk) usage() (wireUsage, bool) {
	if c.Usage == nil || (!c.Usage.PromptTokens.ok && !c.Usage.CompletionTokens.ok) {
		return wireUsage{}, false
	}
	return *c.Usage, true
}

// chunkDecoder decodes event after event with one reused json.Decoder, so
// that the decoder's scanner and error-context buffers are allocated once,
// not once per event as a fresh json.Unmarshal does. It stays usable
// across requests as long as decoding succeeds; a failure drops it.
type chunkDecoder struct {
	src bytes.Reader
	dec *json.Decoder
	fed int64 // bytes handed to dec so far
}

// decode decodes data, which must hold exactly one JSON value, into v.
func (d *chunkDecoder) decode(data []byte, v any) error {
	if d.dec == nil {
		d.dec, d.fed = json.NewDecoder(&d.src), 0
	}
	d.src.Reset(data)
	d.fed += int64(len(data))
	if err := d.dec.Decode(v); err != nil {
		d.dec = nil // a failed decoder is not reused
		return err
	}
	// Whatever was fed but not consumed is the tail of data: it must be
	// white space, which the next Decode skips.
	if rest := data[len(data)-int(d.fed-d.dec.InputOffset()):]; len(bytes.TrimSpace(rest)) > 0 {
		d.dec = nil
		return fmt.Errorf("unexpected data after the JSON value: %s", quoteData(string(rest)))
	}
	return nil
}

// errorMessage returns the chunk's error message and whether it carries an
// error at all.
func (c *wireChunk) errorMessage() (string, bool) {
	if isJSONValue(c.Error) {
		return messageOf(c.Error), true
	}
	if c.Object {
		if m := messageOf(c.Message); m != "" {
			return m, true
		}
		return "error object without a message", true
	}
	return "", false
}

// wireChoice is one element of "choices".
type wireChoice struct {
	Index int `json:"index"`
	// Text is the completions API's text.
	Text string `json:"text"`
	// Delta is the chat API's streamed increment.
	Delta wireMessage `json:"delta"`
	// Message is the chat API's whole message in a non-streaming response.
	Message      wireMessage  `json:"message"`
	FinishReason string       `json:"finish_reason"`
	Logprobs     wireLogprobs `json:"logprobs"`
}

// wireMessage is a chat delta or message. After decodeChunkFast its
// Content, ReasoningContent and Reasoning (and the choice's Text) alias the
// event's bytes: they are read while the event is folded, never kept.
type wireMessage struct {
	Content string `json:"content"`
	// ReasoningContent and Reasoning carry a reasoning model's thinking
	// (the field's name differs between engines and versions).
	ReasoningContent string         `json:"reasoning_content"`
	Reasoning        string         `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

// reasoning returns the reasoning text under whichever name it came.
func (m *wireMessage) reasoning() string {
	if m.ReasoningContent != "" {
		return m.ReasoningContent
	}
	return m.Reasoning
}

// wireToolCall is one (piece of a) tool call.
type wireToolCall struct {
	Index    int `json:"index"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// wireLogprobs counts the token entries of a choice's logprobs without
// keeping them: "tokens" in the completions API, "content" in chat.
type wireLogprobs struct {
	Tokens  arrayLen `json:"tokens"`
	Content arrayLen `json:"content"`
}

// entries returns the number of token entries and whether the choice
// carried logprobs at all.
func (l *wireLogprobs) entries() (int, bool) {
	if l.Tokens.set {
		return l.Tokens.n, true
	}
	if l.Content.set {
		return l.Content.n, true
	}
	return 0, false
}

// arrayLen is the length of a JSON array, counted without decoding its
// elements; set is false for null or an absent field.
type arrayLen struct {
	n   int
	set bool
}

// UnmarshalJSON counts the top-level elements of the array in b. The
// decoder has already checked that b is valid JSON.
func (a *arrayLen) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*a = arrayLen{}
		return nil
	}
	if len(b) < 2 || b[0] != '[' {
		return errors.New("logprobs entries: want an array")
	}
	n, depth, inString, escaped, nonEmpty := 0, 0, false, false, false
	for _, c := range b[1 : len(b)-1] {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			inString, nonEmpty = true, true
		case '[', '{':
			depth++
			nonEmpty = true
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		default:
			nonEmpty = true
		}
	}
	if nonEmpty {
		n++
	}
	*a = arrayLen{n: n, set: true}
	return nil
}

// wireUsage is the OpenAI usage object.
type wireUsage struct {
	PromptTokens     optInt `json:"prompt_tokens"`
	CompletionTokens optInt `json:"completion_tokens"`
	Details          struct {
		ReasoningTokens optInt `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	// PromptDetails carries the prompt tokens served from the engine's
	// prefix cache, when the engine reports them.
	PromptDetails struct {
		CachedTokens optInt `json:"cached_tokens"`
		// ImageTokens counts the prompt tokens the engine gave the
		// request's images, where it reports them.
		ImageTokens optInt `json:"image_tokens"`
		// AudioTokens counts the prompt tokens the engine gave the
		// request's input_audio clips, where it reports them.
		AudioTokens optInt `json:"audio_tokens"`
	} `json:"prompt_tokens_details"`
}

// optInt is an integer that may be null, absent or unreadable (ok false).
type optInt struct {
	v  int
	ok bool
}

// UnmarshalJSON reads a non-negative integer; anything else leaves the
// value unknown rather than failing the whole event.
func (o *optInt) UnmarshalJSON(b []byte) error {
	*o = optInt{}
	if n, err := strconv.Atoi(string(b)); err == nil && n >= 0 {
		*o = optInt{v: n, ok: true}
	}
	return nil
}

// ptrOrNil returns a pointer to the value, or nil when it is unknown.
func (o optInt) ptrOrNil() *int {
	if !o.ok {
		return nil
	}
	return new(o.v)
}

// objectIsError is true when a JSON string equals "error".
type objectIsError bool

// UnmarshalJSON compares without allocating.
func (o *objectIsError) UnmarshalJSON(b []byte) error {
	*o = string(b) == `"error"`
	return nil
}

// isJSONValue reports whether raw holds a value other than null.
func isJSONValue(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}
