package record

import (
	"fmt"
	"math"
	"time"
)

// TextField names the first text-generation field a row sets; "" when it
// sets none.
func TextField(r *Request) string {
	switch {
	case r.Prompt != "":
		return "prompt"
	case len(r.Messages) > 0:
		return "messages"
	case r.MaxTokens != 0:
		return "max_tokens"
	case r.IgnoreEOS:
		return "ignore_eos"
	case r.Expect != nil:
		return "expect"
	case r.Conversation != "":
		return "conversation"
	}
	return ""
}

// PoolingField names the first embeddings or rerank field a row sets; ""
// when it sets none.
func PoolingField(r *Request) string {
	switch {
	case r.Input != nil:
		return "input"
	case r.Query != "":
		return "query"
	case r.Documents != nil:
		return "documents"
	case r.TopN != nil:
		return "top_n"
	}
	return ""
}

// CheckTime says what is wrong with a record's time in milliseconds,
// or returns "" when it is finite, non-negative and within MaxTimeMS.
func CheckTime(ms float64) string {
	switch {
	case math.IsNaN(ms) || math.IsInf(ms, 0):
		return fmt.Sprintf("non-finite time %v", ms)
	case ms < 0:
		return fmt.Sprintf("negative time %v", ms)
	case ms > MaxTimeMS:
		return fmt.Sprintf("time %v ms is past %s: the records' microsecond resolution ends there", ms, MaxTimeText)
	}
	return ""
}

// MaxTimeText names MaxTimeMS in errors.
const MaxTimeText = "2^53 µs (about 285 years)"

// MaxTimeMS is the latest time a record can hold: past 2^53 µs (about 285
// years) a float64 of milliseconds no longer has microsecond resolution,
// and sums and differences of such times could overflow the report's
// figures to infinity.
const MaxTimeMS = float64(1<<53) / 1000

// RoundMS rounds milliseconds to the nanosecond.
func RoundMS(ms float64) float64 { return math.Round(ms*1e6) / 1e6 }

// FromMillis converts milliseconds into a Duration.
func FromMillis(ms float64) time.Duration {
	return time.Duration(ms * float64(time.Millisecond))
}
