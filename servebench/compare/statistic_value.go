package compare

import (
	"fmt"
	"slices"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/stats"
)

// value computes the statistic on one run's report.
func (s statistic) value(r *servebench.Report) (float64, error) {
	switch s.name {
	case "attainment":
		if r.Attainment == nil {
			return 0, fmt.Errorf("%s: the report has no attainment (nothing offered)", s.name)
		}
		return *r.Attainment, nil
	case "error_rate":
		if r.Offered == 0 {
			return 0, fmt.Errorf("%s: the report has no offered requests", s.name)
		}
		return float64(r.Offered-r.ProtocolSuccesses) / float64(r.Offered), nil
	case "qualified_rps":
		if r.QualifiedRPS == nil {
			return 0, fmt.Errorf("%s: the report has no qualified rate", s.name)
		}
		return *r.QualifiedRPS, nil
	}
	if requestMetrics[s.metric] {
		xs, err := s.samples(r)
		if err == nil {
			v, _ := stats.Percentile(xs, s.p, r.PercentileMethod)
			return v, nil
		}
		// Without per-request entries, the stored summary still answers
		// p50, p90, p95, p99 and the maximum.
		if v, _, _, perr := r.Percentile(s.metric, s.p); perr == nil {
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

// samples returns the ascending per-request population of a request-level
// metric, rebuilt from the report's request entries and checked against the
// size of the population the scorer summarized.
func (s statistic) samples(r *servebench.Report) ([]float64, error) {
	xs := make([]float64, 0, len(r.Requests))
	for i := range r.Requests {
		q := &r.Requests[i]
		var v *float64
		switch s.metric {
		case servebench.MetricScheduleLag:
			v = q.ScheduleLagMS
		case servebench.MetricTTFT:
			v = q.TTFTMS
		case servebench.MetricTTFTFromScheduled:
			v = q.TTFTFromScheduledMS
		case servebench.MetricTPOT:
			v = q.TPOTMS
		case servebench.MetricE2E:
			v = q.E2EMS
		case servebench.MetricLastToken:
			v = q.LastTokenMS
		case servebench.MetricMaxGap:
			v = q.MaxGapMS
		}
		if v == nil || (s.metric != servebench.MetricScheduleLag && q.Status != servebench.StatusSuccess) {
			continue
		}
		xs = append(xs, *v)
	}
	d, ok := r.Percentiles[s.metric]
	if !ok {
		return nil, fmt.Errorf("%s: the report has no %s population", s.name, s.metric)
	}
	if len(xs) != d.N {
		return nil, fmt.Errorf("%s: the report's request entries hold %d values of %s but its population has %d", s.name, len(xs), s.metric, d.N)
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("%s: the %s population is empty (%s)", s.name, s.metric, d.Population)
	}
	slices.Sort(xs)
	return xs, nil
}
