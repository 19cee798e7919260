package openai

import "github.com/servebench/servebench/internal/jsonscan"

// decodeResponseDeltaFast reads the event a Responses stream sends once
// per token, a text, reasoning or function-call delta, into ev (zeroed by
// the caller) without encoding/json: the keys type, sequence_number,
// item_id, output_index, content_index, delta, logprobs (null or empty)
// and obfuscation, each at most once, ASCII strings without escapes. It
// reports false for anything else (another type or key, a repeated key,
// logprobs entries, an escape or a non-ASCII byte), and the caller then
// decodes the event with encoding/json from a fresh zero value: the fast
// path decides nothing the slow one would decide differently
// (TestResponseDeltaFastAgreesWithEncodingJSON and its fuzz target check
// this).
//
// As in decodeChunkFast, the delta's text is not copied: ev.Delta aliases
// data and is valid only while the event is folded.
func decodeResponseDeltaFast(data []byte, ev *wireResponseEvent) bool {
	s := jsonscan.New(data)
	var seen uint8
	ok := object(s, func(key []byte) bool {
		bit, ok := responseDeltaField(s, key, ev)
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	if !ok || seen&1 == 0 {
		return false
	}
	switch ev.Type {
	case respTextDelta, respReasoningDelta, respToolDelta:
	default:
		return false
	}
	s.SkipSpace()
	return s.AtEnd()
}

// responseDeltaField reads the value of key into ev; bit is the key's
// place in the set of keys seen (0 for a key the fast path leaves to
// encoding/json).
func responseDeltaField(s *jsonscan.Scanner, key []byte, ev *wireResponseEvent) (bit uint8, ok bool) {
	switch string(key) {
	case "type":
		v, ok := s.Str()
		ev.Type = respEventTypes[string(v)]
		return 1 << 0, ok
	case "sequence_number":
		return 1 << 1, optCount(s, &ev.SequenceNumber)
	case "output_index":
		v, ok := s.Int()
		ev.OutputIndex = v
		return 1 << 2, ok
	case "delta":
		return 1 << 3, optView(s, &ev.Delta)
	case "logprobs":
		return 1 << 4, emptyArrayLen(s, &ev.Logprobs)
	case "item_id":
		return 1 << 5, skipScalar(s)
	case "content_index":
		return 1 << 6, skipScalar(s)
	case "obfuscation":
		return 1 << 7, skipScalar(s)
	}
	return 0, false
}

// emptyArrayLen reads null (no entries known) or an empty array (zero
// entries), as arrayLen.UnmarshalJSON does; anything else is left to
// encoding/json.
func emptyArrayLen(s *jsonscan.Scanner, a *arrayLen) bool {
	if s.Null() {
		*a = arrayLen{}
		return true
	}
	if !s.Byte('[') || !s.Byte(']') {
		return false
	}
	*a = arrayLen{set: true}
	return true
}
