package record

// Metric names a latency population in a Report.
type Metric string

// The latency metrics. Populations are successful requests unless noted.
const (
	// MetricTTFT is f - d per successful request.
	MetricTTFT Metric = "ttft_ms"
	// MetricTTFTFromScheduled is f - a per successful request.
	MetricTTFTFromScheduled Metric = "ttft_from_scheduled_ms"
	// MetricTPOT is (l - f)/(n - 1) per successful request where defined.
	MetricTPOT Metric = "tpot_ms"
	// MetricITL pools token-level gaps over successful requests whose every
	// event is proven to hold one token.
	MetricITL Metric = "itl_ms"
	// MetricChunkGap pools gaps between content events over successful
	// requests, whatever each event holds.
	MetricChunkGap Metric = "chunk_gap_ms"
	// MetricE2E is e - d per successful request.
	MetricE2E Metric = "e2e_ms"
	// MetricLastToken is l - d per successful request (not E2E).
	MetricLastToken Metric = "last_token_ms"
	// MetricScheduleLag is d - a over every sent request.
	MetricScheduleLag Metric = "schedule_lag_ms"
	// MetricClientQueue is q - a over every request that got a slot.
	MetricClientQueue Metric = "client_queue_ms"
)
