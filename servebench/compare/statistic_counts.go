package compare

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// requestCounts are one run's counts of the requests a statistic covers.
type requestCounts struct{ offered, qualified, failed int }

// proportion is the statistic's numerator and denominator: qualified of
// offered for attainment, failed of offered for the error rate.
func (t requestCounts) proportion(s statistic) (x, n int) {
	if s.base == "error_rate" {
		return t.failed, t.offered
	}
	return t.qualified, t.offered
}

// tally counts the requests s covers on run r: the report's own counts
// for the whole run; for a breakdown selection, the run's request entries
// with its value, checked against the breakdown's own counts.
func (s statistic) tally(r *report.Report) (requestCounts, error) {
	if s.sel == nil {
		return requestCounts{offered: r.Offered, qualified: r.Qualified, failed: r.Offered - r.ProtocolSuccesses}, nil
	}
	bv := s.sel.breakdownValue(r)
	if bv == nil {
		return requestCounts{}, fmt.Errorf("%s: %w", s.name, s.sel.missing(r))
	}
	var t requestCounts
	err := r.EachRequest(func(q *report.RequestScore) error {
		if s.sel.holds(q) {
			t.offered++
			if q.Qualified {
				t.qualified++
			}
			if q.Status != record.StatusSuccess {
				t.failed++
			}
		}
		return nil
	})
	if err != nil {
		return requestCounts{}, fmt.Errorf("%s: %w", s.name, err)
	}
	if t.offered != bv.Offered || t.qualified != bv.Qualified {
		return requestCounts{}, fmt.Errorf("%s: the run's request entries hold %d offered and %d qualified requests with %s %q, its breakdown %d and %d (a breakdown selection needs the run's request entries, requests.jsonl)",
			s.name, t.offered, t.qualified, s.sel.dimension, s.sel.value, bv.Offered, bv.Qualified)
	}
	return t, nil
}
