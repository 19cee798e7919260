package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// value computes the statistic on one run's report.
func (s statistic) value(r *report.Report) (float64, error) {
	switch s.base {
	case "attainment", "error_rate":
		t, err := s.tally(r)
		if err != nil {
			return 0, err
		}
		x, n := t.proportion(s)
		if n == 0 {
			return 0, fmt.Errorf("%s: the report has no offered requests", s.name)
		}
		return float64(x) / float64(n), nil
	case "qualified_rps":
		if r.QualifiedRPS == nil {
			return 0, fmt.Errorf("%s: the report has no qualified rate", s.name)
		}
		return *r.QualifiedRPS, nil
	}
	if requestMetrics[s.metric] {
		xs, err := s.samples(r, true)
		if err == nil {
			return percentile(xs, s.p, r.PercentileMethod), nil
		}
		// Without per-request entries, the stored summary still answers
		// p50, p90, p95, p99 and the maximum, over the successes only.
		if v, _, _, perr := r.Percentile(s.metric, s.p); perr == nil && s.sel == nil {
			return v, nil
		}
		return 0, err
	}
	v, _, _, err := r.Percentile(s.metric, s.p)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.name, err)
	}
	return v, nil
}

// successOnly computes a latency percentile over the successful requests
// alone, the figure reported beside the one that counts failures; ok is
// false when there is none to compute.
func (s statistic) successOnly(r *report.Report) (float64, bool) {
	if !requestMetrics[s.metric] {
		return 0, false
	}
	xs, err := s.samples(r, false)
	if err != nil || len(xs) == 0 {
		return 0, false
	}
	return percentile(xs, s.p, r.PercentileMethod), true
}

// percentile is the p-th percentile of an ascending population whose
// failed requests sit at its end as +Inf: +Inf when the percentile falls
// among them.
func percentile(sorted []float64, p float64, method stats.PercentileMethod) float64 {
	v, _ := stats.Percentile(sorted, p, method)
	if math.IsNaN(v) {
		// Linear interpolation at a whole rank just below +Inf.
		h := float64(len(sorted)-1) * p / 100
		return sorted[int(math.Floor(h))]
	}
	return v
}

// samples returns the ascending per-request population of a request-level
// metric, rebuilt from the report's request entries (those of the
// selection's value, if any) and checked against the size of the
// population the scorer summarized (its successes). With failures, every
// offered request that did not succeed joins it at +Inf (a failure is
// slower than any success), except for schedule lag, which every sent
// request has.
func (s statistic) samples(r *report.Report, failures bool) ([]float64, error) {
	xs := make([]float64, 0, r.Offered)
	failed := 0
	err := r.EachRequest(func(q *report.RequestScore) error {
		if !s.sel.holds(q) {
			return nil
		}
		if s.metric != record.MetricScheduleLag && q.Status != record.StatusSuccess {
			failed++
			return nil
		}
		if v := requestValue(q, s.metric); v != nil {
			xs = append(xs, *v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	d, ok, err := s.summarized(r, len(xs))
	switch {
	case err != nil:
		return nil, err
	case !ok && (len(xs) > 0 || failed == 0):
		return nil, fmt.Errorf("%s: the report has no %s population", s.name, s.metric)
	case !ok:
		// Nothing succeeded: the scorer summarized no population.
		d.Population = "every request failed"
	}
	if len(xs) != d.N {
		return nil, fmt.Errorf("%s: the report's request entries hold %d values of %s but its population has %d", s.name, len(xs), s.metric, d.N)
	}
	slices.Sort(xs)
	if failures {
		for range failed {
			xs = append(xs, math.Inf(1))
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("%s: the %s population is empty (%s)", s.name, s.metric, d.Population)
	}
	return xs, nil
}

// summarized is the distribution the scorer kept for s's metric, which
// the n values rebuilt from the request entries are checked against: the
// run's (ok is false when it has none), or the selection's breakdown
// value's. A breakdown value keeps TTFT, TPOT and E2E; for another metric
// there is nothing to check, and the rebuilt population stands.
func (s statistic) summarized(r *report.Report, n int) (d report.Distribution, ok bool, err error) {
	if s.sel == nil {
		d, ok = r.Percentiles[s.metric]
		return d, ok, nil
	}
	bv := s.sel.breakdownValue(r)
	if bv == nil {
		return d, false, fmt.Errorf("%s: %w", s.name, s.sel.missing(r))
	}
	switch s.metric {
	case record.MetricTTFT:
		return bv.TTFT, true, nil
	case record.MetricTPOT:
		return bv.TPOT, true, nil
	case record.MetricE2E:
		return bv.E2E, true, nil
	}
	return report.Distribution{N: n, Population: "the requests with " + s.sel.dimension + " " + s.sel.value}, true, nil
}

// requestValue is one request's value of a request-level metric; nil when
// undefined.
func requestValue(q *report.RequestScore, m record.Metric) *float64 {
	switch m {
	case record.MetricScheduleLag:
		return q.ScheduleLagMS
	case record.MetricTTFT:
		return q.TTFTMS
	case record.MetricTTFTFromScheduled:
		return q.TTFTFromScheduledMS
	case record.MetricTPOT:
		return q.TPOTMS
	case record.MetricE2E:
		return q.E2EMS
	case record.MetricLastToken:
		return q.LastTokenMS
	case report.MetricMaxGap:
		return q.MaxGapMS
	}
	return nil
}
