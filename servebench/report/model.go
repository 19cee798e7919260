package report

import (
	"slices"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// ReportSchema names the version of the Report's JSON form.
const ReportSchema = "servebench.report/v1"

// Report is the scorer's verdict on one run: the accounting (every offered
// request in the denominator), the rates with their denominators, the
// latency distributions with their populations, and one entry per request.
// Every float that can be undefined is a pointer, so the JSON form never
// holds NaN or Inf.
type Report struct {
	// Schema is ReportSchema.
	Schema string `json:"schema"`
	// EngineState is the cache state, the speculative-decoding counters
	// and the engine's starts (its fields are top-level in the JSON form).
	EngineState

	// Offered counts the requests scheduled in the arrival window.
	Offered int `json:"offered"`
	// ProtocolSuccesses counts requests whose status is success.
	ProtocolSuccesses int `json:"protocol_successes"`
	// OutputTokens totals the output tokens of the successes that
	// reported a count; OutputTokensUnknown counts the successes that did
	// not.
	OutputTokens        int64 `json:"output_tokens"`
	OutputTokensUnknown int   `json:"output_tokens_unknown"`
	// StoppedTurns counts the later turns of conversations that were not
	// sent because an earlier turn did not succeed: not_sent, offered and
	// unqualified, but the engine's failure rather than the generator's,
	// so they do not make the load undelivered.
	StoppedTurns int `json:"stopped_turns,omitempty"`
	// ErrorMessages counts the failure messages of the requests; nil when
	// none failed with one.
	ErrorMessages *ErrorMessages `json:"error_messages,omitempty"`
	// Qualified counts successes that passed quality (or were not judged)
	// and every declared latency property.
	Qualified int `json:"qualified"`
	// Pending counts the requests of a live run's snapshot that had no
	// terminal record yet; they count as unqualified. Zero in a final
	// report.
	Pending int `json:"pending,omitempty"`
	// Attainment is Qualified / Offered; nil when nothing was offered.
	Attainment *float64 `json:"attainment"`
	// AttainmentKind is "performance" when no successful response was
	// judged for quality, "performance+quality" when every one was, and
	// "performance+partial-quality" otherwise (only a success can qualify,
	// so only successes are judged).
	AttainmentKind string `json:"attainment_kind"`
	// WilsonLower is the one-sided Wilson lower confidence bound of
	// attainment at WilsonConfidence.
	WilsonLower *float64 `json:"wilson_lower"`
	// WilsonConfidence is the bound's confidence level (default 0.95).
	WilsonConfidence float64 `json:"wilson_confidence"`
	// StatusCounts counts offered requests by terminal status; every status
	// appears, with zero where none ended so.
	StatusCounts map[record.Status]int `json:"status_counts"`
	// ReasonCounts counts unqualified requests by failed criterion; a
	// request can fail several.
	ReasonCounts map[Reason]int `json:"reason_counts"`
	// UnmeasurableCounts splits the latency criteria's counts (ttft, tpot,
	// e2e): how many of ReasonCounts[reason] failed because the value was
	// not measurable (no content event for TTFT; a TPOT left undefined on a
	// response longer than one token, e.g. 2 tokens in one event; no
	// terminal time for E2E) rather than above the objective. The rest,
	// ReasonCounts[reason] - UnmeasurableCounts[reason], were above it.
	UnmeasurableCounts map[Reason]int `json:"unmeasurable_counts"`
	// FirstUnqualified lists the first unqualified requests in schedule
	// order (at most FirstUnqualifiedLimit), each with what it failed and
	// why, so a reader can find them in outcomes.jsonl.
	FirstUnqualified []UnqualifiedRequest `json:"first_unqualified"`
	// Quality summarizes the quality judgments.
	Quality QualitySummary `json:"quality"`

	// WindowMS is the half-open arrival window [start, end).
	WindowMS [2]float64 `json:"window_ms"`
	// HorizonMS runs from the window start to the later of the window end
	// and the last terminal outcome.
	HorizonMS float64 `json:"horizon_ms"`
	// OfferedRPS is Offered divided by the window.
	OfferedRPS *float64 `json:"offered_rps"`
	// SuccessfulRPS is ProtocolSuccesses divided by the horizon.
	SuccessfulRPS *float64 `json:"successful_rps"`
	// QualifiedRPS is Qualified divided by the horizon: the qualified
	// request rate of this cohort, not a capacity.
	QualifiedRPS *float64 `json:"qualified_rps"`
	// Endpoint is the API the requests were sent to, when the scorer was
	// told; Percentiles and Throughput follow its declarations.
	Endpoint record.Endpoint `json:"endpoint,omitempty"`
	// Throughput gives the rates the API declares (requests/s, items/s,
	// documents/s, input and output tokens/s) over the horizon, counted on
	// successful requests; absent when the endpoint is not known.
	Throughput []ThroughputRate `json:"throughput,omitempty"`
	// CapacityEstimateRPS is always nil for a single run: one run is not a
	// capacity. capacity.Select picks one from a sweep.
	CapacityEstimateRPS *float64 `json:"capacity_estimate_rps"`

	// ScheduleLagToleranceMS is the declared tolerance (default 20).
	ScheduleLagToleranceMS float64 `json:"schedule_lag_tolerance_ms"`
	// MaxScheduleLagMS is the largest sent - scheduled; nil when nothing
	// was sent.
	MaxScheduleLagMS *float64 `json:"max_schedule_lag_ms"`
	// LateCount counts requests whose schedule lag exceeded the tolerance.
	LateCount int `json:"late_count"`
	// Valid is true when every request was sent within the tolerance: the
	// load was delivered and the run is evidence for its offered rate.
	Valid bool `json:"valid"`
	// InvalidReasons says why a run is not valid.
	InvalidReasons []string `json:"invalid_reasons"`

	// Inputs holds the hashes of the exact bytes that were scored.
	Inputs Inputs `json:"inputs"`
	// SLO is the declared latency objective the requests were judged by.
	SLO SLO `json:"slo"`
	// PercentileMethod is how the percentiles were picked:
	// stats.NearestRank (rank = ceil(p/100 * N)) or stats.Linear.
	PercentileMethod stats.PercentileMethod `json:"percentile_method"`
	// Percentiles maps a Metric to its distribution over a named
	// population. A metric the endpoint does not define (TTFT, TPOT, ITL
	// for embeddings or rerank) is absent, never a number.
	Percentiles map[record.Metric]Distribution `json:"percentiles"`
	// Backlog describes outstanding work over the window.
	Backlog *Backlog `json:"backlog,omitempty"`
	// Fluidity is present when a fluidity rule was declared.
	Fluidity *FluidityReport `json:"fluidity,omitempty"`
	// Generator describes how well the load generator kept its schedule;
	// present for runs made by the Runner.
	Generator *GeneratorReport `json:"generator,omitempty"`
	// PromptTokens compares intended prompt lengths with what the engine
	// reported; present when the workload declared prompt_tokens.
	PromptTokens *PromptTokenAudit `json:"prompt_tokens,omitempty"`
	// OutputLengths verifies rows that forced their output length.
	OutputLengths *OutputLengthCheck `json:"output_lengths,omitempty"`
	// EngineMetrics is the engine's own view of the measurement, from its
	// Prometheus endpoint, when the run declared one.
	EngineMetrics *EngineMetrics `json:"engine_metrics,omitempty"`
	// PrefixCache is the prefix-cache hit rate from the requests' reported
	// cached_tokens and from the engine's counters; absent when no request
	// reported cached_tokens and no engine rate was scraped.
	PrefixCache *PrefixCache `json:"prefix_cache,omitempty"`
	// BackendMetrics is each replica's own view of the measurement, when
	// the run declared their endpoints (RunConfig.EngineMetrics.BackendURLs).
	BackendMetrics []BackendMetrics `json:"backend_metrics,omitempty"`
	// Experiment records what was run, against what, and how.
	Experiment *Experiment `json:"experiment,omitempty"`
	// Drift follows the client's figures interval by interval and tests
	// p99 TTFT and TPOT for a trend (score.Options.DriftInterval).
	Drift *DriftReport `json:"drift,omitempty"`
	// EngineSeries is the engine's queue, running requests, KV-cache usage
	// and preemptions through the measurement, when the run scraped its
	// metrics (RunConfig.EngineMetrics.Interval).
	EngineSeries *EngineSeries `json:"engine_series,omitempty"`
	// GPUTelemetry is what the GPUs did over the measurement and the
	// energy per qualified request and per output token, when the run had
	// a GPU sampler.
	GPUTelemetry *GPUTelemetry `json:"gpu_telemetry,omitempty"`
	// Sessions judges the conversations whole; absent when the workload
	// has none.
	Sessions *Sessions `json:"sessions,omitempty"`
	// SteadyState is the longest window of a closed-loop or session run
	// whose in-flight requests stayed near their peak, with the throughput
	// and latency over it; absent for other runs.
	SteadyState *SteadyState `json:"steady_state,omitempty"`
	// Phases judges each phase of a phased arrival plan (--phases) on its
	// own; absent for other runs.
	Phases []PhaseResult `json:"phases,omitempty"`
	// RecoveryMS is the time from the end of the first phase named burst
	// to the start of the first window of RecoveryWindowRequests requests
	// after it whose p99 TTFT is within the bound (Recovery says which);
	// nil when it did not recover or there is nothing to measure.
	RecoveryMS *float64 `json:"recovery_ms,omitempty"`
	// Recovery says how RecoveryMS was measured; absent without a burst
	// phase.
	Recovery *Recovery `json:"recovery,omitempty"`
	// ShedOrder checks that sheddable objectives were shed before critical
	// ones; absent unless critical objectives were declared
	// (score.Options.CriticalObjectives).
	ShedOrder *ShedOrder `json:"shed_order,omitempty"`
	// Breakdown splits the cohort by each dimension its requests carry
	// (BreakdownDimensions: "class", "backend"): per value, the offered
	// requests and their share, attainment and latency percentiles, and
	// per dimension the Gini coefficient of the shares.
	Breakdown map[string]*BreakdownDimension `json:"breakdown,omitempty"`
	// AdapterLoads are the LoRA adapters the run loaded into the engine
	// before the load, in the order it loaded them, each with its load
	// time (see SetAdapterLoads).
	AdapterLoads []AdapterLoad `json:"adapter_loads,omitempty"`
	// RequestsFile names the JSON-lines file that holds the request
	// entries when Requests was left empty to bound memory: requests.jsonl
	// in a run's directory (a path relative to it), or the file
	// `servebench score --requests` wrote. EachRequest reads it.
	RequestsFile string `json:"requests_file,omitempty"`
	// Requests has one entry per offered request when the report keeps
	// them: a report scored in memory does, a run's report only when
	// asked (RunConfig.KeepRequests); otherwise RequestsFile holds them.
	Requests []RequestScore `json:"requests,omitempty"`
	// Objectives are the verdicts of the objectives or thresholds the run
	// was judged against (a contract's load point, `servebench run
	// --threshold`), in the order they were declared; absent when it was
	// judged against none. WriteObjectives adds them to a written report.
	Objectives []ObjectiveVerdict `json:"objectives,omitempty"`

	// Samples keeps the raw latency samples behind Percentiles, so that any
	// percentile can be computed in memory; it is not serialized.
	Samples map[record.Metric][]float64 `json:"-"`
	// runDir is where RequestsFile is, when it is relative.
	runDir string
}

// Distribution summarizes one latency population.
type Distribution struct {
	// Population names which requests or gaps were pooled.
	Population string `json:"population"`
	// N is the population's size.
	N    int      `json:"n"`
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P90  *float64 `json:"p90"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	Max  *float64 `json:"max"`
	// Min is the smallest value (the 0th percentile).
	Min *float64 `json:"min,omitempty"`
	// Extra holds the further percentiles the scoring was asked for
	// (score.Options.Percentiles), keyed by PercentileKey: "p99.9".
	Extra map[string]float64 `json:"extra,omitempty"`
}

// Reason names a criterion an unqualified request failed.
type Reason string

// The qualification criteria.
const (
	ReasonStatus  Reason = "status"
	ReasonQuality Reason = "quality"
	ReasonTTFT    Reason = "ttft"
	ReasonTPOT    Reason = "tpot"
	ReasonE2E     Reason = "e2e"
)

// reasons are the declared reasons in report order.
var reasons = [...]Reason{ReasonStatus, ReasonQuality, ReasonTTFT, ReasonTPOT, ReasonE2E}

// Reasons lists every Reason in report order. The slice is the caller's own.
func Reasons() []Reason { return slices.Clone(reasons[:]) }

// QualitySummary counts quality judgments over offered requests.
type QualitySummary struct {
	Judged   int `json:"judged"`
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Unscored int `json:"unscored"`
}

// Inputs holds the SHA-256 of each input's exact bytes, hex encoded; empty
// when that input was not part of the scoring.
type Inputs struct {
	TraceSHA256    string `json:"trace_sha256,omitempty"`
	EventsSHA256   string `json:"events_sha256,omitempty"`
	WorkloadSHA256 string `json:"workload_sha256,omitempty"`
	ScheduleSHA256 string `json:"schedule_sha256,omitempty"`
	OutcomesSHA256 string `json:"outcomes_sha256,omitempty"`
}

// RequestScore is one offered request's metrics and verdict.
type RequestScore struct {
	ID    string `json:"id"`
	Class string `json:"class,omitempty"`
	// Backend is the backend that served the request, from the client's
	// BackendHeader; empty when not recorded.
	Backend string `json:"backend,omitempty"`
	// Adapter is the LoRA adapter the request was sent to; empty when the
	// run had no adapter mix.
	Adapter string `json:"adapter,omitempty"`
	// Tenant is the request's tenant, the value of the client's tenant
	// header it was sent with; empty when it carried none.
	Tenant string `json:"tenant,omitempty"`
	// Objective is the request's objective, the value of the client's
	// objective header it was sent with; empty when it carried none.
	Objective string `json:"objective,omitempty"`
	// Modality is what the request sent besides text, from its outcome's
	// media counts: "image", "audio" or "image+audio"; empty for a
	// text-only request (the breakdown's "text").
	Modality string `json:"modality,omitempty"`
	// CachedFraction is the share of the request's prompt tokens the
	// engine served from its prefix cache, as a bucket (CachedFractionOf);
	// empty when the engine did not report both counts.
	CachedFraction string `json:"cached_fraction,omitempty"`
	// Turn is the request's place in its conversation, "1" for its first
	// turn (and for a request outside any conversation); empty when the
	// run had no conversation.
	Turn   string        `json:"turn,omitempty"`
	Status record.Status `json:"status"`
	// ScheduledMS is a; SentMS is d (nil when never sent).
	ScheduledMS float64  `json:"scheduled_ms"`
	SentMS      *float64 `json:"sent_ms"`
	// TTFTMS is f - d; TTFTFromScheduledMS is f - a.
	TTFTMS              *float64 `json:"ttft_ms"`
	TTFTFromScheduledMS *float64 `json:"ttft_from_scheduled_ms"`
	// TPOTMS is nil when undefined (one token, or one content event).
	TPOTMS *float64 `json:"tpot_ms"`
	// E2EMS is e - d; LastTokenMS is l - d.
	E2EMS       *float64 `json:"e2e_ms"`
	LastTokenMS *float64 `json:"last_token_ms"`
	// ScheduleLagMS is d - a.
	ScheduleLagMS *float64 `json:"schedule_lag_ms"`
	// MaxGapMS is the request's worst gap between content events.
	MaxGapMS *float64 `json:"max_gap_ms"`
	// OutputTokens is n, nil when unknown: the visible answer's tokens
	// (usage less the reasoning tokens the engine reported).
	OutputTokens *int `json:"output_tokens"`
	// Quality is "pass", "fail" or "unscored".
	Quality string `json:"quality"`
	// QualityEvidence says which check failed and on what.
	QualityEvidence string `json:"quality_evidence,omitempty"`
	// Qualified is the request's verdict; Reasons lists what it failed.
	Qualified bool     `json:"qualified"`
	Reasons   []Reason `json:"reasons"`
	// Error is the failure message for a request that did not succeed.
	Error string `json:"error,omitempty"`
	// FluidityMisses counts missed playback deadlines when fluidity is
	// declared.
	FluidityMisses *int `json:"fluidity_misses,omitempty"`
}

// UnqualifiedRequest names one unqualified request and why it failed.
type UnqualifiedRequest struct {
	// ID is the request's workload ID.
	ID string `json:"id"`
	// ScheduledMS is its scheduled time a.
	ScheduledMS float64 `json:"scheduled_ms"`
	// Reasons lists the criteria it failed.
	Reasons []Reason `json:"reasons"`
	// Explanation says, criterion by criterion, what was measured against
	// which bound ("tpot not measurable: 2 tokens in 1 content event").
	Explanation string `json:"explanation"`
}

// Backlog describes outstanding requests (sent, not yet terminal) over the
// arrival window, to tell a sustainable load from a growing queue.
type Backlog struct {
	// AtWindowMid and AtWindowEnd count outstanding requests at the
	// window's midpoint and end.
	AtWindowMid int `json:"at_window_mid"`
	AtWindowEnd int `json:"at_window_end"`
	// Inconclusive is true when the window was too short for the
	// comparison to mean anything; Note then says why, and Growing is
	// false.
	Inconclusive bool   `json:"inconclusive"`
	Note         string `json:"note,omitempty"`
	// Growing is true when outstanding work grew over the second half of
	// the window by more than the rule's margin.
	Growing bool `json:"growing"`
	// Margin is the growth the rule allowed, max(2, 10% of the requests
	// scheduled in the window's second half); nil when not judged.
	Margin *float64 `json:"margin,omitempty"`
	// SecondHalfScheduled counts the requests scheduled in the window's
	// second half, which the margin's 10% is taken of.
	SecondHalfScheduled int `json:"second_half_scheduled"`
}

// FluidityReport summarizes Etalon-style deadline fluidity: per-token
// playback deadlines from a first-token deadline and a cadence, with misses
// counted per crossed deadline and deadlines reset after a late token.
type FluidityReport struct {
	FirstTokenDeadlineMS float64 `json:"first_token_deadline_ms"`
	CadenceMS            float64 `json:"cadence_ms"`
	// Index is the mean over successful requests of the fraction of
	// deadlines met; nil when there were none.
	Index *float64 `json:"index"`
	// MissedDeadlines sums the misses over successful requests.
	MissedDeadlines int `json:"missed_deadlines"`
	// Deadlines sums the deadlines over successful requests.
	Deadlines int `json:"deadlines"`
}

// GeneratorReport says whether the load generator delivered its schedule.
type GeneratorReport struct {
	// Mode is open or closed loop; a closed-loop run is never a capacity.
	Mode schedule.Mode `json:"mode"`
	// Scheduled counts the requests in the schedule (warmup excluded).
	Scheduled int `json:"scheduled"`
	// Sent counts those handed to the connection.
	Sent int `json:"sent"`
	// IdealRPS is the realized schedule's rate (scheduled / window);
	// DeliveredRPS counts the requests sent inside the window, per window.
	// Both are nil for a closed loop.
	IdealRPS     *float64 `json:"ideal_rps"`
	DeliveredRPS *float64 `json:"delivered_rps"`
	// MaxConcurrency is the client cap (0: none); CapBound says whether any
	// request waited for a slot longer than the lag tolerance.
	MaxConcurrency int  `json:"max_concurrency"`
	CapBound       bool `json:"cap_bound"`
	// PeakOutstanding is the most requests in flight at once.
	PeakOutstanding int `json:"peak_outstanding"`
	// SchedulerLatencyP99MS is the Go runtime's goroutine scheduling latency
	// at p99 over the run, a sign of a saturated client.
	SchedulerLatencyP99MS *float64 `json:"scheduler_latency_p99_ms"`
	// Saturated is true when the generator could not keep its schedule.
	Saturated bool `json:"saturated"`
	// Notes explains any sign of trouble in words.
	Notes []string `json:"notes,omitempty"`
	// Shard describes this run's shard: its share and how far its
	// measurement started from the common start instant.
	Shard *ShardTiming `json:"shard,omitempty"`
	// Shards lists every shard of a merged run, and StartSkewMS is the
	// spread of their start offsets (latest minus earliest).
	Shards      []ShardTiming `json:"shards,omitempty"`
	StartSkewMS *float64      `json:"start_skew_ms,omitempty"`
	// History is what the later turns of conversations carried: "engine"
	// (the engine's own earlier answers, so the prompts sent differ from
	// run to run) or "workload" (the file's messages as written). Empty in
	// a report written before the field existed.
	History schedule.TurnHistory `json:"history,omitempty"`
	// PromptTokensSent totals the prompt tokens of the requests sent, as
	// the engine reported them in usage; nil when nothing was sent.
	PromptTokensSent *PromptTokensSent `json:"prompt_tokens_sent,omitempty"`
}

// PromptTokensSent is the total of the prompt tokens actually sent, as the
// engine counted them. Under engine history the prompts of later turns
// carry the engine's own answers, so this total differs from run to run
// while the workload and schedule hashes do not.
type PromptTokensSent struct {
	// Total sums usage.prompt_tokens over the requests that reported it.
	Total int64 `json:"total"`
	// Reported counts the requests whose response reported it, of Sent,
	// the requests sent.
	Reported int `json:"reported"`
	Sent     int `json:"sent"`
}

// Experiment is the compact record that makes a run reproducible.
type Experiment struct {
	RunID     string `json:"run_id"`
	StartTime string `json:"start_time"`
	// ClockOrigin is the wall-clock instant of the run clock's zero, when
	// dispatch began (after warmup and any --start-at wait): the *_ms times
	// of the run's outcomes and engine series count from it. Empty when
	// nothing was dispatched.
	ClockOrigin   string               `json:"clock_origin,omitempty"`
	Arrival       schedule.ArrivalSpec `json:"arrival"`
	Endpoint      record.Endpoint      `json:"endpoint"`
	BaseURL       string               `json:"base_url"`
	Model         string               `json:"model"`
	Engine        *EngineInfo          `json:"engine,omitempty"`
	Timeouts      Timeouts             `json:"timeouts"`
	Workload      string               `json:"workload"`
	WarmupCount   int                  `json:"warmup_count"`
	ClientVersion string               `json:"client_version"`
	GoVersion     string               `json:"go_version"`
	Host          string               `json:"host"`
	Notes         []string             `json:"notes,omitempty"`
	Labels        map[string]any       `json:"labels,omitempty"`
}

// EngineInfo identifies the engine a run measured.
type EngineInfo struct {
	Kind    string   `json:"kind"`
	Image   string   `json:"image,omitempty"`
	ImageID string   `json:"image_id,omitempty"`
	Model   string   `json:"model,omitempty"`
	Args    []string `json:"args,omitempty"`
	Version string   `json:"version,omitempty"`
	// ColdStartMS is the time from container or process start to readiness.
	ColdStartMS *float64 `json:"cold_start_ms,omitempty"`
}

// Timeouts are the declared per-request deadlines; zero means none.
type Timeouts struct {
	FirstTokenMS float64 `json:"first_token_ms"`
	IdleMS       float64 `json:"idle_ms"`
	TotalMS      float64 `json:"total_ms"`
}
