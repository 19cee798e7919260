package record

import "github.com/servebench/servebench/internal/jsonscan"

// DecodeFast decodes one outcomes.jsonl line in the shape the
// runner writes it, without reflection and reusing o's slices. It is a
// fast path in front of the strict decoder, not a second definition of
// the format: it accepts only plain lines (known keys, each once, every
// required key present, ASCII strings without escapes, numbers in JSON's
// grammar, nothing after the object) and returns false for anything else,
// including text, tool calls and quality verdicts, so that the caller
// decodes that line strictly. Whatever it accepts, strictjson accepts with
// the same value (TestOutcomeFastMatchesStrict and its fuzz target check
// this).
func DecodeFast(line []byte, o *Outcome) bool {
	content, tokens := o.ContentMS[:0], o.EventTokens[:0]
	*o = Outcome{}
	s := jsonscan.New(line)
	blk := new(outcomeScalars) // one allocation for the line's optional numbers
	seen, ok := s.Object(outcomeFastKeys, func(f int) bool {
		return outcomeField(s, f, o, blk, &content, &tokens)
	})
	if !ok {
		return false
	}
	s.SkipSpace()
	return s.AtEnd() && seen&outcomeFastRequired == outcomeFastRequired
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
	ofCachedTokens
	ofReasoningTokens
	ofItems
	ofHTTPStatus
	ofError
	ofFinishReason
	ofLengthEnforced
	ofTimeout
	ofBackend
	ofAdapter
	ofTenant
	ofObjective
	ofImages
	ofImageBytes
	ofImagePixels
	ofImageTokens
	ofAudioInputs
	ofAudioTokens
	ofReusablePromptTokens
)

// outcomeFastNames lists the keys in the order json.Marshal writes them.
var outcomeFastNames = []string{
	ofID: "id", ofAttempt: "attempt", ofClass: "class", ofStatus: "status", ofScheduled: "scheduled_ms",
	ofSlot: "slot_ms", ofSent: "sent_ms", ofFirstContent: "first_content_ms", ofLastContent: "last_content_ms",
	ofFirstReasoning: "first_reasoning_ms", ofTerminal: "terminal_ms", ofContent: "content_ms",
	ofEventTokens: "event_tokens", ofOutputTokens: "output_tokens", ofTokenSource: "token_count_source",
	ofPromptTokens: "prompt_tokens", ofCachedTokens: "cached_tokens", ofReasoningTokens: "reasoning_tokens", ofItems: "items", ofHTTPStatus: "http_status",
	ofError: "error", ofFinishReason: "finish_reason", ofLengthEnforced: "length_enforced", ofTimeout: "timeout",
	ofBackend: "backend", ofAdapter: "adapter", ofTenant: "tenant", ofObjective: "objective", ofImages: "images", ofImageBytes: "image_bytes",
	ofImagePixels: "image_pixels", ofImageTokens: "image_tokens", ofAudioInputs: "audio_inputs",
	ofAudioTokens: "audio_tokens", ofReusablePromptTokens: "reusable_prompt_tokens",
}

// outcomeFastKeys are the keys the fast path knows, numbered as above.
var outcomeFastKeys = jsonscan.NewKeys(outcomeFastNames...)

// outcomeFastRequired are the keys json.Marshal always writes and the
// strict decoder requires (cached_tokens is always written but may be
// absent from older records).
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
func outcomeField(s *jsonscan.Scanner, f int, o *Outcome, blk *outcomeScalars, content *[]float64, tokens *[]int) bool {
	var ok bool
	switch f {
	case ofID:
		o.ID, ok = s.Text()
	case ofClass:
		o.Class, ok = s.Text()
	case ofError:
		o.Error, ok = s.Text()
	case ofFinishReason:
		o.FinishReason, ok = finishReasonText(s)
	case ofBackend:
		o.Backend, ok = s.Text()
	case ofAdapter:
		o.Adapter, ok = s.Text()
	case ofTenant:
		o.Tenant, ok = s.Text()
	case ofObjective:
		o.Objective, ok = s.Text()
	case ofStatus:
		o.Status, ok = statusText(s)
	case ofAttempt:
		o.Attempt, ok = s.Int()
	case ofScheduled:
		o.ScheduledMS, ok = s.Float()
	case ofTerminal:
		o.TerminalMS, ok = s.Float()
	case ofSlot:
		o.SlotMS, ok = optFloatInto(s, &blk.slot)
	case ofSent:
		o.SentMS, ok = optFloatInto(s, &blk.sent)
	case ofFirstContent:
		o.FirstContentMS, ok = optFloatInto(s, &blk.firstContent)
	case ofLastContent:
		o.LastContentMS, ok = optFloatInto(s, &blk.lastContent)
	case ofFirstReasoning:
		o.FirstReasoningMS, ok = optFloatInto(s, &blk.firstReasoning)
	case ofOutputTokens:
		o.OutputTokens, ok = optIntInto(s, &blk.outputTokens)
	case ofPromptTokens:
		o.PromptTokens, ok = optIntInto(s, &blk.promptTokens)
	case ofCachedTokens:
		o.CachedTokens, ok = optIntInto(s, &blk.cachedTokens)
	case ofReasoningTokens:
		o.ReasoningTokens, ok = optIntInto(s, &blk.reasoningTokens)
	case ofItems:
		o.Items, ok = optIntInto(s, &blk.items)
	case ofImages:
		o.Images, ok = s.Int()
	case ofImageBytes:
		o.ImageBytes, ok = s.Int()
	case ofImagePixels:
		o.ImagePixels, ok = s.Int()
	case ofImageTokens:
		o.ImageTokens, ok = optIntInto(s, &blk.imageTokens)
	case ofAudioInputs:
		o.AudioInputs, ok = s.Int()
	case ofAudioTokens:
		o.AudioTokens, ok = optIntInto(s, &blk.audioTokens)
	case ofReusablePromptTokens:
		o.ReusablePromptTokens, ok = optIntInto(s, &blk.reusablePromptTokens)
	case ofHTTPStatus:
		o.HTTPStatus, ok = optIntInto(s, &blk.httpStatus)
	case ofTokenSource:
		if s.Null() {
			return true
		}
		blk.tokenSource, ok = tokenSourceText(s)
		o.TokenCountSource = &blk.tokenSource
	case ofTimeout:
		if s.Null() {
			return true
		}
		var t string
		t, ok = s.Text()
		o.Timeout = new(TimeoutKind(t))
	case ofLengthEnforced:
		if s.Null() {
			return true
		}
		var b bool
		b, ok = s.Bool()
		o.LengthEnforced = &b
	case ofContent:
		if s.Null() {
			return true
		}
		*content, ok = s.AppendFloats(*content)
		if *content == nil {
			*content = []float64{}
		}
		o.ContentMS = *content
	case ofEventTokens:
		if s.Null() {
			return true
		}
		*tokens, ok = s.AppendInts(*tokens)
		if *tokens == nil {
			*tokens = []int{}
		}
		o.EventTokens = *tokens
	}
	return ok
}

// statusText reads a status without a copy of its text when it is one of
// the statuses (the strict decoder rejects any other later).
func statusText(s *jsonscan.Scanner) (Status, bool) {
	b, ok := s.Str()
	for _, st := range statuses {
		if string(b) == string(st) {
			return st, ok
		}
	}
	return Status(b), ok
}

// finishReasonText reads a finish reason without a copy of its text when
// it is one that engines commonly send.
func finishReasonText(s *jsonscan.Scanner) (string, bool) {
	b, ok := s.Str()
	switch string(b) {
	case "":
		return "", ok
	case "length":
		return "length", ok
	case "stop":
		return "stop", ok
	}
	return string(b), ok
}

// outcomeScalars holds one line's optional numbers and token source, so
// that the pointers DecodeFast sets cost one allocation rather than one
// each.
type outcomeScalars struct {
	slot, sent, firstContent, lastContent, firstReasoning            float64
	outputTokens, promptTokens, cachedTokens, reasoningTokens, items int
	imageTokens, audioTokens, reusablePromptTokens, httpStatus       int
	tokenSource                                                      TokenCountSource
}

// optFloatInto reads a number or null as Scanner.OptFloat does, keeping
// the number in *slot.
func optFloatInto(s *jsonscan.Scanner, slot *float64) (*float64, bool) {
	if s.Null() {
		return nil, true
	}
	v, ok := s.Float()
	*slot = v
	return slot, ok
}

// optIntInto reads an integer or null as Scanner.OptInt does, keeping the
// integer in *slot.
func optIntInto(s *jsonscan.Scanner, slot *int) (*int, bool) {
	if s.Null() {
		return nil, true
	}
	v, ok := s.Int()
	*slot = v
	return slot, ok
}

// tokenSourceText reads a token count source without a copy of its text
// when it is one of the known ones.
func tokenSourceText(s *jsonscan.Scanner) (TokenCountSource, bool) {
	b, ok := s.Str()
	for _, src := range []TokenCountSource{TokensFromUsage, TokensFromLogprobs, TokensEstimated} {
		if string(b) == string(src) {
			return src, ok
		}
	}
	return TokenCountSource(b), ok
}
