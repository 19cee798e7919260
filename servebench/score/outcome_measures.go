package score

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
)

// OutcomeMeasures are one request's latencies in milliseconds, as the
// scorer defines them; nil where undefined (never zero for unknown).
type OutcomeMeasures struct {
	// ScheduleLagMS is d - a; nil when the request was never sent.
	ScheduleLagMS *float64
	// TTFTMS is f - d; nil without content.
	TTFTMS *float64
	// TPOTMS is (l - f)/(n - 1); nil unless n > 1 and there were at least
	// two content events.
	TPOTMS *float64
	// E2EMS is e - d; nil when the request was never sent.
	E2EMS *float64
}

// MeasureOutcome derives the record's latencies by the scorer's own rules,
// for an Observer that follows a run live. A record that breaks the clock
// rules (which the scorer would refuse) is an error.
func Measure(o *record.Outcome) (OutcomeMeasures, error) {
	rec, err := recordFromOutcome(o, o.ScheduledMS, o.Class, func(field, format string, args ...any) error {
		return fmt.Errorf("outcome %s: %s: %s", o.ID, field, fmt.Sprintf(format, args...))
	})
	if err != nil {
		return OutcomeMeasures{}, err
	}
	m := measureRecord(&rec)
	var om OutcomeMeasures
	if rec.sent != nil {
		om.ScheduleLagMS = new(m.lag)
	}
	if m.hasE2E && rec.sent != nil {
		om.E2EMS = new(m.e2e)
	}
	if m.hasContent {
		om.TTFTMS = new(m.ttft)
	}
	if m.hasTPOT {
		om.TPOTMS = new(m.tpot)
	}
	return om, nil
}
