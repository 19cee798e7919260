package report

import (
	"encoding/json"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// SLO declares the latency properties a request must have to qualify. A zero
// field is not declared and is not judged.
//
// Every bound is inclusive: a request fails an objective only when its value
// is above the bound, so a value exactly at the bound attains it (TTFT 300 ms
// against a 300 ms objective qualifies; 300.001 ms does not). Values are
// compared at the records' microsecond resolution.
type SLO struct {
	// TTFT bounds time to first token, f - d (or f - a with TTFTFromScheduled).
	TTFT time.Duration
	// TPOT bounds the request's mean time per output token after the first.
	// It is not applicable to a successful single-token response.
	TPOT time.Duration
	// E2E bounds terminal latency, e - d.
	E2E time.Duration
	// TTFTFromScheduled judges TTFT from the scheduled time instead of the
	// send time, so that generator lag counts against the request.
	TTFTFromScheduled bool
}

// Declared reports whether any latency property is declared.
func (s SLO) Declared() bool { return s.TTFT > 0 || s.TPOT > 0 || s.E2E > 0 }

// sloJSON is the SLO's wire form: milliseconds, each field optional.
type sloJSON struct {
	TTFTMS            *float64 `json:"ttft_ms,omitempty"`
	TPOTMS            *float64 `json:"tpot_ms,omitempty"`
	E2EMS             *float64 `json:"e2e_ms,omitempty"`
	TTFTFromScheduled bool     `json:"ttft_from_scheduled,omitempty"`
}

// MarshalJSON writes the declared bounds in milliseconds.
func (s SLO) MarshalJSON() ([]byte, error) {
	var w sloJSON
	if s.TTFT > 0 {
		w.TTFTMS = new(record.Millis(s.TTFT))
	}
	if s.TPOT > 0 {
		w.TPOTMS = new(record.Millis(s.TPOT))
	}
	if s.E2E > 0 {
		w.E2EMS = new(record.Millis(s.E2E))
	}
	w.TTFTFromScheduled = s.TTFTFromScheduled
	return json.Marshal(w)
}

// UnmarshalJSON reads bounds in milliseconds.
func (s *SLO) UnmarshalJSON(b []byte) error {
	var w sloJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = SLO{TTFTFromScheduled: w.TTFTFromScheduled}
	if w.TTFTMS != nil {
		s.TTFT = record.FromMillis(*w.TTFTMS)
	}
	if w.TPOTMS != nil {
		s.TPOT = record.FromMillis(*w.TPOTMS)
	}
	if w.E2EMS != nil {
		s.E2E = record.FromMillis(*w.E2EMS)
	}
	return nil
}
