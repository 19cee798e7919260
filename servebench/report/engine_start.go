package report

// EngineStart is one start of the engine, where servebench started it: a
// container, a local process or the in-process simulated engine. The
// times are milliseconds; ReadyMS and FirstTokenMS count from the
// container's or process's start, so that an image pull, kept apart in
// PullMS, does not count in them.
type EngineStart struct {
	// StartedAt is the wall-clock instant (RFC 3339, UTC) the container or
	// process started, to join the start with the engine's own records
	// (logs, OTLP startup spans).
	StartedAt string `json:"started_at,omitempty"`
	// StartedMS is the time from the moment servebench asked for the
	// engine to the container's or process's start (the pull and the
	// container's creation included).
	StartedMS float64 `json:"started_ms"`
	// PullMS is the image check and pull before the container was
	// created; nil for a local process or an in-process engine.
	PullMS *float64 `json:"pull_ms"`
	// ReadyMS is the time from the start to the engine's first
	// successful readiness probe.
	ReadyMS *float64 `json:"ready_ms"`
	// FirstTokenMS is the time from the start to the first token of the
	// first request sent after readiness (the probe servebench sends);
	// nil when that request produced no token.
	FirstTokenMS *float64 `json:"first_token_ms"`
}
