package pytorchrecords

import (
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
)

// FromComparison gives one record per compared statistic, for command (ab
// or compare): the candidate's value, the worst candidate value the
// tolerance allows as its target, and the baseline, change, interval,
// tolerance and verdict in its extra_info. candidate is one of the
// candidate's reports, for the model and the load; nil leaves them out.
func FromComparison(command string, c *compare.Comparison, candidate *report.Report) []Record {
	var out []Record
	for _, m := range c.Comparisons {
		if !finite(m.Candidate) {
			continue
		}
		name := m.Name
		if m.Unit == "ms" {
			name += "_ms"
		}
		b := benchmarkOf(command, candidate)
		b.ExtraInfo["verdict"] = string(c.Verdict)
		rec := Record{Benchmark: b, Model: modelOf(candidate), Metric: Metric{Name: name, BenchmarkValues: []float64{m.Candidate},
			ExtraInfo: map[string]string{"unit": m.Unit, "side": "candidate", "baseline": format(m.Baseline), "change": format(m.Change),
				"ci_low": format(m.CILow), "ci_high": format(m.CIHigh), "tolerance": format(m.Tolerance), "verdict": string(m.Verdict)}}}
		if t, ok := allowed(m); ok {
			rec.Metric.TargetValue = &t
		}
		out = append(out, rec)
	}
	return out
}

// allowed is the worst candidate value m's tolerance allows against its
// baseline: baseline × (1 + tolerance) for a latency, baseline / (1 +
// tolerance) for qualified_rps (its change is baseline/candidate − 1),
// baseline − tolerance for attainment and baseline + tolerance for the
// error rate.
func allowed(m compare.MetricComparison) (float64, bool) {
	var v float64
	switch {
	case m.Kind == compare.KindRelative && m.Unit == "rps":
		v = m.Baseline / (1 + m.Tolerance)
	case m.Kind == compare.KindRelative:
		v = m.Baseline * (1 + m.Tolerance)
	case isAttainment(m.Name):
		v = m.Baseline - m.Tolerance
	default:
		v = m.Baseline + m.Tolerance
	}
	return v, finite(v)
}

// isAttainment reports whether a statistic's name is an attainment, less
// of which is worse (attainment, or attainment[adapter=sql]).
func isAttainment(name string) bool {
	return len(name) >= len("attainment") && name[:len("attainment")] == "attainment"
}
