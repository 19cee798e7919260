package servebench

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// SLO is the latency objective each request is judged by, the value
// Scoring's SLO takes (report.SLO).
type SLO = report.SLO

// Scoring says how a run is scored, the value RunConfig.Score takes
// (score.Options).
type Scoring = score.Options

// The latency metrics the matchers and a report's percentiles are keyed
// by (record's Metric constants).
const (
	// TTFT is the time to first token, from send to the first content.
	TTFT = record.MetricTTFT
	// TPOT is the time per output token after the first.
	TPOT = record.MetricTPOT
	// E2E is the end-to-end latency, from send to the stream's end.
	E2E = record.MetricE2E
	// ITL is the inter-token latency, pooled over the successful
	// requests whose every event is proven to hold one token.
	ITL = record.MetricITL
)
