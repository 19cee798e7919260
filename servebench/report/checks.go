package report

import (
	"fmt"
	"math"
)

// OutputLengthCheck verifies the rows that force their output length
// (ignore_eos): whether the engine could be asked to honour it at all, and
// whether the successful responses really came back at max_tokens.
type OutputLengthCheck struct {
	// Forced counts scheduled requests whose row sets ignore_eos.
	Forced int `json:"forced"`
	// NotEnforceable counts those sent to an engine that ignores the
	// request (its length control is "unsupported"): their lengths are
	// natural, whatever the workload declared.
	NotEnforceable int `json:"not_enforceable"`
	// ShortOfMaxTokens counts successful forced requests whose output
	// token count was below max_tokens; Unknown counts those whose count
	// was unknown.
	ShortOfMaxTokens int `json:"short_of_max_tokens"`
	Unknown          int `json:"unknown"`
	// Examples lists a few short responses.
	Examples []string `json:"examples,omitempty"`
}

// PromptTokenTolerance bounds how far an engine's usage.prompt_tokens may
// be from the prompt_tokens a row declares before the request is flagged:
// the allowed difference is the larger of Absolute and Relative times the
// declared count. Chat templates and special tokens add a steady few
// tokens (8 to 13 are common), tool definitions many more, and an engine
// with another tokenizer differs in proportion to the length.
type PromptTokenTolerance struct {
	// Absolute is the allowed difference in tokens.
	Absolute int `json:"absolute"`
	// Relative is the allowed difference as a fraction of the declared
	// count.
	Relative float64 `json:"relative"`
}

// DefaultPromptTokenTolerance allows 16 tokens or 5 %, whichever is more.
var DefaultPromptTokenTolerance = PromptTokenTolerance{Absolute: 16, Relative: 0.05}

// PromptTokenMismatch is the comparison of one request's declared and
// reported prompt lengths.
type PromptTokenMismatch struct {
	// Requested is the row's prompt_tokens; Reported the engine's
	// usage.prompt_tokens.
	Requested int `json:"requested"`
	Reported  int `json:"reported"`
	// Difference is Reported - Requested: positive when the engine saw
	// more tokens (template overhead), negative when fewer (truncation, or
	// another tokenizer).
	Difference int `json:"difference"`
	// Allowed is the tolerance in tokens for this request.
	Allowed int `json:"allowed"`
	// Mismatch is true when |Difference| > Allowed.
	Mismatch bool `json:"mismatch"`
}

// String describes the comparison in one line.
func (m PromptTokenMismatch) String() string {
	verdict := "within"
	if m.Mismatch {
		verdict = "beyond"
	}
	return fmt.Sprintf("requested %d prompt tokens, engine reported %d (%+d, %s the allowed ±%d)",
		m.Requested, m.Reported, m.Difference, verdict, m.Allowed)
}

// ComparePromptTokens compares the prompt length a row requested with the
// length the engine reported, under tolerance tol.
func ComparePromptTokens(requested, reported int, tol PromptTokenTolerance) PromptTokenMismatch {
	allowed := max(tol.Absolute, int(math.Ceil(tol.Relative*float64(requested))))
	diff := reported - requested
	abs := diff
	if abs < 0 {
		abs = -abs
	}
	return PromptTokenMismatch{
		Requested:  requested,
		Reported:   reported,
		Difference: diff,
		Allowed:    allowed,
		Mismatch:   abs > allowed,
	}
}

// PromptTokenAudit accumulates comparisons over a run: how many requests
// could be compared, how many were beyond tolerance, the mean difference
// (a steady positive value is template overhead) and a few examples.
type PromptTokenAudit struct {
	// Tolerance is the tolerance applied.
	Tolerance PromptTokenTolerance `json:"tolerance"`
	// Compared counts requests with both numbers; Unreported those whose
	// row declared a length but whose engine reported none.
	Compared   int `json:"compared"`
	Unreported int `json:"unreported"`
	// Mismatched counts comparisons beyond tolerance.
	Mismatched int `json:"mismatched"`
	// MeanDifference is the mean of Reported - Requested; nil before any
	// comparison.
	MeanDifference *float64 `json:"mean_difference"`
	// MaxAbsDifference is the largest |Reported - Requested|.
	MaxAbsDifference int `json:"max_abs_difference"`
	// Examples describes up to five mismatches, with request IDs.
	Examples []string `json:"examples,omitempty"`
	// CarriedHistory counts the later conversation turns left out: their
	// rows' assistant messages stand for earlier answers, which engine
	// history replaces, so the row's intended length is not what was sent.
	CarriedHistory int `json:"carried_history,omitempty"`

	sum int64
}

// Add compares one request; requested or reported nil means unknown. A
// request whose row declared no length is not counted.
func (a *PromptTokenAudit) Add(id string, requested, reported *int) {
	if requested == nil {
		return
	}
	if reported == nil {
		a.Unreported++
		return
	}
	m := ComparePromptTokens(*requested, *reported, a.Tolerance)
	a.Compared++
	a.sum += int64(m.Difference)
	a.MeanDifference = new(float64(a.sum) / float64(a.Compared))
	a.MaxAbsDifference = max(a.MaxAbsDifference, m.Difference, -m.Difference)
	if m.Mismatch {
		a.Mismatched++
		if len(a.Examples) < 5 {
			a.Examples = append(a.Examples, id+": "+m.String())
		}
	}
}
