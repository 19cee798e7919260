package servebench

import (
	"time"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Settings declares a run in plain values, as the servebench command's flags
// and a suites contract give them: the arrival as a spec of any process
// rather than a realized Arrival, and none of the run's live parts
// (Observer, Sender, GPUSampler, a realized Schedule). Both fill a Settings
// and build their RunConfig with Settings.RunConfig, the one mapping
// between them: a setting either gains goes into Settings (into its group:
// LoRA, EngineMetrics) and through that function. Each field means what
// RunConfig's field of the same name means.
type Settings struct {
	// Workload supplies the requests.
	Workload *schedule.Workload
	// Arrival declares the arrival process of any kind: constant, poisson,
	// gamma and burst set RunConfig.Arrival; replay sets it to a replay of
	// Workload's stored times at TimeScale (0 means 1); closed sets
	// RunConfig.ClosedLoop from Users and ThinkTimeMS.
	Arrival schedule.ArrivalSpec
	// Count and Duration bound the schedule.
	Count    int
	Duration time.Duration
	// Warmup requests run before the measurement window.
	Warmup int
	// MaxConcurrency caps the requests in flight (0: no cap).
	MaxConcurrency int
	// ResetPrefixCache empties the engine's prefix cache before each
	// run's warmup; CachePolicy is the workload's declared cache state.
	ResetPrefixCache bool
	CachePolicy      string
	// EngineStarts are the engine's starts when the caller started it.
	EngineStarts []report.EngineStart
	// LagTolerance is the declared schedule-lag tolerance.
	LagTolerance time.Duration
	// Client sends the requests.
	Client *openai.Client
	// LoRA declares the LoRA adapter mix and the adapters to load.
	LoRA LoRAConfig
	// EngineMetrics declares the Prometheus endpoints to scrape.
	EngineMetrics EngineMetricsConfig
	// TurnHistory says what a conversation's later turns carry.
	TurnHistory schedule.TurnHistory
	// Score declares how the run is scored.
	Score score.Options
	// KeepRequests keeps every request's entry in report.json too.
	KeepRequests bool
	// Engine identifies the engine for the experiment record.
	Engine *report.EngineInfo
	// Labels are copied into the experiment record.
	Labels map[string]any
	// Artifacts write more files into the run directory.
	Artifacts []ArtifactWriter
	// OutputDir is the run directory; empty means a new temporary one.
	OutputDir string
	// RunID names the run; empty means a new UUIDv7.
	RunID string
	// Shard and StartAt place the run among its sibling shards.
	Shard   *schedule.Shard
	StartAt time.Time
}

// RunConfig builds the run that s declares: every setting copied to its
// RunConfig field, and the arrival realized from its spec (see Arrival); a
// spec that names no valid process, rate or workload for a replay is its
// error.
func (s Settings) RunConfig() (RunConfig, error) {
	cfg := RunConfig{
		Workload:       s.Workload,
		Count:          s.Count,
		Duration:       s.Duration,
		Warmup:         s.Warmup,
		MaxConcurrency: s.MaxConcurrency,
		LagTolerance:   s.LagTolerance,
		Client:         s.Client,
		LoRA:           s.LoRA,
		EngineMetrics:  s.EngineMetrics,
		TurnHistory:    s.TurnHistory,
		Score:          s.Score,
		KeepRequests:   s.KeepRequests,
		EngineControl:  EngineControl{Engine: s.Engine, ResetPrefixCache: s.ResetPrefixCache, CachePolicy: s.CachePolicy, EngineStarts: s.EngineStarts},
		Labels:         s.Labels,
		Artifacts:      s.Artifacts,
		OutputDir:      s.OutputDir,
		RunID:          s.RunID,
		Shard:          s.Shard,
		StartAt:        s.StartAt,
	}
	if err := cfg.setArrival(s.Arrival); err != nil {
		return RunConfig{}, err
	}
	return cfg, nil
}
