package scorer

import "github.com/servebench/servebench/servebench/record"

// Measures are one request's latencies in milliseconds, as the scorer
// defines them; nil where undefined (never zero for unknown).
type Measures struct {
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

// Measure derives a record's latencies by the scorer's own rules, for the
// live metrics that follow a run. A record that breaks the clock rules
// (which the scorer would refuse) is an error. Package score sets it.
var Measure func(o *record.Outcome) (Measures, error)
