package matchers

import (
	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// metricLabel names a metric for a message.
func metricLabel(m record.Metric) string {
	switch m {
	case record.MetricTTFT:
		return "TTFT"
	case record.MetricTTFTFromScheduled:
		return "TTFT from scheduled"
	case record.MetricTPOT:
		return "TPOT"
	case record.MetricITL:
		return "ITL"
	case record.MetricChunkGap:
		return "chunk gap"
	case record.MetricE2E:
		return "E2E"
	case record.MetricLastToken:
		return "last-token latency"
	case record.MetricScheduleLag:
		return "schedule lag"
	case record.MetricClientQueue:
		return "client queue time"
	case report.MetricMaxGap:
		return "worst gap per request"
	}
	return string(m)
}

// perRequestLabel names the per-request value behind a metric's worst
// requests: a pooled gap metric ranks requests by their largest gap.
func perRequestLabel(m record.Metric) string {
	switch m {
	case record.MetricITL, record.MetricChunkGap, report.MetricMaxGap:
		return "largest gap between content events"
	}
	return metricLabel(m)
}

// perRequestValue is a request's own value of a metric; nil when the
// request has none or the report keeps none per request.
func perRequestValue(m record.Metric, rs report.RequestScore) *float64 {
	switch m {
	case record.MetricTTFT:
		return rs.TTFTMS
	case record.MetricTTFTFromScheduled:
		return rs.TTFTFromScheduledMS
	case record.MetricTPOT:
		return rs.TPOTMS
	case record.MetricITL, record.MetricChunkGap, report.MetricMaxGap:
		return rs.MaxGapMS
	case record.MetricE2E:
		return rs.E2EMS
	case record.MetricLastToken:
		return rs.LastTokenMS
	case record.MetricScheduleLag:
		return rs.ScheduleLagMS
	}
	return nil
}

// perRequestExtra renders a per-request value that requestLine does not
// show on its own; empty for those it does.
func perRequestExtra(m record.Metric, v float64) string {
	switch m {
	case record.MetricITL, record.MetricChunkGap, report.MetricMaxGap:
		return "largest gap " + numfmt.MS(v)
	case record.MetricTTFTFromScheduled:
		return "TTFT from scheduled " + numfmt.MS(v)
	case record.MetricLastToken:
		return "last token " + numfmt.MS(v)
	}
	return ""
}
