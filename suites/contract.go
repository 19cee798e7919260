package suites

import (
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/media"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// Contract is one SLO contract: what to run against, which load to offer,
// and the objectives the run must meet. Load reads it from a YAML file (see
// the package documentation and README.md for the schema) and Register turns
// it into Ginkgo specs.
type Contract struct {
	// Path is the file the contract was read from.
	Path string
	// Name names the contract's container in spec reports; unique within a
	// LoadDir.
	Name string
	// Labels are the user's labels; Labels() adds the generated ones.
	Labels []string

	// Engine is the engine to start; nil when BaseURL points at a running
	// server.
	Engine *EngineSpec
	// BaseURL is the root of a running OpenAI-compatible server; empty when
	// Engine is set.
	BaseURL string
	// Model is the served model name sent in requests (with BaseURL; an
	// engine reports its own when empty).
	Model string
	// APIKeyEnv names the environment variable that holds the API key, if
	// the server needs one. The key itself never appears in a contract.
	APIKeyEnv string
	// Endpoint is completions or chat (default chat).
	Endpoint record.Endpoint
	// LengthControl says how a workload row's ignore_eos reaches the engine
	// (default by engine kind: unsupported for tgi and ollama,
	// ignore_eos+min_tokens for vllm, ignore_eos otherwise).
	LengthControl openai.LengthControl

	// Workload is the frozen workload, read (or generated) by Load.
	Workload *schedule.Workload
	// WorkloadSource describes where it came from: a file path or a
	// generator kind.
	WorkloadSource string

	// Arrival declares the arrival process; a sweep lists several rates.
	Arrival ArrivalSpec
	// Count bounds each load point by arrivals; Duration by its window.
	// Exactly one is set, except for replay, which may use neither.
	Count    int
	Duration time.Duration
	// Warmup requests run before each load point's window and are not
	// scored.
	Warmup int
	// MaxConcurrency caps the client's requests in flight (0: no cap).
	MaxConcurrency int
	// CacheReset (`cache: reset`) empties the engine's prefix cache before
	// each load point's warmup (servebench.RunConfig.ResetPrefixCache).
	CacheReset bool
	// BenchmarkReport is the format of the llm-d Benchmark Report written
	// in every load point's run directory: "json" (the default), "yaml" or
	// "none".
	BenchmarkReport string
	// MetricsListen, when set, is the address where servebench's own live
	// metrics are served while each load point runs (a port alone binds
	// the loopback interface; see package servebench/livemetrics).
	MetricsListen string
	// BackendHeader names the response header that says which backend
	// behind a gateway served each request; BackendMetrics are the
	// replicas' Prometheus endpoints (see openai.Client.BackendHeader
	// and servebench.EngineMetricsConfig.BackendURLs).
	BackendHeader  string
	BackendMetrics []string
	// LoRA is the LoRA adapter mix each load point's requests are drawn
	// from (Mix, from `adapters:`; nil without one) and the adapters to load
	// into the engine before the first load point (Load, from
	// `load_adapters:`, each load call bounded by LoadTimeout, 0: the
	// default); see servebench.RunConfig.LoRA. Keep and Loaded stay unset:
	// the contract's load points share the loads (loaded) and a suite
	// leaves no adapter behind.
	LoRA servebench.LoRAConfig
	// loaded holds the adapter loads done on each engine (by base URL),
	// which the contract's later load points there share (copies of the
	// contract too).
	loaded *loadedAdapters
	// Images is the synthetic image pool each load point's chat rows
	// carry images from (see media.PoolSpec); nil without one.
	// ImageServer is the http transport's listen address ("" for
	// loopback).
	Images      *media.PoolSpec
	ImageServer string
	// AdapterForm is how an adapter is named in a request's model, chosen
	// by the engine kind (openai.AdapterBaseColon for SGLang).
	AdapterForm openai.AdapterForm
	// TurnHistory is what the later turns of the workload's conversations
	// carry as the earlier answers (see servebench.RunConfig.TurnHistory):
	// from `history:`, empty (engine) when absent.
	TurnHistory schedule.TurnHistory
	// UserSearch is the closed-loop search of a contract whose arrival
	// declares "users: auto", from its search section; nil otherwise.
	UserSearch *capacity.AutoUsers
	// Timeouts are the per-request deadlines and the spec bounds.
	Timeouts Timeouts
	// SLO is the latency each request must meet to qualify.
	SLO report.SLO
	// Objectives are what the run must achieve; each becomes one spec.
	Objectives Objectives
	// Tiers are the tiers of objectives (`tiers:`), lowest first, each
	// judged at every load point beside Objectives; Enforce names the
	// enforced tier (`enforce:`, default the highest declared). Objectives
	// and the tiers up to Enforce fail the suite; the tiers above it are
	// informational. Without tiers, Objectives is the enforced tier.
	Tiers   []Tier
	Enforce string
	// UnjudgedFail makes an objective without its data (`unjudged`: a
	// percentile with too few observations beyond it, an engine metric the
	// engine does not expose) a failure instead of a skipped spec
	// (`unjudged: fail`; check's --unjudged fail).
	UnjudgedFail bool
	// ScheduleLagTolerance is the declared lag tolerance (default 20 ms).
	ScheduleLagTolerance time.Duration
	// Baseline, when set, names a second engine the contract's engine is
	// compared with, round by round (see BaselineSpec).
	Baseline *BaselineSpec

	// Artifacts is the directory that keeps every run directory; the
	// SERVEBENCH_ARTIFACTS environment variable overrides it.
	Artifacts string

	// raw is the contract file's bytes, copied into every run directory.
	raw []byte
	// lines gives the line of each field, by path ("objectives.attainment").
	lines map[string]int
}

// EngineSpec declares an engine to start for a contract.
type EngineSpec struct {
	// Kind is simengine, vllm, sglang, tgi, llamacpp or ollama.
	Kind string `json:"kind"`
	// Image is the container image (required for every kind but
	// simengine, which runs in-process).
	Image string `json:"image,omitempty"`
	// Model is the model to serve (for simengine, the served model name).
	Model string `json:"model,omitempty"`
	// Args are extra engine arguments (for simengine, the flags of
	// cmd/simengine, such as --time-scale=0.1).
	Args []string `json:"args,omitempty"`
	// GPUs is the number of GPUs to request; -1 requests all of them.
	GPUs int `json:"gpus,omitempty"`
	// Env is extra environment for the engine.
	Env map[string]string `json:"env,omitempty"`
	// Process, when set, runs the engine as a local process instead of a
	// container; nil runs the container (Ollama: a process unless Image
	// is given and Docker is there).
	Process *EngineProcess `json:"process,omitempty"`
	// Starts is how many times the engine is started (and each time
	// probed for its first token) before the load, every start but the
	// last one stopped again, so that objectives.startup judges a
	// population of starts; 0 means 1.
	Starts int `json:"starts,omitempty"`
}

// EngineProcess is a local-process engine: the engine module builds the
// same command line it gives its container, run from Binary.
type EngineProcess struct {
	// Binary replaces the engine's executable (vllm, python3,
	// text-generation-launcher, llama-server, ollama); empty looks the
	// default up on PATH.
	Binary string `json:"binary,omitempty"`
	// Args are extra engine arguments, after Engine.Args.
	Args []string `json:"args,omitempty"`
	// Env is extra environment for the process, after Engine.Env.
	Env map[string]string `json:"env,omitempty"`
}

// ArrivalSpec declares a contract's arrival process: the run's own spec
// (process, burstiness, burst size, users, think time, time scale, seed),
// with the contract's load points. RateRPS is the one rate of a contract
// that declares one; Rates lists every load point's rate.
type ArrivalSpec struct {
	schedule.ArrivalSpec
	// Rates are the offered rates in requests per second: one for a single
	// load point, several (ascending) for a sweep; none for replay and
	// closed loop.
	Rates []float64
	// UsersAuto ("users: auto") searches the SLO concurrency of a closed
	// loop instead of running one number of users (see
	// Contract.UserSearch).
	UsersAuto bool
}

// Sweep reports whether the contract tests several offered rates.
func (a ArrivalSpec) Sweep() bool { return len(a.Rates) > 1 }

// Timeouts are the per-request deadlines (zero: none) and the bounds of the
// specs that run the load.
type Timeouts struct {
	FirstToken time.Duration
	Idle       time.Duration
	Total      time.Duration
	// Run bounds one load point, warmup and drain included; zero derives
	// it from the schedule's length and the total deadline.
	Run time.Duration
	// Startup bounds the engine's start; zero leaves the engine's default.
	Startup time.Duration
}

// Objectives are what a run must achieve. A nil pointer is not declared.
type Objectives struct {
	// ValidLoad requires the load to be delivered (default true).
	ValidLoad bool
	// Attainment is the minimum qualified / offered.
	Attainment *float64
	// WilsonLower is the minimum one-sided Wilson lower bound of
	// attainment at Confidence.
	WilsonLower *float64
	// Confidence is the Wilson bound's confidence (default 0.95).
	Confidence float64
	// Percentiles bound latency percentiles.
	Percentiles []PercentileObjective
	// ErrorRate is the maximum (offered - protocol successes) / offered.
	ErrorRate *float64
	// QualifiedRate is the minimum qualified requests per second of the
	// cohort's horizon.
	QualifiedRate *float64
	// PrefixCacheHitRate is the minimum prefix-cache hit rate measured
	// over the run (matchers.HavePrefixCacheHitRateAtLeast).
	PrefixCacheHitRate *float64
	// PrefixReuseAchieved is the minimum share of the prompt tokens the
	// workload declares reusable that the engine served from its prefix
	// cache (matchers.HavePrefixReuseAchievedAtLeast).
	PrefixReuseAchieved *float64
	// Sessions bounds the session attainment; nil when not declared.
	Sessions *SessionObjective
	// Fairness bounds Jain's index over a breakdown dimension's values'
	// attainment; nil when not declared.
	Fairness *FairnessObjective
	// SpeculativeDecoding bounds the engine's speculative decoding; nil
	// when not declared.
	SpeculativeDecoding *SpeculativeObjective
	// Startup bounds every start of the engine; nil when not declared.
	Startup *StartupObjective
	// ShedOrder declares the critical objectives whose requests must not
	// be shed before sheddable ones; nil when not declared.
	ShedOrder *ShedOrderObjective
	// RecoveryWithin bounds the recovery after a phased plan's first burst
	// phase (matchers.HaveRecoveredWithin); 0 when not declared.
	RecoveryWithin time.Duration
	// Capacity is the minimum SLO capacity of a sweep.
	Capacity *CapacityObjective
	// Concurrency is the minimum SLO concurrency of a user search, in
	// users.
	Concurrency *int
	// Drift is the largest growth of p99 TTFT or TPOT over the run, as a
	// fraction of its start value (matchers.HaveNoDrift).
	Drift *float64
	// JoulesPerOutputToken and JoulesPerQualifiedRequest bound the GPUs'
	// energy over the measurement per output token and per qualified
	// request (strictly below).
	JoulesPerOutputToken      *float64
	JoulesPerQualifiedRequest *float64
	// Breakdown bounds single values of breakdown dimensions: the
	// attainment of adapter sql (matchers.InBreakdown).
	Breakdown []BreakdownObjective
}

// PercentileObjective bounds the P-th percentile of Metric by Below.
type PercentileObjective struct {
	Metric record.Metric
	P      float64
	Below  time.Duration
}

// CapacityObjective requires a sweep's highest passing tested offered rate
// to be at least AtLeast requests per second, under Rule.
type CapacityObjective struct {
	AtLeast float64
	Rule    capacity.Rule
}
