package score

import (
	"fmt"

	"github.com/servebench/servebench/servebench/internal/scorer"
	"github.com/servebench/servebench/servebench/record"
)

// measureOutcome derives the record's latencies by the scorer's own rules
// (scorer.Measure). A record that breaks the clock rules is an error.
func measureOutcome(o *record.Outcome) (scorer.Measures, error) {
	rec, err := recordFromOutcome(o, o.ScheduledMS, o.Class, func(field, format string, args ...any) error {
		return fmt.Errorf("outcome %s: %s: %s", o.ID, field, fmt.Sprintf(format, args...))
	})
	if err != nil {
		return scorer.Measures{}, err
	}
	m := measureRecord(&rec)
	var om scorer.Measures
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
