package openai

import (
	"unsafe"

	"github.com/servebench/servebench/internal/jsonscan"
)

// decodeChunkFast reads the common shape of a completions or chat chunk
// into c (reset by the caller) without encoding/json: ASCII strings
// without escapes, choices with index, text, a delta of role, content and
// reasoning, finish_reason, stop_reason and a null logprobs, and a usage
// of plain counts. It reports false for anything else (another field, a
// tool call, logprobs, an escape or a non-ASCII byte, an error object),
// and the caller then decodes the event with encoding/json from a fresh
// reset: the fast path decides nothing the slow one would decide
// differently, it only skips the reflection for the events every engine
// sends thousands of times a second.
//
// The generated text (a choice's text, a delta's content and reasoning) is
// not copied: those strings alias data, and are valid only while the event
// is being folded (exchange.apply measures them and copies what it keeps
// into the text builder). Every other string is a copy.
func decodeChunkFast(data []byte, c *wireChunk) bool {
	s := jsonscan.New(data)
	ok := object(s, func(key []byte) bool {
		switch string(key) {
		case "id", "model", "system_fingerprint":
			return skipScalar(s)
		case "created":
			_, _, _, _, ok := s.Number()
			return ok
		case "object":
			v, ok := s.Str()
			return ok && string(v) != "error"
		case "choices":
			if s.Null() {
				c.Choices = c.Choices[:0]
				return true
			}
			return s.Array(func() bool {
				c.Choices = append(c.Choices, wireChoice{})
				return fastChoice(s, &c.Choices[len(c.Choices)-1])
			})
		case "usage":
			if s.Null() {
				c.Usage = nil
				return true
			}
			return fastUsage(s, c.Usage)
		}
		return false
	})
	if !ok {
		return false
	}
	s.SkipSpace()
	return s.AtEnd()
}

// fastChoice reads one element of "choices".
func fastChoice(s *jsonscan.Scanner, ch *wireChoice) bool {
	return object(s, func(key []byte) bool {
		switch string(key) {
		case "index":
			v, ok := s.Int()
			ch.Index = v
			return ok
		case "text":
			return optView(s, &ch.Text)
		case "delta":
			return object(s, func(key []byte) bool {
				switch string(key) {
				case "role":
					return skipScalar(s)
				case "content":
					return optView(s, &ch.Delta.Content)
				case "reasoning_content":
					return optView(s, &ch.Delta.ReasoningContent)
				case "reasoning":
					return optView(s, &ch.Delta.Reasoning)
				}
				return false
			})
		case "finish_reason":
			return optText(s, &ch.FinishReason)
		case "stop_reason":
			return skipScalar(s)
		case "logprobs":
			return s.Null()
		}
		return false
	})
}

// fastUsage reads a usage object of plain counts.
func fastUsage(s *jsonscan.Scanner, u *wireUsage) bool {
	return object(s, func(key []byte) bool {
		switch string(key) {
		case "prompt_tokens":
			return optCount(s, &u.PromptTokens)
		case "completion_tokens":
			return optCount(s, &u.CompletionTokens)
		case "total_tokens":
			var total optInt
			return optCount(s, &total)
		case "prompt_tokens_details", "completion_tokens_details":
			return s.Null()
		}
		return false
	})
}

// object reads {"key": value, ...}, calling field with the scanner at each
// value; keys must be plain ASCII.
func object(s *jsonscan.Scanner, field func(key []byte) bool) bool {
	if !s.Byte('{') {
		return false
	}
	if s.Byte('}') {
		return true
	}
	for {
		key, ok := s.Str()
		if !ok || !s.Byte(':') || !field(key) {
			return false
		}
		if s.Byte(',') {
			continue
		}
		return s.Byte('}')
	}
}

// optText reads null (leaving *dst as it is, as encoding/json does) or a
// string.
func optText(s *jsonscan.Scanner, dst *string) bool {
	if s.Null() {
		return true
	}
	v, ok := s.Text()
	*dst = v
	return ok
}

// optView reads null (leaving *dst as it is) or a string, as optText does,
// but without a copy: *dst aliases the event's bytes, so that the text of
// every token is not allocated once more only to be measured.
func optView(s *jsonscan.Scanner, dst *string) bool {
	if s.Null() {
		return true
	}
	v, ok := s.Str()
	if ok {
		*dst = unsafe.String(unsafe.SliceData(v), len(v))
	}
	return ok
}

// optCount reads null (unknown) or an integer, unknown when negative, as
// optInt.UnmarshalJSON does.
func optCount(s *jsonscan.Scanner, dst *optInt) bool {
	*dst = optInt{}
	if s.Null() {
		return true
	}
	v, ok := s.Int()
	if ok && v >= 0 {
		*dst = optInt{v: v, ok: true}
	}
	return ok
}

// skipScalar skips null, a plain string or a number.
func skipScalar(s *jsonscan.Scanner) bool {
	switch s.Peek() {
	case 'n':
		return s.Null()
	case '"':
		_, ok := s.Str()
		return ok
	}
	_, _, _, _, ok := s.Number()
	return ok
}
