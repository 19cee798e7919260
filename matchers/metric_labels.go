package matchers

import (
	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench"
)

// metricLabel names a metric for a message.
func metricLabel(m servebench.Metric) string {
	switch m {
	case servebench.MetricTTFT:
		return "TTFT"
	case servebench.MetricTTFTFromScheduled:
		return "TTFT from scheduled"
	case servebench.MetricTPOT:
		return "TPOT"
	case servebench.MetricITL:
		return "ITL"
	case servebench.MetricChunkGap:
		return "chunk gap"
	case servebench.MetricE2E:
		return "E2E"
	case servebench.MetricLastToken:
		return "last-token latency"
	case servebench.MetricScheduleLag:
		return "schedule lag"
	case servebench.MetricClientQueue:
		return "client queue time"
	case servebench.MetricMaxGap:
		return "worst gap per request"
	}
	return string(m)
}

// perRequestLabel names the per-request value behind a metric's worst
// requests: a pooled gap metric ranks requests by their largest gap.
func perRequestLabel(m servebench.Metric) string {
	switch m {
	case servebench.MetricITL, servebench.MetricChunkGap, servebench.MetricMaxGap:
		return "largest gap between content events"
	}
	return metricLabel(m)
}

// perRequestValue is a request's own value of a metric; nil when the
// request has none or the report keeps none per request.
func perRequestValue(m servebench.Metric, rs servebench.RequestScore) *float64 {
	switch m {
	case servebench.MetricTTFT:
		return rs.TTFTMS
	case servebench.MetricTTFTFromScheduled:
		return rs.TTFTFromScheduledMS
	case servebench.MetricTPOT:
		return rs.TPOTMS
	case servebench.MetricITL, servebench.MetricChunkGap, servebench.MetricMaxGap:
		return rs.MaxGapMS
	case servebench.MetricE2E:
		return rs.E2EMS
	case servebench.MetricLastToken:
		return rs.LastTokenMS
	case servebench.MetricScheduleLag:
		return rs.ScheduleLagMS
	}
	return nil
}

// perRequestExtra renders a per-request value that requestLine does not
// show on its own; empty for those it does.
func perRequestExtra(m servebench.Metric, v float64) string {
	switch m {
	case servebench.MetricITL, servebench.MetricChunkGap, servebench.MetricMaxGap:
		return "largest gap " + numfmt.MS(v)
	case servebench.MetricTTFTFromScheduled:
		return "TTFT from scheduled " + numfmt.MS(v)
	case servebench.MetricLastToken:
		return "last token " + numfmt.MS(v)
	}
	return ""
}
