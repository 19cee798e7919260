package report

import (
	"strings"

	"github.com/servebench/servebench/servebench/record"
)

// MetricNamed returns the metric a contract's percentile objective or a
// command line's threshold names: its short name ("ttft", "max_gap") or its
// report key ("ttft_ms"). ok is false for a name no population of the
// report has.
func MetricNamed(name string) (m record.Metric, ok bool) {
	key := record.Metric(strings.TrimSuffix(name, "_ms") + "_ms")
	for _, m := range metricOrder {
		if m == key {
			return m, true
		}
	}
	return "", false
}

// MetricNames lists the short names of the report's populations, in report
// order ("ttft", "ttft_from_scheduled", "tpot", …): the names MetricNamed
// takes.
func MetricNames() []string {
	names := make([]string, len(metricOrder))
	for i, m := range metricOrder {
		names[i] = strings.TrimSuffix(string(m), "_ms")
	}
	return names
}
