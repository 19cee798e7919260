package suites

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/servebench/servebench/internal/outputdir"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// ContractFile is the name of the contract's copy in every run directory.
const ContractFile = "contract.yaml"

// Target is where a contract's requests go: a started engine's endpoint or
// the contract's base URL.
type Target struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// MetricsURL is the engine's Prometheus endpoint, scraped around each
	// measurement; empty for a base URL or an engine without one.
	MetricsURL string `json:"metrics_url,omitempty"`
	// Engine identifies the engine for the report; nil for a base URL.
	Engine *report.EngineInfo `json:"engine,omitempty"`
	// Starts are the engine's starts when the suite started it
	// (engine.starts of them, the last one serving the load); nil for a
	// base URL.
	Starts []report.EngineStart `json:"starts,omitempty"`
}

// RunPoint runs one load point of the contract against target and keeps the
// run directory (schedule, outcomes, report and a copy of the contract)
// under the contract's ArtifactsRoot; the report.json of a run that
// completed lists the verdicts of the point's objectives (objectives), as
// its specs judge them. It first checks that the engine lists
// the contract's model (openai.CheckServedModel). observer, when set,
// watches the run (see servebench.Observer).
func (c *Contract) RunPoint(ctx context.Context, p LoadPoint, target Target, observer servebench.Observer) (*servebench.RunResult, error) {
	cfg, err := c.runConfig(p, target)
	if err != nil {
		return nil, err
	}
	if err := c.loadAdapters(ctx, &cfg); err != nil {
		return nil, fmt.Errorf("contract %s, %s: %w", c.Name, p.Name, err)
	}
	// As the CLI's preflight: a model the engine does not serve fails
	// here, before anything is sent or written.
	rep, err := openai.CheckServedModel(ctx, cfg.Client)
	if err == nil {
		err = servebench.CheckServedAdapters(rep.ServedModels, cfg.LoRA.Mix)
	}
	if err != nil {
		return nil, fmt.Errorf("contract %s, %s: %w", c.Name, p.Name, err)
	}
	cfg.OutputDir = c.runDir(p, time.Now())
	observer, stopMetrics, err := c.serveLiveMetrics(observer)
	if err != nil {
		return nil, err
	}
	defer stopMetrics()
	cfg.Observer = observer
	if gpu := c.gpuSampler(ctx); gpu != nil {
		defer gpu.Close()
		cfg.GPUSampler = gpu
	}
	out, err := outputdir.Prepare("run directory", cfg.OutputDir, false)
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	defer func() { _ = out.WriteManifest("contract") }()
	if err := os.MkdirAll(cfg.OutputDir, 0o755); err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	if err := safefile.WriteFile(filepath.Join(cfg.OutputDir, ContractFile), c.raw); err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	stopImages, err := c.prepareImages(&cfg)
	if err != nil {
		return nil, err
	}
	defer stopImages()
	res, err := servebench.Run(ctx, cfg)
	if err != nil {
		return res, fmt.Errorf("contract %s, %s: %w", c.Name, p.Name, err)
	}
	if err := c.writePointObjectives(p, res); err != nil {
		return res, fmt.Errorf("contract %s, %s: adding the objectives' verdicts to the report: %w", c.Name, p.Name, err)
	}
	return res, nil
}

// runConfig builds the runner's configuration for one load point: the
// contract's Settings at p's rate against target.
func (c *Contract) runConfig(p LoadPoint, target Target) (servebench.RunConfig, error) {
	client, err := c.client(target)
	if err != nil {
		return servebench.RunConfig{}, err
	}
	arrival := c.Arrival.ArrivalSpec
	arrival.RateRPS, arrival.Users = p.RateRPS, c.closedLoopUsers()
	cfg, err := servebench.Settings{
		Workload:         c.Workload,
		Arrival:          arrival,
		Count:            c.Count,
		Duration:         c.Duration,
		Warmup:           c.Warmup,
		MaxConcurrency:   c.MaxConcurrency,
		LagTolerance:     c.ScheduleLagTolerance,
		ResetPrefixCache: c.CacheReset,
		Client:           client,
		LoRA:             c.LoRA,
		EngineMetrics:    servebench.EngineMetricsConfig{URL: target.MetricsURL, BackendURLs: c.BackendMetrics},
		TurnHistory:      c.TurnHistory,
		Score: score.Options{SLO: c.SLO, Confidence: c.Objectives.Confidence, Percentiles: c.percentileLevels(),
			CriticalObjectives: c.Objectives.criticalObjectives()},
		Engine:       target.Engine,
		EngineStarts: target.Starts,
		Labels:       map[string]any{"contract": c.Name, "load_point": p.Name, "labels": c.AllLabels()},
		Artifacts:    c.artifactWriters(),
	}.RunConfig()
	if err != nil {
		return servebench.RunConfig{}, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	return cfg, nil
}

// client is the contract's client against target: its endpoint, deadlines,
// length control, backend header, adapter form and API key.
func (c *Contract) client(target Target) (*openai.Client, error) {
	client := &openai.Client{
		BaseURL:           target.BaseURL,
		Model:             target.Model,
		Endpoint:          c.Endpoint,
		FirstTokenTimeout: c.Timeouts.FirstToken, // zero is none, as NoDeadline
		IdleTimeout:       openai.NoDeadlineIfZero(c.Timeouts.Idle),
		TotalTimeout:      openai.NoDeadlineIfZero(c.Timeouts.Total),
		LengthControl:     c.LengthControl,
		BackendHeader:     c.BackendHeader,
		AdapterForm:       c.AdapterForm,
	}
	if c.APIKeyEnv != "" {
		if client.APIKey = os.Getenv(c.APIKeyEnv); client.APIKey == "" {
			return nil, fmt.Errorf("contract %s: api_key_env names %s, which is empty", c.Name, c.APIKeyEnv)
		}
	}
	return client, nil
}

// closedLoopUsers is the users of a closed-loop load point: the declared
// number, or a user search's first.
func (c *Contract) closedLoopUsers() int {
	if s := c.UserSearch; s != nil && c.Arrival.UsersAuto {
		return s.StartUsers
	}
	return c.Arrival.Users
}

// loadAdapters loads the contract's adapters into cfg's engine before its
// first load point there, and gives every point the loads: the engine
// refuses an adapter loaded twice.
func (c *Contract) loadAdapters(ctx context.Context, cfg *servebench.RunConfig) error {
	if len(cfg.LoRA.Load) == 0 {
		return nil
	}
	if c.loaded == nil {
		c.loaded = &loadedAdapters{}
	}
	l := c.loaded
	l.mu.Lock()
	defer l.mu.Unlock()
	if loads, ok := l.byURL[cfg.Client.BaseURL]; ok {
		cfg.LoRA.Loaded = loads
		return nil
	}
	loads, err := servebench.LoadAdapters(ctx, *cfg)
	if err != nil {
		return err
	}
	if l.byURL == nil {
		l.byURL = map[string][]report.AdapterLoad{}
	}
	l.byURL[cfg.Client.BaseURL] = loads
	cfg.LoRA.Loaded = loads
	return nil
}

// loadedAdapters are the adapter loads a contract did, by engine base URL.
type loadedAdapters struct {
	mu    sync.Mutex
	byURL map[string][]report.AdapterLoad
}
