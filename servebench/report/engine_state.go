package report

// EngineState is what a run set or read of the engine itself beside the
// load: the prefix-cache state the measurement started in, the engine's
// speculative-decoding counters over it, and the engine's starts where
// servebench started it. Report embeds it, so its fields are top-level
// fields of report.json.
type EngineState struct {
	// CacheState is CacheStateReset when the run emptied the engine's
	// prefix cache after the preflight and before its warmup,
	// CacheStateUncontrolled when it did not; empty in a report scored
	// without a run.
	CacheState string `json:"cache_state,omitempty"`
	// CachePolicy is the prefix-cache state the workload declares (cold,
	// warm or disabled, from the generator's side file); empty when it
	// declares none.
	CachePolicy string `json:"cache_policy,omitempty"`
	// CacheResetRoute is the route that emptied the cache
	// (/reset_prefix_cache or /flush_cache); empty unless CacheState is
	// CacheStateReset.
	CacheResetRoute string `json:"cache_reset_route,omitempty"`
	// SpeculativeDecoding is the engine's speculative decoding over the
	// measurement (EngineMetrics.SpeculativeDecoding); nil without
	// --metrics-url or when the engine exposes no speculative-decoding
	// counter.
	SpeculativeDecoding *SpeculativeDecoding `json:"speculative_decoding,omitempty"`
	// EngineStarts are the engine's starts, in order, when servebench
	// started it (a contract's engine.starts repeats the start); absent
	// when the engine was running before.
	EngineStarts []EngineStart `json:"engine_starts,omitempty"`
}

// The cache states.
const (
	// CacheStateReset: the run emptied the engine's prefix cache after
	// the preflight and before its warmup.
	CacheStateReset = "reset"
	// CacheStateUncontrolled: the cache held whatever earlier requests
	// left in it.
	CacheStateUncontrolled = "uncontrolled"
)
