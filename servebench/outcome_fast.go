package servebench

import (
	"strconv"
	"unsafe"
)

// decodeOutcomeFast decodes one outcomes.jsonl line in the shape the
// runner writes it, without reflection and reusing o's slices. It is a
// fast path in front of the strict decoder, not a second definition of
// the format: it accepts only plain lines (known keys, each once, every
// required key present, ASCII strings without escapes, numbers in JSON's
// grammar, nothing after the object) and returns false for anything else,
// including text, tool calls and quality verdicts, so that the caller
// decodes that line strictly. Whatever it accepts, strictjson accepts with
// the same value (TestOutcomeFastMatchesStrict and its fuzz target check
// this).
func decodeOutcomeFast(line []byte, o *Outcome) bool {
	content, tokens := o.ContentMS[:0], o.EventTokens[:0]
	*o = Outcome{}
	s := fastScanner{b: line}
	if !s.byte('{') {
		return false
	}
	var seen uint32
	next := 0 // the runner writes the keys in this order
	for first := true; ; first = false {
		if s.peek() == '}' && first {
			s.i++
			break
		}
		key, ok := s.str()
		if !ok || !s.byte(':') {
			return false
		}
		f, known := next, next < len(outcomeFastNames) && string(key) == outcomeFastNames[next]
		if !known {
			f, known = outcomeFastFields[string(key)]
		}
		next = f + 1
		if !known || seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		if !s.outcomeField(f, o, &content, &tokens) {
			return false
		}
		if s.byte(',') {
			continue
		}
		if s.byte('}') {
			break
		}
		return false
	}
	s.ws()
	return s.i == len(s.b) && seen&outcomeFastRequired == outcomeFastRequired
}

// The keys the fast path knows, numbered for a bit set.
const (
	ofID = iota
	ofAttempt
	ofClass
	ofStatus
	ofScheduled
	ofSlot
	ofSent
	ofFirstContent
	ofLastContent
	ofFirstReasoning
	ofTerminal
	ofContent
	ofEventTokens
	ofOutputTokens
	ofTokenSource
	ofPromptTokens
	ofReasoningTokens
	ofItems
	ofHTTPStatus
	ofError
	ofFinishReason
	ofLengthEnforced
	ofTimeout
	ofBackend
)

// outcomeFastNames lists the keys in the order json.Marshal writes them.
var outcomeFastNames = []string{
	ofID: "id", ofAttempt: "attempt", ofClass: "class", ofStatus: "status", ofScheduled: "scheduled_ms",
	ofSlot: "slot_ms", ofSent: "sent_ms", ofFirstContent: "first_content_ms", ofLastContent: "last_content_ms",
	ofFirstReasoning: "first_reasoning_ms", ofTerminal: "terminal_ms", ofContent: "content_ms",
	ofEventTokens: "event_tokens", ofOutputTokens: "output_tokens", ofTokenSource: "token_count_source",
	ofPromptTokens: "prompt_tokens", ofReasoningTokens: "reasoning_tokens", ofItems: "items", ofHTTPStatus: "http_status",
	ofError: "error", ofFinishReason: "finish_reason", ofLengthEnforced: "length_enforced", ofTimeout: "timeout",
	ofBackend: "backend",
}

var outcomeFastFields = map[string]int{
	"id": ofID, "attempt": ofAttempt, "class": ofClass, "status": ofStatus, "scheduled_ms": ofScheduled,
	"slot_ms": ofSlot, "sent_ms": ofSent, "first_content_ms": ofFirstContent, "last_content_ms": ofLastContent,
	"first_reasoning_ms": ofFirstReasoning, "terminal_ms": ofTerminal, "content_ms": ofContent,
	"event_tokens": ofEventTokens, "output_tokens": ofOutputTokens, "token_count_source": ofTokenSource,
	"prompt_tokens": ofPromptTokens, "reasoning_tokens": ofReasoningTokens, "items": ofItems, "http_status": ofHTTPStatus,
	"error": ofError, "finish_reason": ofFinishReason, "length_enforced": ofLengthEnforced, "timeout": ofTimeout,
	"backend": ofBackend,
}

// outcomeFastRequired are the keys json.Marshal always writes.
const outcomeFastRequired = 1<<ofID | 1<<ofAttempt | 1<<ofClass | 1<<ofStatus | 1<<ofScheduled | 1<<ofSlot |
	1<<ofSent | 1<<ofFirstContent | 1<<ofLastContent | 1<<ofFirstReasoning | 1<<ofTerminal | 1<<ofContent |
	1<<ofEventTokens | 1<<ofOutputTokens | 1<<ofTokenSource | 1<<ofPromptTokens | 1<<ofHTTPStatus |
	1<<ofError | 1<<ofFinishReason | 1<<ofTimeout

// outcomeField decodes the value of field f.
//
// Its cyclomatic complexity is above the project's limit of 25 on purpose:
// it is one flat switch with a case per key of the record, each case a
// single decode into its field, so it reads as the format's table. Split
// up, the table would be scattered over several functions, and every field
// of every line of a large outcomes file would pay an extra call on the
// streamed scorer's hot path.
func (s *fastScanner) outcomeField(f int, o *Outcome, content *[]float64, tokens *[]int) bool {
	var ok bool
	switch f {
	case ofID:
		o.ID, ok = s.text()
	case ofClass:
		o.Class, ok = s.text()
	case ofError:
		o.Error, ok = s.text()
	case ofFinishReason:
		o.FinishReason, ok = s.text()
	case ofBackend:
		o.Backend, ok = s.text()
	case ofStatus:
		var t string
		t, ok = s.text()
		o.Status = Status(t)
	case ofAttempt:
		o.Attempt, ok = s.integer()
	case ofScheduled:
		o.ScheduledMS, ok = s.float()
	case ofTerminal:
		o.TerminalMS, ok = s.float()
	case ofSlot:
		o.SlotMS, ok = s.optFloat()
	case ofSent:
		o.SentMS, ok = s.optFloat()
	case ofFirstContent:
		o.FirstContentMS, ok = s.optFloat()
	case ofLastContent:
		o.LastContentMS, ok = s.optFloat()
	case ofFirstReasoning:
		o.FirstReasoningMS, ok = s.optFloat()
	case ofOutputTokens:
		o.OutputTokens, ok = s.optInt()
	case ofPromptTokens:
		o.PromptTokens, ok = s.optInt()
	case ofReasoningTokens:
		o.ReasoningTokens, ok = s.optInt()
	case ofItems:
		o.Items, ok = s.optInt()
	case ofHTTPStatus:
		o.HTTPStatus, ok = s.optInt()
	case ofTokenSource:
		if s.null() {
			return true
		}
		var t string
		t, ok = s.text()
		o.TokenCountSource = ptr(TokenCountSource(t))
	case ofTimeout:
		if s.null() {
			return true
		}
		var t string
		t, ok = s.text()
		o.Timeout = ptr(TimeoutKind(t))
	case ofLengthEnforced:
		if s.null() {
			return true
		}
		var b bool
		b, ok = s.boolean()
		o.LengthEnforced = &b
	case ofContent:
		if s.null() {
			return true
		}
		ok = s.array(func() bool {
			v, ok := s.float()
			*content = append(*content, v)
			return ok
		})
		if *content == nil {
			*content = []float64{}
		}
		o.ContentMS = *content
	case ofEventTokens:
		if s.null() {
			return true
		}
		ok = s.array(func() bool {
			v, ok := s.integer()
			*tokens = append(*tokens, v)
			return ok
		})
		if *tokens == nil {
			*tokens = []int{}
		}
		o.EventTokens = *tokens
	}
	return ok
}

// fastScanner reads JSON values from a byte slice.
type fastScanner struct {
	b []byte
	i int
}

func (s *fastScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *fastScanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// byte consumes c after any whitespace.
func (s *fastScanner) byte(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes; the result
// aliases the line.
func (s *fastScanner) str() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return s.b[start : s.i-1], true
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return nil, false
		}
		s.i++
	}
	return nil, false
}

func (s *fastScanner) text() (string, bool) {
	b, ok := s.str()
	return string(b), ok
}

func (s *fastScanner) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

func (s *fastScanner) boolean() (bool, bool) {
	s.ws()
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// number reads a number in JSON's grammar; integral says it had no
// fraction or exponent. short holds its value when it is a plain decimal
// of at most 15 digits, converted as strconv does on its own exact path
// (an integer below 2^53 divided by an exactly representable power of
// ten: one correctly rounded operation, so the same float64).
//
// Its cyclomatic complexity is above the project's limit of 25 on purpose:
// its branches follow JSON's number grammar one production at a time
// (sign, integer part, fraction, exponent) in a single pass over the bytes,
// and it runs for every time and count of every record. Helpers per part
// would have to pass the position, mantissa and digit counts back and
// forth, and the grammar would no longer read top to bottom.
func (s *fastScanner) number() (num []byte, integral bool, short float64, isShort, ok bool) {
	s.ws()
	b, i := s.b, s.i
	start := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits := 0
	switch {
	case i < len(b) && b[i] == '0':
		i++
		digits = 1
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			i++
		}
	default:
		return nil, false, 0, false, false
	}
	integral = true
	frac := 0
	if i < len(b) && b[i] == '.' {
		integral = false
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			i++
		}
		if i == d {
			return nil, false, 0, false, false
		}
		frac = i - d
	}
	isShort = digits <= 15
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integral, isShort = false, false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, 0, false, false
		}
	}
	s.i = i
	if isShort {
		short = float64(mant)
		if frac > 0 {
			short /= pow10[frac]
		}
		if neg {
			short = -short
		}
	}
	return b[start:i], integral, short, isShort, true
}

// float reads a finite number; anything but a short decimal goes to
// ParseFloat, without a copy of the digits.
func (s *fastScanner) float() (float64, bool) {
	num, _, short, isShort, ok := s.number()
	if !ok {
		return 0, false
	}
	if isShort {
		return short, true
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(num), len(num)), 64)
	return v, err == nil
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// integer reads a number without fraction or exponent that fits an int.
func (s *fastScanner) integer() (int, bool) {
	num, integral, _, _, ok := s.number()
	if !ok || !integral {
		return 0, false
	}
	v, err := strconv.Atoi(unsafe.String(unsafe.SliceData(num), len(num)))
	return v, err == nil
}

func (s *fastScanner) optFloat() (*float64, bool) {
	if s.null() {
		return nil, true
	}
	v, ok := s.float()
	return &v, ok
}

func (s *fastScanner) optInt() (*int, bool) {
	if s.null() {
		return nil, true
	}
	v, ok := s.integer()
	return &v, ok
}

// array reads [elem, ...], calling elem for each element.
func (s *fastScanner) array(elem func() bool) bool {
	if !s.byte('[') {
		return false
	}
	if s.byte(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.byte(',') {
			continue
		}
		return s.byte(']')
	}
}
