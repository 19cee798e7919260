package report

// SteadyState is the longest stretch of a closed-loop or session run in
// which the requests in flight stayed at or above InFlightFloor,
// ceil(0.95 × PeakInFlight) (SGLang's definition), with the throughput and
// latency over that stretch beside the whole run's. In flight is counted
// at 1 ms resolution from each sent request's sent and terminal times.
type SteadyState struct {
	// StartMS and EndMS bound the window [start, end) on the run's clock.
	StartMS float64 `json:"start_ms"`
	EndMS   float64 `json:"end_ms"`
	// PeakInFlight is the most requests in flight at once in the run.
	PeakInFlight int `json:"peak_in_flight"`
	// InFlightFloor is ceil(0.95 × PeakInFlight).
	InFlightFloor int `json:"in_flight_floor"`
	// Requests counts the requests sent and ended within the window,
	// whatever their status; Successes those of them that succeeded.
	Requests  int `json:"requests"`
	Successes int `json:"successes"`
	// RequestsPerSecond is Successes over the window; OutputTokensPerSecond
	// their reported output tokens over the window. nil for an empty
	// window.
	RequestsPerSecond     *float64 `json:"requests_per_second"`
	OutputTokensPerSecond *float64 `json:"output_tokens_per_second"`
	// TTFT, TPOT and E2E are the p50 and p99 of the window's successes,
	// in ms (nil when none had the metric).
	TTFT SteadyLatency `json:"ttft"`
	TPOT SteadyLatency `json:"tpot"`
	E2E  SteadyLatency `json:"e2e"`
	// Short marks a closed-loop run whose window lasts less than
	// max(10 s, 10 % of the run's horizon): its figures describe too
	// little of the run to stand for it. ShortReason says by how much.
	Short       bool   `json:"short,omitempty"`
	ShortReason string `json:"short_reason,omitempty"`
}

// SteadyLatency is a latency's median and 99th percentile over the steady
// window, in ms.
type SteadyLatency struct {
	P50 *float64 `json:"p50"`
	P99 *float64 `json:"p99"`
}

// DurationMS is the window's length.
func (s *SteadyState) DurationMS() float64 { return s.EndMS - s.StartMS }
