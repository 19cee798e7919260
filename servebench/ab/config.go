package ab

import (
	"context"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// DefaultRounds is the number of rounds an A/B qualification runs when
// none is given: four, one whole ABBA cycle.
const DefaultRounds = 4

// Config declares an A/B qualification: Rounds rounds, each one baseline
// run and one candidate run of the same workload, arrival process and seed.
type Config struct {
	// Baseline and Candidate configure each side's runs; they differ only
	// in the engine (Client, MetricsURL, Engine). Their OutputDir and RunID
	// are ignored.
	Baseline, Candidate servebench.RunConfig
	// Rounds is the number of rounds (default DefaultRounds). Round K uses
	// the arrival seed plus K − 1 on both sides. One round gives an
	// advisory result, never a verdict.
	Rounds int
	// OutputDir receives baseline/round-K and candidate/round-K run
	// directories, compare.json, compare.txt and compare.html.
	OutputDir string
	// Options declares the comparison.
	Options compare.Options
	// StartEngine, when set, starts an engine for side and points cfg at
	// it (its client's base URL and model, its metrics URL and engine
	// identity); stop shuts it down. By default it is called before every
	// run, so that no round inherits another's warm caches; with
	// ReuseEngines each side's engine starts once, before its first run,
	// and stops after the qualification. Without StartEngine the engines
	// are the ones Baseline and Candidate point at, reused by every round.
	StartEngine func(ctx context.Context, side compare.Side, cfg *servebench.RunConfig) (stop func(), err error)
	// ReuseEngines keeps each side's engine from StartEngine for every
	// round instead of starting a fresh one per run.
	ReuseEngines bool
	// BeforeRun, when set, is called before each run with its side, round
	// (from 1) and configuration, which it may change; the returned
	// function, when not nil, runs after the run.
	BeforeRun func(side compare.Side, round int, cfg *servebench.RunConfig) (after func(), err error)
}

// The ways an A/B qualification used its engines, as Comparison.Engines
// records them.
const (
	EnginesFresh           = "fresh: every run started its own engine"
	EnginesReusedStarted   = "reused: each side's engine started once and served every round"
	EnginesReusedGivenURLs = "reused: the engines were running before the first round and served every round"
)

// engineUse says how cfg uses its engines.
func (cfg Config) engineUse() string {
	switch {
	case cfg.StartEngine == nil:
		return EnginesReusedGivenURLs
	case cfg.ReuseEngines:
		return EnginesReusedStarted
	}
	return EnginesFresh
}
