package report

// The verdicts of a phase.
const (
	PhasePass    = "pass"
	PhaseFail    = "fail"
	PhaseSkipped = "skipped"
)

// RecoveryWindowRequests is how many requests, consecutive in arrival
// order, one recovery window holds.
const RecoveryWindowRequests = 100

// RecoveryBurstPhase is the name of the phase whose end the recovery time
// is measured from (the first phase of that name).
const RecoveryBurstPhase = "burst"

// RecoverySteadyPhase is the name of the phase whose p99 TTFT bounds the
// recovery when no TTFT SLO is declared: 1.1 × it.
const RecoverySteadyPhase = "steady"

// PhaseResult is one phase of a phased arrival plan judged on its own: the
// requests scheduled in [StartMS, EndMS).
type PhaseResult struct {
	Name    string  `json:"name"`
	StartMS float64 `json:"start_ms"`
	EndMS   float64 `json:"end_ms"`
	// RateRPS is the phase's planned rate; Offered counts its requests,
	// Completed those that succeeded and Qualified those that qualified.
	RateRPS    float64  `json:"rate_rps"`
	Offered    int      `json:"offered"`
	Completed  int      `json:"completed"`
	Qualified  int      `json:"qualified"`
	Attainment *float64 `json:"attainment"`
	// TTFTP99MS is the p99 TTFT of its successful requests (the SLO's
	// TTFT: from send, or from the scheduled time); nil without one.
	TTFTP99MS *float64 `json:"ttft_p99_ms"`
	// Verdict is PhasePass, PhaseFail (a request did not complete, or the
	// p99 TTFT is over the TTFT SLO) or PhaseSkipped (every request was
	// refused for a capability the engine lacks: its context length, a
	// tool parser), never passed; Reason says why for the latter two.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

// Recovery is how the recovery time after the first burst phase was
// measured.
type Recovery struct {
	// BurstEndMS is the end of the first phase named "burst".
	BurstEndMS float64 `json:"burst_end_ms"`
	// BoundMS is the p99 TTFT a window must reach; Bound says where it
	// comes from ("ttft_slo", or "1.1 × steady p99"). Nil when neither is
	// known.
	BoundMS *float64 `json:"bound_ms"`
	Bound   string   `json:"bound,omitempty"`
	// WindowRequests is the size of a window (RecoveryWindowRequests);
	// Windows counts the full windows after the burst that were tested.
	WindowRequests int `json:"window_requests"`
	Windows        int `json:"windows"`
	// Recovered says whether a window met the bound; Reason says why not.
	Recovered bool   `json:"recovered"`
	Reason    string `json:"reason,omitempty"`
}
