package llmdreport

// Version is the llm-d Benchmark Report schema version this package writes.
const Version = "0.2.1"

// The unit strings of the schema, one per kind of figure.
const (
	UnitsMS          = "ms"
	UnitsMSPerToken  = "ms/token"
	UnitsTokensPerS  = "tokens/s"
	UnitsQueriesPerS = "queries/s"
	UnitsCount       = "count"
	UnitsFraction    = "fraction"
)

// Report is one llm-d Benchmark Report (schema v0.2.1) for one load point.
// It holds the subset of the schema servebench fills; every field name is
// the schema's, and the schema forbids any other.
type Report struct {
	Version  string    `json:"version"`
	Run      Run       `json:"run"`
	Scenario *Scenario `json:"scenario,omitempty"`
	Results  Results   `json:"results"`
}

// Run identifies the run; UID is servebench's run ID.
type Run struct {
	UID         string   `json:"uid"`
	EID         string   `json:"eid,omitempty"`
	Time        *RunTime `json:"time,omitempty"`
	Description string   `json:"description,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
}

// RunTime holds ISO-8601 instants and an ISO-8601 duration.
type RunTime struct {
	Start    string `json:"start,omitempty"`
	End      string `json:"end,omitempty"`
	Duration string `json:"duration,omitempty"`
}

// Scenario is the stack and the load.
type Scenario struct {
	Stack []Component `json:"stack,omitempty"`
	Load  *Load       `json:"load,omitempty"`
}

// Component is one stack component: servebench writes the engine.
type Component struct {
	Metadata     ComponentMetadata `json:"metadata"`
	Standardized InferenceEngine   `json:"standardized"`
	Native       Native            `json:"native"`
}

// ComponentMetadata labels a component; CfgID hashes its configuration.
type ComponentMetadata struct {
	Label       string `json:"label"`
	CfgID       string `json:"cfg_id"`
	Description string `json:"description,omitempty"`
}

// InferenceEngine is the standardized engine description (kind
// "inference_engine").
type InferenceEngine struct {
	Kind        string      `json:"kind"`
	Tool        string      `json:"tool"`
	ToolVersion string      `json:"tool_version"`
	Role        string      `json:"role"`
	Replicas    int         `json:"replicas"`
	Model       Model       `json:"model"`
	Accelerator Accelerator `json:"accelerator"`
}

// Model names the served model.
type Model struct {
	Name string `json:"name"`
}

// Accelerator describes the accelerators; Model is "unknown" and Count 0
// when the run did not sample them.
type Accelerator struct {
	Model       string      `json:"model"`
	Count       int         `json:"count"`
	Parallelism Parallelism `json:"parallelism"`
}

// Parallelism is the engine's parallelism; servebench does not know it, so
// the schema's defaults (1) stand.
type Parallelism struct {
	TP int `json:"tp,omitempty"`
}

// Native holds a component's or the load's native configuration.
type Native struct {
	Args   map[string]any `json:"args,omitempty"`
	Config any            `json:"config,omitempty"`
}

// Load is the workload generator's description.
type Load struct {
	Metadata     LoadMetadata     `json:"metadata"`
	Standardized LoadStandardized `json:"standardized"`
	Native       Native           `json:"native"`
}

// LoadMetadata carries the workload's hash and how servebench defines its
// figures.
type LoadMetadata struct {
	CfgID       string `json:"cfg_id,omitempty"`
	Description string `json:"description,omitempty"`
}

// LoadStandardized is the tool-neutral load description.
type LoadStandardized struct {
	Tool         string          `json:"tool"`
	ToolVersion  string          `json:"tool_version"`
	Parallelism  int             `json:"parallelism,omitempty"`
	Source       string          `json:"source"`
	Stage        int             `json:"stage"`
	InputSeqLen  SequenceLength  `json:"input_seq_len"`
	OutputSeqLen *SequenceLength `json:"output_seq_len,omitempty"`
	RateQPS      *float64        `json:"rate_qps,omitempty"`
	Concurrency  *int            `json:"concurrency,omitempty"`
}

// SequenceLength describes a length distribution in tokens.
type SequenceLength struct {
	Distribution string   `json:"distribution"`
	Value        float64  `json:"value"`
	StdDev       *float64 `json:"std_dev,omitempty"`
	Min          *int     `json:"min,omitempty"`
	Max          *int     `json:"max,omitempty"`
}

// Results holds the request performance and the engine's time series.
type Results struct {
	RequestPerformance *RequestPerformance `json:"request_performance,omitempty"`
	Observability      *Observability      `json:"observability,omitempty"`
}

// RequestPerformance holds the aggregate figures.
type RequestPerformance struct {
	Aggregate Aggregate `json:"aggregate"`
}

// Aggregate is results.request_performance.aggregate.
type Aggregate struct {
	Requests   Requests   `json:"requests"`
	Latency    Latency    `json:"latency"`
	Throughput Throughput `json:"throughput"`
}

// Requests counts the requests and describes their lengths.
type Requests struct {
	Total        int         `json:"total"`
	Failures     int         `json:"failures"`
	Incomplete   int         `json:"incomplete"`
	InputLength  *Statistics `json:"input_length,omitempty"`
	OutputLength *Statistics `json:"output_length,omitempty"`
}

// Latency holds the latency distributions; a figure servebench could not
// define is absent, never zero.
type Latency struct {
	TimeToFirstToken   *Statistics `json:"time_to_first_token,omitempty"`
	TimePerOutputToken *Statistics `json:"time_per_output_token,omitempty"`
	InterTokenLatency  *Statistics `json:"inter_token_latency,omitempty"`
	RequestLatency     *Statistics `json:"request_latency,omitempty"`
}

// Throughput holds the cohort's rates over its horizon.
type Throughput struct {
	InputTokenRate  *Statistics `json:"input_token_rate,omitempty"`
	OutputTokenRate *Statistics `json:"output_token_rate,omitempty"`
	TotalTokenRate  *Statistics `json:"total_token_rate,omitempty"`
	RequestRate     *Statistics `json:"request_rate,omitempty"`
}

// Statistics is the schema's statistics object: Units and Mean always, the
// rest where the population allows.
type Statistics struct {
	Units  string   `json:"units"`
	Mean   float64  `json:"mean"`
	Stddev *float64 `json:"stddev,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	P0p1   *float64 `json:"p0p1,omitempty"`
	P1     *float64 `json:"p1,omitempty"`
	P5     *float64 `json:"p5,omitempty"`
	P10    *float64 `json:"p10,omitempty"`
	P25    *float64 `json:"p25,omitempty"`
	P50    *float64 `json:"p50,omitempty"`
	P75    *float64 `json:"p75,omitempty"`
	P90    *float64 `json:"p90,omitempty"`
	P95    *float64 `json:"p95,omitempty"`
	P99    *float64 `json:"p99,omitempty"`
	P99p9  *float64 `json:"p99p9,omitempty"`
	Max    *float64 `json:"max,omitempty"`
}

// Observability holds the engine's scraped time series.
type Observability struct {
	Components []ComponentObservability `json:"components"`
}

// ComponentObservability is one component's time series.
type ComponentObservability struct {
	ComponentLabel string            `json:"component_label"`
	TimeSeries     *EngineTimeSeries `json:"time_series,omitempty"`
}

// EngineTimeSeries holds the engine series servebench scrapes.
type EngineTimeSeries struct {
	KVCacheUsage       *TimeSeries `json:"kv_cache_usage,omitempty"`
	NumRequestsRunning *TimeSeries `json:"num_requests_running,omitempty"`
	NumRequestsWaiting *TimeSeries `json:"num_requests_waiting,omitempty"`
	NumPreemptions     *TimeSeries `json:"num_preemptions,omitempty"`
}

// TimeSeries is a unit and its points.
type TimeSeries struct {
	Units  string  `json:"units"`
	Series []Point `json:"series"`
}

// Point is one sample at an ISO-8601 instant.
type Point struct {
	TS    string  `json:"ts"`
	Value float64 `json:"value"`
}
