package score

import (
	"math"
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// shedTally counts, per 1 s window of the run clock (by sent time), the
// critical and sheddable requests sent and rejected: memory per second of
// the run, not per request.
type shedTally struct {
	critical []string
	windows  map[int64]*shedWindow
	sum      report.ShedOrder
}

// shedWindow is one window's counts.
type shedWindow struct {
	critical, criticalRejected, sheddable, sheddableRejected int
}

func newShedTally(critical []string) *shedTally {
	if len(critical) == 0 {
		return nil
	}
	return &shedTally{critical: critical, windows: map[int64]*shedWindow{}}
}

// add counts a request that carried an objective and was sent.
func (t *shedTally) add(rs *report.RequestScore) {
	if t == nil || rs.Objective == "" || rs.SentMS == nil {
		return
	}
	k := int64(math.Floor(*rs.SentMS / report.ShedOrderWindowMS))
	w := t.windows[k]
	if w == nil {
		w = &shedWindow{}
		t.windows[k] = w
	}
	rejected := rs.Status == record.StatusRejected
	if slices.Contains(t.critical, rs.Objective) {
		w.critical++
		t.sum.CriticalSent++
		if rejected {
			w.criticalRejected++
			t.sum.CriticalRejected++
		}
		return
	}
	w.sheddable++
	t.sum.SheddableSent++
	if rejected {
		w.sheddableRejected++
		t.sum.SheddableRejected++
	}
}

// report judges the windows.
func (t *shedTally) report() *report.ShedOrder {
	if t == nil {
		return nil
	}
	out := t.sum
	out.Critical, out.WindowMS = slices.Clone(t.critical), report.ShedOrderWindowMS
	first := int64(math.MaxInt64)
	for k, w := range t.windows {
		if w.critical == 0 || w.sheddable == 0 {
			continue
		}
		out.Windows++
		if w.criticalRejected > 0 && w.sheddableRejected < w.sheddable {
			out.Violations++
			first = min(first, k)
		}
	}
	if out.Violations > 0 {
		out.FirstViolationMS = new(float64(first) * report.ShedOrderWindowMS)
	}
	return &out
}
