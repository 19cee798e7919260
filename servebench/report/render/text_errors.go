package render

import (
	"fmt"
	"strconv"

	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/report"
)

// textErrorMessages is how many distinct failure messages the text report
// shows (each shortened to oneline.Limit bytes).
const textErrorMessages = 5

// commonErrorMessages is the report's ErrorMessages: counted by the scorer,
// or, for a report without them, from the request entries it holds. A
// report whose entries are in a requests file (Report.RequestsFile) was
// scored in a streamed pass, which counts the messages as it goes: there
// nil means that no request failed with a message, and the file is not
// read again for nothing.
func commonErrorMessages(r *report.Report) (*report.ErrorMessages, error) {
	if r.ErrorMessages != nil || len(r.Requests) == 0 {
		return r.ErrorMessages, nil
	}
	var t report.ErrorMessageTally
	err := r.EachRequest(func(q *report.RequestScore) error {
		t.Add(q.Status, q.Error)
		return nil
	})
	return t.Result(), err
}

// writeErrorMessagesText lists the most common failure messages, so that
// a status count such as "http_error: 75" comes with the engine's reason.
func writeErrorMessagesText(line func(label, format string, args ...any), rule func(string), r *report.Report) {
	m, err := commonErrorMessages(r)
	if err != nil {
		rule("Most common error messages")
		line("unreadable", "%v", err)
		return
	}
	if m == nil {
		return
	}
	distinct := strconv.Itoa(m.Distinct)
	if m.Capped {
		distinct = "at least " + distinct
	}
	rule(fmt.Sprintf("Most common error messages (%s distinct)", distinct))
	for _, e := range m.Top[:min(len(m.Top), textErrorMessages)] {
		line(string(e.Status), "%d × %s", e.Count, oneline.Shorten(e.Message))
	}
}
