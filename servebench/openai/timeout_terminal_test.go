package openai

import (
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// TestTimeoutNeverEndsBeforeARecordedEvent: the total deadline fired at
// 5502.25 ms, but an event already buffered was read at 5502.511 ms; the
// timeout's terminal time is then the event's, so the record keeps the
// clock rule (content no later than terminal) and stays scorable, with the
// deadline's own time kept as due.
func TestTimeoutNeverEndsBeforeARecordedEvent(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(ms float64) time.Time { return start.Add(time.Duration(ms * float64(time.Millisecond))) }
	x := &exchange{c: &Client{TotalTimeout: 5 * time.Second}, start: start,
		out: &record.Outcome{ContentMS: []float64{4000.5, 5502.511}, FirstReasoningMS: new(3999.0)}}
	x.timedOut(deadlineTotal, at(5502.25), at(5500))
	if x.out.Status != record.StatusTimeout || x.out.TerminalMS != 5502.511 || *x.out.TimeoutDueMS != 5500 {
		t.Fatalf("status %s, terminal %v, due %v; want timeout at the last event, 5502.511, due 5500",
			x.out.Status, x.out.TerminalMS, *x.out.TimeoutDueMS)
	}
	// With every event before the firing, the terminal time is the firing.
	x = &exchange{c: &Client{TotalTimeout: 5 * time.Second}, start: start, out: &record.Outcome{ContentMS: []float64{4000.5}}}
	x.timedOut(deadlineTotal, at(5502.25), at(5500))
	if x.out.TerminalMS != 5502.25 {
		t.Fatalf("terminal %v, want the firing at 5502.25", x.out.TerminalMS)
	}
	// Any end, not only a timeout: an error line decided at 5000 ms with an
	// event read at 5100 ms after it ends at 5100.
	x = &exchange{c: &Client{}, start: start, out: &record.Outcome{ContentMS: []float64{4000.5, 5100}}}
	x.end(record.StatusStreamError, at(5000), "error line: overloaded")
	if x.out.TerminalMS != 5100 {
		t.Fatalf("terminal %v, want the last event at 5100", x.out.TerminalMS)
	}
}
