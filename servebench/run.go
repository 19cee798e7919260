package servebench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// RunConfig declares one benchmark run.
type RunConfig struct {
	// Workload supplies the requests.
	Workload *schedule.Workload
	// Arrival is the open-loop arrival process (Constant, Poisson, Gamma,
	// or any schedule.Arrival); nil with ClosedLoop.
	Arrival schedule.Arrival
	// ClosedLoop declares N users with a think time instead. Each user
	// runs one arrival unit at a time (a single request, or a session:
	// a conversation's turns in order, each its think time after the
	// previous one ended), then takes the next.
	ClosedLoop *schedule.ClosedLoop
	// Count and Duration bound the schedule (see schedule.Plan). With
	// ClosedLoop, Duration bounds the loop by time: at the deadline the
	// users stop starting requests, the requests in flight finish, and a
	// session still running has its remaining turns recorded as not_sent
	// with record.ReasonSessionTruncated, outside the window [0, Duration).
	Count    int
	Duration time.Duration
	// LoRA declares the LoRA adapters: the mix requests draw theirs from
	// and the adapters loaded into the engine before any load.
	LoRA LoRAConfig
	// TurnHistory says what the assistant messages of a conversation's later
	// turns carry: schedule.TurnHistoryEngine (the default, also when empty)
	// replaces them by the engine's answers to the earlier turns in this
	// run, schedule.TurnHistoryWorkload sends them as written. Either way a
	// conversation whose turn did not succeed sends no later turn: they are
	// recorded as not_sent. The answer is the record's Text, which the
	// sender keeps for a request whose KeepText is set (Client does); it is
	// taken out of the record again unless Client.KeepText or the row's
	// expectation wants it there.
	TurnHistory schedule.TurnHistory
	// Schedule, when set, is used as it is instead of being realized from
	// the fields above (Workload is still required for the request bodies).
	Schedule *schedule.Schedule
	// Warmup requests are sent and waited for before the measurement
	// window opens; they are written to warmup.jsonl and excluded from the
	// cohort. They use the first rows of the workload, so the prefixes of
	// those rows start warm.
	Warmup int
	// MaxConcurrency caps the requests in flight (0: no cap). The wait for
	// a slot is measured per request and the report says whether it bound.
	MaxConcurrency int
	// Client sends the requests, unless Sender is set; either is required.
	// When set it is also what the experiment record describes (endpoint,
	// base URL, model, deadlines).
	Client *openai.Client
	// Sender, when set, sends the requests instead of Client: another
	// protocol, or a Client wrapped with extra behaviour (see Sender).
	Sender record.Sender
	// LagTolerance is the declared schedule-lag tolerance (default 20 ms).
	LagTolerance time.Duration
	// Score declares how the run is scored (SLO, confidence, percentiles).
	Score score.Options
	// OutputDir receives schedule.json, outcomes.jsonl, warmup.jsonl and
	// report.json; empty means a new temporary directory.
	OutputDir string
	// Observer, when set, is told as the run starts, as each request ends
	// and as the run finishes (see Observer).
	Observer Observer
	// EngineControl identifies the engine (Engine) and says what the run
	// does to it beside the load (ResetPrefixCache); its fields are
	// promoted.
	EngineControl
	// EngineMetrics declares the engine's Prometheus endpoints scraped
	// around and through the measurement.
	EngineMetrics EngineMetricsConfig
	// KeepRequests keeps every request's entry in the report (in memory
	// and in report.json) as well as in requests.jsonl: memory then grows
	// with the run's length.
	KeepRequests bool
	// GPUSampler, when set, samples the GPUs over the measurement (see
	// package servebench/telemetry); the report then carries
	// GPUTelemetry.
	GPUSampler GPUSampler
	// RunID names the run; empty means a new UUIDv7.
	RunID string
	// Labels are copied into the experiment record.
	Labels map[string]any
	// Shard, when set, sends and scores only that shard's share of the
	// schedule; schedule.json still holds the whole schedule. Every shard of
	// a run must realize the same schedule, so they share RunID and seed.
	Shard *schedule.Shard
	// StartAt, when set, is the wall-clock instant the measurement starts:
	// warmup runs before it, and a start instant that has passed before
	// warmup ends is an error. Shards of one run share it.
	StartAt time.Time
	// Artifacts write more files into the run directory once report.json
	// is written, such as the llm-d Benchmark Report (see ArtifactWriter).
	// A sweep passes them to every point.
	Artifacts []ArtifactWriter

	// outcomeSink, when set, wraps outcomes.jsonl's file: the seam where a
	// test puts a disk that fills up.
	outcomeSink func(*os.File) io.Writer
}

// RunResult is what a run leaves: its directory and the values written there.
type RunResult struct {
	// Dir is the run directory.
	Dir string
	// Schedule is the realized schedule (its header only when the run
	// realized its own open-loop schedule: the entries are in
	// schedule.json) and ScheduleSHA256 the hash of schedule.json's bytes.
	Schedule       *schedule.Schedule
	ScheduleSHA256 string
	// Warmup holds the warmup records. The run's own records are in
	// outcomes.jsonl: Outcomes reads them.
	Warmup []record.Outcome
	// Report is the scored run.
	Report *report.Report
}

// Outcomes reads the run's outcome records back from outcomes.jsonl, one
// at a time, in the order they were written (the order requests ended,
// retries as separate attempts): memory does not grow with the run. The
// record is reused for the next one: copy what you keep. A record that
// cannot be read ends the sequence with its error, which names the file
// and line.
func (r *RunResult) Outcomes() iter.Seq2[*record.Outcome, error] {
	return record.EachOutcome(filepath.Join(r.Dir, record.OutcomesFile))
}

// Run realizes the schedule, saves it, sends every request at its scheduled
// time, writes each outcome as it ends, and scores the run. Cancelling ctx
// ends every request in flight with a terminal record and records every
// request not yet sent as not_sent; the result is still complete and scored,
// and the error wraps ctx's. Run is Start followed by Wait.
func Run(ctx context.Context, cfg RunConfig) (*RunResult, error) {
	live, err := Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return live.Wait()
}

// validate checks the configuration before anything is written.
func (cfg *RunConfig) validate() error {
	if bad, ok := cfg.Arrival.(invalidArrival); ok {
		return fmt.Errorf("run: Arrival: %w", bad.err)
	}
	switch {
	case cfg.Workload == nil:
		return errors.New("run: a workload is required")
	case cfg.Client == nil && cfg.Sender == nil:
		return errors.New("run: a client or a sender is required")
	case cfg.MaxConcurrency < 0:
		return errors.New("run: max concurrency must not be negative")
	case cfg.Warmup < 0:
		return errors.New("run: warmup must not be negative")
	case cfg.Shard != nil && cfg.Shard.Validate() != nil:
		return fmt.Errorf("run: %w", cfg.Shard.Validate())
	case cfg.Shard != nil && cfg.ClosedLoop != nil && cfg.Shard.Count > 1:
		return errors.New("run: a closed loop's users are one population and cannot be sharded")
	case cfg.Shard != nil && cfg.RunID == "" && cfg.Schedule == nil:
		return errors.New("run: a shard needs the run ID its sibling shards share")
	case !cfg.StartAt.IsZero() && !time.Now().Before(cfg.StartAt):
		return fmt.Errorf("run: the start instant %s has already passed", cfg.StartAt.UTC().Format(time.RFC3339Nano))
	case cfg.Schedule != nil && cfg.Schedule.WorkloadSHA256 != cfg.Workload.SHA256:
		return errors.New("run: the schedule was realized from another workload (hash differs)")
	}
	if cfg.Client != nil {
		if err := cfg.Client.ValidateHeaders(); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	if cfg.Sender == nil {
		e := cfg.Client.ResolvedEndpoint()
		if err := openai.CheckWorkload(e, cfg.Workload); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		if err := score.CheckObjectives(e, cfg.Score.SLO); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	return cfg.validateAdapterLoads()
}

// validateAdapterLoads checks the adapters to load: each named once, with
// a path, and a client to load them through; and that a prefix-cache
// reset has a client to go through.
func (cfg *RunConfig) validateAdapterLoads() error {
	if cfg.ResetPrefixCache && cfg.Client == nil {
		return errors.New("run: resetting the prefix cache needs a client (the engine's base URL)")
	}
	if len(cfg.LoRA.Load) > 0 && cfg.Client == nil {
		return errors.New("run: loading adapters needs a client (the engine's base URL and adapter form)")
	}
	if err := openai.CheckAdapterLoads(cfg.LoRA.Load); err != nil {
		return fmt.Errorf("run: load adapters: %w", err)
	}
	return nil
}

// CreateRunDir creates the run directory dir (and its parents), or a fresh
// temporary directory when dir is empty, and returns its path.
func CreateRunDir(dir string) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "servebench-run-")
		if err != nil {
			return "", fmt.Errorf("run: %w", err)
		}
		return d, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("run: %w", err)
	}
	return dir, nil
}
