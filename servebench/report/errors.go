package report

import (
	"cmp"
	"slices"

	"github.com/servebench/servebench/servebench/record"
)

// ErrorMessages are the failure messages of a report's requests, counted
// as the scorer passed them, so that a report whose request entries are in
// requests.jsonl still says why its requests failed.
type ErrorMessages struct {
	// Top lists the most common messages, most common first (ties by
	// status, then message), at most TopErrorMessages of them.
	Top []ErrorMessageCount `json:"top"`
	// Distinct counts the distinct (status, message) pairs; when Capped,
	// only the first MaxErrorMessages were told apart and Distinct is a
	// lower bound.
	Distinct int  `json:"distinct"`
	Capped   bool `json:"capped,omitempty"`
}

// ErrorMessageCount is one distinct failure message and how many offered
// requests ended with it.
type ErrorMessageCount struct {
	Status  record.Status `json:"status"`
	Message string        `json:"message"`
	Count   int           `json:"count"`
}

// TopErrorMessages is how many messages ErrorMessages.Top keeps, and
// MaxErrorMessages how many distinct ones a tally tells apart: a run whose
// every error names its request would otherwise grow with its length.
const (
	TopErrorMessages = 10
	MaxErrorMessages = 4096
)

// ErrorMessageTally counts failure messages as requests pass.
type ErrorMessageTally struct {
	counts map[ErrorMessageCount]int // keyed with Count 0
	capped bool
}

// Add counts one request's failure message; an empty message is not a
// failure message.
func (t *ErrorMessageTally) Add(status record.Status, message string) {
	if message == "" {
		return
	}
	k := ErrorMessageCount{Status: status, Message: message}
	if _, ok := t.counts[k]; !ok && len(t.counts) >= MaxErrorMessages {
		t.capped = true
		return
	}
	if t.counts == nil {
		t.counts = map[ErrorMessageCount]int{}
	}
	t.counts[k]++
}

// Result is the tally's ErrorMessages; nil when no request failed with a
// message.
func (t *ErrorMessageTally) Result() *ErrorMessages {
	if len(t.counts) == 0 {
		return nil
	}
	all := make([]ErrorMessageCount, 0, len(t.counts))
	for k, n := range t.counts {
		k.Count = n
		all = append(all, k)
	}
	slices.SortFunc(all, func(a, b ErrorMessageCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Status, b.Status), cmp.Compare(a.Message, b.Message))
	})
	return &ErrorMessages{Top: all[:min(len(all), TopErrorMessages)], Distinct: len(all), Capped: t.capped}
}
