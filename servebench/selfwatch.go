package servebench

import (
	"math"
	"runtime/metrics"
)

// schedLatencyMetric is the Go runtime's histogram of the time goroutines
// spend runnable before they run: when it grows, the client itself is
// saturated and its timestamps lag behind the network.
const schedLatencyMetric = "/sched/latencies:seconds"

// schedLatencySnapshot reads the runtime's scheduling-latency histogram.
func schedLatencySnapshot() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencyMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// schedLatencyQuantile returns the q-quantile (0..1) of scheduling latency,
// in milliseconds, over the interval between two snapshots: the upper edge
// of the bucket where the quantile falls. ok is false without samples.
func schedLatencyQuantile(before, after *metrics.Float64Histogram, q float64) (ms float64, ok bool) {
	if before == nil || after == nil || len(before.Counts) != len(after.Counts) {
		return 0, false
	}
	var total uint64
	for i := range after.Counts {
		total += after.Counts[i] - before.Counts[i]
	}
	if total == 0 {
		return 0, false
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i := range after.Counts {
		seen += after.Counts[i] - before.Counts[i]
		if seen >= rank {
			edge := after.Buckets[i+1]
			if math.IsInf(edge, 1) {
				edge = after.Buckets[i]
			}
			return edge * 1000, true
		}
	}
	return 0, false
}
