package servebench

import (
	"time"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// LoRAConfig declares a run's LoRA adapters (RunConfig.LoRA): the mix
// requests draw theirs from, and the adapters loaded into the engine before
// any load.
type LoRAConfig struct {
	// Mix, when set, is the LoRA adapter mix the schedule draws each
	// request's adapter from (see schedule.Plan); the client sends it as
	// the request's model.
	Mix *schedule.AdapterMix
	// Load are LoRA adapters to load into the engine before any load
	// (vLLM's POST /v1/load_lora_adapter, SGLang's /load_lora_adapter,
	// chosen by Client.AdapterForm), one after another, each timed from
	// its send to the engine's complete answer. A load that fails stops the
	// run before anything is sent. The report's AdapterLoads carries the
	// times. See LoadAdapters.
	Load []openai.AdapterLoad
	// LoadTimeout bounds each load call (default
	// openai.DefaultAdapterLoadTimeout).
	LoadTimeout time.Duration
	// Keep leaves the adapters of Load in the engine when the runs are
	// over. By default whoever loaded them (Run, a sweep, an A/B
	// qualification, the command) unloads them at its end
	// (UnloadAdapters), so that a rerun finds the engine as this one did.
	Keep bool
	// Loaded are the loads of Load already done, as LoadAdapters returned
	// them: a caller that loads the adapters before its preflight (so that
	// the preflight finds them), or a sweep whose points share one engine,
	// sets them and the run loads nothing again; they are copied into the
	// report. Nil with Load set means the run loads the adapters itself.
	Loaded []report.AdapterLoad
}

// EngineMetricsConfig declares the Prometheus endpoints a run scrapes
// (RunConfig.EngineMetrics): the engine's and, behind a gateway, its
// replicas'.
type EngineMetricsConfig struct {
	// URL is the engine's Prometheus endpoint; when set it is scraped
	// right before and right after the measurement, and the report carries
	// what changed (EngineMetrics).
	URL string
	// BackendURLs are the Prometheus endpoints of the replicas behind a
	// gateway, each scraped right before and right after the measurement
	// and every Interval through it; the report's BackendMetrics says what
	// changed on each, with its prefix-cache hit rate where the engine
	// exposes it, and its series.
	BackendURLs []string
	// Interval is how often URL is scraped through the measurement for the
	// report's EngineSeries: 0 means enginemetrics.DefaultInterval, a
	// negative value scrapes only before and after.
	Interval time.Duration
}
