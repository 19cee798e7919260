package pytorchrecords

import (
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// runMetric is one metric a run's records give: its record name, its unit
// and how to read it from a report.
type runMetric struct {
	name, unit string
	// statistic is the name a --threshold gives it, for its target.
	statistic string
	value     func(*report.Report) (float64, bool)
}

// percentileMetric reads p of metric m from a report.
func percentileMetric(m record.Metric, p float64) func(*report.Report) (float64, bool) {
	return func(r *report.Report) (float64, bool) {
		v, n, _, err := r.Percentile(m, p)
		return v, err == nil && n > 0
	}
}

// runMetrics are the metrics of a run's records, in order.
var runMetrics = []runMetric{
	{"attainment", "fraction", "attainment", func(r *report.Report) (float64, bool) {
		if r.Attainment == nil {
			return 0, false
		}
		return *r.Attainment, true
	}},
	{"error_rate", "fraction", "error_rate", func(r *report.Report) (float64, bool) {
		if r.Offered == 0 {
			return 0, false
		}
		return float64(r.Offered-r.ProtocolSuccesses) / float64(r.Offered), true
	}},
	{"qualified_rps", "req/s", "qualified_rate", func(r *report.Report) (float64, bool) {
		if r.QualifiedRPS == nil {
			return 0, false
		}
		return *r.QualifiedRPS, true
	}},
	{"output_tokens_per_second", "tokens/s", "", func(r *report.Report) (float64, bool) {
		for _, t := range r.Throughput {
			if t.Unit == record.ThroughputOutputTokens {
				return t.PerSecond, t.Reported > 0
			}
		}
		return 0, false
	}},
	{"ttft_p50_ms", "ms", "ttft_p50", percentileMetric(record.MetricTTFT, 50)},
	{"ttft_p99_ms", "ms", "ttft_p99", percentileMetric(record.MetricTTFT, 99)},
	{"tpot_p50_ms", "ms", "tpot_p50", percentileMetric(record.MetricTPOT, 50)},
	{"tpot_p99_ms", "ms", "tpot_p99", percentileMetric(record.MetricTPOT, 99)},
	{"e2e_p50_ms", "ms", "e2e_p50", percentileMetric(record.MetricE2E, 50)},
	{"e2e_p99_ms", "ms", "e2e_p99", percentileMetric(record.MetricE2E, 99)},
}

// benchmarkOf describes the run of r for command.
func benchmarkOf(command string, r *report.Report) Benchmark {
	b := Benchmark{Name: BenchmarkName, Mode: Mode, ExtraInfo: map[string]string{"command": command}}
	if r == nil {
		return b
	}
	if r.Endpoint != "" {
		b.ExtraInfo["endpoint"] = string(r.Endpoint)
	}
	if r.OfferedRPS != nil {
		b.ExtraInfo["offered_rps"] = format(*r.OfferedRPS)
	}
	if r.Inputs.WorkloadSHA256 != "" {
		b.ExtraInfo["workload_sha256"] = r.Inputs.WorkloadSHA256
	}
	if e := r.Experiment; e != nil {
		b.ExtraInfo["run_id"] = e.RunID
		b.ExtraInfo["arrival"] = string(e.Arrival.Process)
	}
	return b
}

// modelOf names r's model; "" when the report does not say.
func modelOf(r *report.Report) Model {
	if r == nil || r.Experiment == nil {
		return Model{}
	}
	return Model{Name: r.Experiment.Model}
}

// FromRun gives one record per metric r holds: attainment, error rate,
// qualified request rate, output tokens per second, and p50 and p99 of
// TTFT, TPOT and E2E in ms. targets are bounds by threshold statistic
// ("ttft_p99": 500), each the target_value of its metric's record.
func FromRun(r *report.Report, targets map[string]float64) []Record {
	var out []Record
	for _, m := range runMetrics {
		v, ok := m.value(r)
		if !ok || !finite(v) {
			continue
		}
		rec := Record{Benchmark: benchmarkOf("run", r), Model: modelOf(r),
			Metric: Metric{Name: m.name, BenchmarkValues: []float64{v}, ExtraInfo: map[string]string{"unit": m.unit}}}
		if t, has := targets[m.statistic]; has && m.statistic != "" {
			rec.Metric.TargetValue = &t
		}
		out = append(out, rec)
	}
	return out
}

// statisticOf is a threshold's statistic as a target key: the report's
// metric names ("ttft_ms_p99") are written "ttft_p99".
func statisticOf(statistic string) string {
	return strings.Replace(statistic, "_ms_p", "_p", 1)
}

// Targets are the thresholds' bounds by statistic, for FromRun: a latency
// bound in ms, a ratio's in its unit. A statistic bounded twice keeps the
// last bound given.
func Targets(ts []threshold.Threshold) map[string]float64 {
	out := map[string]float64{}
	for _, t := range ts {
		out[statisticOf(t.Statistic)] = t.Bound
	}
	return out
}
