package record

import (
	"math"
	"strconv"
)

// appendOutcomeLine appends o's outcomes.jsonl line, newline included,
// byte for byte as encoding/json's Encoder writes it, without reflection.
// It is the writer's fast path, not a second definition of the format: it
// takes only the plain shape a request's record almost always has (no
// response text, tool calls, quality verdict or speculative-decoding
// figures; strings of printable ASCII that encoding/json writes as they
// are; finite numbers) and returns false for anything else, leaving b as
// it was, so that the caller encodes that record with encoding/json.
// TestAppendOutcomeLineMatchesEncoder and its fuzz target hold the two to
// the same bytes.
func appendOutcomeLine(b []byte, o *Outcome) ([]byte, bool) {
	if o.Text != nil || len(o.ToolCalls) > 0 || o.Quality != nil || o.SpeculativeDecoding != nil {
		return b, false
	}
	e := lineEncoder{b: b, ok: true}
	e.identity(o)
	e.clocks(o)
	e.usage(o)
	e.response(o)
	e.inputs(o)
	if !e.ok {
		return b, false
	}
	return append(e.b, '}', '\n'), true
}

// lineEncoder appends one record's fields; ok turns false, for good, at
// the first value the fast path does not write.
type lineEncoder struct {
	b  []byte
	ok bool
}

// identity writes the attempt's identity and status.
func (e *lineEncoder) identity(o *Outcome) {
	e.str(`{"id":`, o.ID)
	e.int(`,"attempt":`, o.Attempt)
	e.str(`,"class":`, o.Class)
	e.str(`,"status":`, string(o.Status))
}

// clocks writes the request's times, its content times and their tokens.
func (e *lineEncoder) clocks(o *Outcome) {
	e.float(`,"scheduled_ms":`, o.ScheduledMS)
	e.optFloat(`,"slot_ms":`, o.SlotMS, false)
	e.optFloat(`,"sent_ms":`, o.SentMS, false)
	e.optFloat(`,"first_content_ms":`, o.FirstContentMS, false)
	e.optFloat(`,"last_content_ms":`, o.LastContentMS, false)
	e.optFloat(`,"first_reasoning_ms":`, o.FirstReasoningMS, false)
	e.float(`,"terminal_ms":`, o.TerminalMS)
	writeArray(e, `,"content_ms":`, o.ContentMS, e.appendFloat)
	writeArray(e, `,"event_tokens":`, o.EventTokens, appendInt)
}

// writeArray writes key and vals as an array, each value by appendValue,
// or null for a nil slice, as encoding/json does.
func writeArray[T any](e *lineEncoder, key string, vals []T, appendValue func([]byte, T) []byte) {
	e.b = append(e.b, key...)
	if vals == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, v := range vals {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = appendValue(e.b, v)
	}
	e.b = append(e.b, ']')
}

// appendInt appends v in decimal.
func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }

// usage writes the token counts.
func (e *lineEncoder) usage(o *Outcome) {
	e.optInt(`,"output_tokens":`, o.OutputTokens, false)
	e.b = append(e.b, `,"token_count_source":`...)
	if o.TokenCountSource == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.str("", string(*o.TokenCountSource))
	}
	e.optInt(`,"prompt_tokens":`, o.PromptTokens, false)
	e.optInt(`,"cached_tokens":`, o.CachedTokens, false)
	e.optInt(`,"reasoning_tokens":`, o.ReasoningTokens, true)
	e.optInt(`,"items":`, o.Items, true)
}

// response writes how the response ended and who served it.
func (e *lineEncoder) response(o *Outcome) {
	e.optInt(`,"http_status":`, o.HTTPStatus, false)
	e.str(`,"error":`, o.Error)
	e.str(`,"finish_reason":`, o.FinishReason)
	if o.LengthEnforced != nil {
		e.b = append(e.b, `,"length_enforced":`...)
		e.b = strconv.AppendBool(e.b, *o.LengthEnforced)
	}
	e.b = append(e.b, `,"timeout":`...)
	if o.Timeout == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.str("", string(*o.Timeout))
	}
	e.omitEmptyStr(`,"backend":`, o.Backend)
	e.omitEmptyStr(`,"adapter":`, o.Adapter)
	e.omitEmptyStr(`,"tenant":`, o.Tenant)
	e.omitEmptyStr(`,"objective":`, o.Objective)
}

// inputs writes the request's media, its reusable prefix, the timeout's
// due time and the status's reason: all omitted when empty.
func (e *lineEncoder) inputs(o *Outcome) {
	e.omitZeroInt(`,"images":`, o.Images)
	e.omitZeroInt(`,"image_bytes":`, o.ImageBytes)
	e.omitZeroInt(`,"image_pixels":`, o.ImagePixels)
	e.optInt(`,"image_tokens":`, o.ImageTokens, true)
	e.omitZeroInt(`,"audio_inputs":`, o.AudioInputs)
	e.optInt(`,"audio_tokens":`, o.AudioTokens, true)
	e.optInt(`,"reusable_prompt_tokens":`, o.ReusablePromptTokens, true)
	e.optFloat(`,"timeout_due_ms":`, o.TimeoutDueMS, true)
	e.omitEmptyStr(`,"reason":`, o.Reason)
}

// str writes key and s, which must be printable ASCII that encoding/json
// writes unescaped (not '"', '\\', '<', '>' or '&').
func (e *lineEncoder) str(key, s string) {
	e.b = append(e.b, key...)
	e.b = append(e.b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			e.ok = false
			return
		}
	}
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
}

// omitEmptyStr writes key and s unless s is empty.
func (e *lineEncoder) omitEmptyStr(key, s string) {
	if s != "" {
		e.str(key, s)
	}
}

// int writes key and v.
func (e *lineEncoder) int(key string, v int) {
	e.b = append(e.b, key...)
	e.b = appendInt(e.b, v)
}

// omitZeroInt writes key and v unless v is 0.
func (e *lineEncoder) omitZeroInt(key string, v int) {
	if v != 0 {
		e.int(key, v)
	}
}

// optInt writes key and *v, or null when v is nil; with omit, a nil v
// writes nothing.
func (e *lineEncoder) optInt(key string, v *int, omit bool) { writeOpt(e, key, v, omit, e.int) }

// float writes key and v.
func (e *lineEncoder) float(key string, v float64) {
	e.b = append(e.b, key...)
	e.b = e.appendFloat(e.b, v)
}

// optFloat writes key and *v, or null when v is nil; with omit, a nil v
// writes nothing.
func (e *lineEncoder) optFloat(key string, v *float64, omit bool) { writeOpt(e, key, v, omit, e.float) }

// writeOpt writes key and *v by write, or key and null when v is nil;
// with omit, a nil v writes nothing (omitempty).
func writeOpt[T any](e *lineEncoder, key string, v *T, omit bool, write func(string, T)) {
	switch {
	case v != nil:
		write(key, *v)
	case !omit:
		e.b = append(e.b, key...)
		e.b = append(e.b, "null"...)
	}
}

// appendFloat appends v as encoding/json writes a float64: the shortest
// decimal that reads back as v, in exponent form below 1e-6 and from 1e21
// up, with a one-digit negative exponent written without its leading zero.
// NaN and the infinities, which JSON cannot hold, end the fast path.
func (e *lineEncoder) appendFloat(b []byte, v float64) []byte {
	if b, ok := appendMillis(b, v); ok {
		return b
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.ok = false
		return b
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendMillis appends v when it is a whole number of microseconds in
// milliseconds, as Millis makes every time in a record: v is the double
// nearest k/1000 for an integer k, with |v| below 1e12. Then the shortest
// decimal that reads back as v is k/1000 itself with its trailing zeros
// cut: every other decimal of at most three places is at least 0.001
// away from it, and doubles below 1e12 are less than 0.0002 apart, so
// none of those reads back as v, while any shorter decimal has at most
// three places too. Written from the integer k, it costs a fraction of
// the general shortest-decimal search. ok is false for any other v, and
// for zero, whose sign the integer would lose.
func appendMillis(b []byte, v float64) (_ []byte, ok bool) {
	k := math.Round(v * 1000)
	if k == 0 || math.Abs(k) >= 1e15 || k/1000 != v {
		return b, false
	}
	n := int64(k)
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/1000, 10)
	frac := n % 1000
	if frac == 0 {
		return b, true
	}
	b = append(b, '.', byte('0'+frac/100))
	if frac%100 != 0 {
		b = append(b, byte('0'+frac/10%10))
		if frac%10 != 0 {
			b = append(b, byte('0'+frac%10))
		}
	}
	return b, true
}
