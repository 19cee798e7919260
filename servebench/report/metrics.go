package report

import (
	"slices"

	"github.com/servebench/servebench/servebench/record"
)

// MetricMaxGap is each successful request's worst gap between content
// events: a population of requests, unlike the pooled gaps of MetricITL and
// MetricChunkGap, in which a long response weighs more.
const MetricMaxGap record.Metric = "max_gap_ms"

// Metrics lists every population a Report summarizes, in report order.
func Metrics() []record.Metric { return slices.Clone(metricOrder[:]) }

// metricOrder is the report order of the populations.
var metricOrder = [...]record.Metric{
	record.MetricTTFT, record.MetricTTFTFromScheduled, record.MetricTPOT, record.MetricITL, record.MetricChunkGap,
	MetricMaxGap, record.MetricE2E, record.MetricLastToken, record.MetricScheduleLag, record.MetricClientQueue,
}
