package llmdreport

import (
	"math"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// percentileFields are the schema's percentiles, p0.1 to p99.9, with the
// field each one fills.
var percentileFields = []struct {
	p     float64
	field func(*Statistics) **float64
}{
	{0.1, func(s *Statistics) **float64 { return &s.P0p1 }},
	{1, func(s *Statistics) **float64 { return &s.P1 }},
	{5, func(s *Statistics) **float64 { return &s.P5 }},
	{10, func(s *Statistics) **float64 { return &s.P10 }},
	{25, func(s *Statistics) **float64 { return &s.P25 }},
	{50, func(s *Statistics) **float64 { return &s.P50 }},
	{75, func(s *Statistics) **float64 { return &s.P75 }},
	{90, func(s *Statistics) **float64 { return &s.P90 }},
	{95, func(s *Statistics) **float64 { return &s.P95 }},
	{99, func(s *Statistics) **float64 { return &s.P99 }},
	{99.9, func(s *Statistics) **float64 { return &s.P99p9 }},
}

// PercentileLevels are the schema's percentiles that a report does not
// always keep: a run that writes the Benchmark Report asks its scorer for
// them (servebench.PercentileLevels).
func (Writer) PercentileLevels() []float64 {
	var ps []float64
	for _, f := range percentileFields {
		ps = append(ps, f.p)
	}
	return ps
}

// fillPercentiles sets min, max and every schema percentile that pick
// answers; pick reports false for one it cannot.
func fillPercentiles(s *Statistics, pick func(p float64) (float64, bool)) {
	if v, ok := pick(0); ok {
		s.Min = &v
	}
	if v, ok := pick(100); ok {
		s.Max = &v
	}
	for _, f := range percentileFields {
		if v, ok := pick(f.p); ok {
			*f.field(s) = &v
		}
	}
}

// sampleStatistics summarizes a counted sample: mean, population standard
// deviation, min, max and the percentiles by method, each the value the
// sorted sample gives. Nil for an empty sample: an undefined figure is
// left out, never written as zero.
func sampleStatistics(units string, xs *lengthCounts, method stats.PercentileMethod) *Statistics {
	n := xs.len()
	if n == 0 {
		return nil
	}
	mean := xs.sum() / float64(n)
	var sq float64
	xs.each(func(x float64) { sq += (x - mean) * (x - mean) })
	sd := math.Sqrt(sq / float64(n))
	s := &Statistics{Units: units, Mean: mean, Stddev: &sd}
	fillPercentiles(s, func(p float64) (float64, bool) { return stats.PercentileAt(n, xs.at, p, method) })
	return s
}

// metricStatistics summarizes one of the report's latency populations. A
// run that writes the Benchmark Report has its scorer keep every schema
// percentile (Writer.PercentileLevels); a report scored without them keeps
// min, p50, p90, p95, p99 and the maximum, and the others are left out.
// Nil when the population is empty.
func metricStatistics(rep *report.Report, m record.Metric, units string) *Statistics {
	d, ok := rep.Percentiles[m]
	if !ok || d.N == 0 || d.Mean == nil {
		return nil
	}
	s := &Statistics{Units: units, Mean: *d.Mean}
	fillPercentiles(s, func(p float64) (float64, bool) {
		v, _, _, err := rep.Percentile(m, p)
		return v, err == nil
	})
	return s
}

// rate is a single figure over the horizon, as a statistics object.
func rate(units string, v *float64) *Statistics {
	if v == nil {
		return nil
	}
	return &Statistics{Units: units, Mean: *v}
}
