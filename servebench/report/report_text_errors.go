package report

import (
	"fmt"
	"sort"

	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/record"
)

// textErrorMessages is how many distinct failure messages the text report
// shows (each shortened to oneline.Limit bytes).
const textErrorMessages = 5

// errorMessageCount is one distinct failure message and how many offered
// requests ended with it.
type errorMessageCount struct {
	status  record.Status
	message string
	count   int
}

// commonErrorMessages groups the failed requests by status and message,
// most common first (ties in status, then message order). It also returns
// how many distinct messages there were.
func commonErrorMessages(r *Report, limit int) ([]errorMessageCount, int, error) {
	type key struct {
		status  record.Status
		message string
	}
	counts := map[key]int{}
	err := r.EachRequest(func(q *RequestScore) error {
		if q.Error != "" {
			counts[key{q.Status, q.Error}]++
		}
		return nil
	})
	out := make([]errorMessageCount, 0, len(counts))
	for k, n := range counts {
		out = append(out, errorMessageCount{k.status, k.message, n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.count != b.count {
			return a.count > b.count
		}
		if a.status != b.status {
			return a.status < b.status
		}
		return a.message < b.message
	})
	distinct := len(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out, distinct, err
}

// writeErrorMessagesText lists the most common failure messages, so that
// a status count such as "http_error: 75" comes with the engine's reason.
func writeErrorMessagesText(line func(label, format string, args ...any), rule func(string), r *Report) {
	top, distinct, err := commonErrorMessages(r, textErrorMessages)
	if err != nil {
		rule("Most common error messages")
		line("unreadable", "%v", err)
		return
	}
	if distinct == 0 {
		return
	}
	rule(fmt.Sprintf("Most common error messages (%d distinct)", distinct))
	for _, e := range top {
		line(string(e.status), "%d × %s", e.count, oneline.Shorten(e.message))
	}
}
