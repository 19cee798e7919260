package ab

import (
	"context"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// RoundsAuto (Config.Rounds 0, the default) runs rounds until every
// deciding statistic is decided: FirstLookRounds rounds in ABBA order, then
// balanced blocks of BlockRounds rounds, each followed by a look of the
// group-sequential procedure (compare.SequentialRule), up to MaxRounds a
// side or MaxDuration.
const RoundsAuto = 0

// FirstLookRounds is how many rounds a side runs before the first look of
// RoundsAuto: four, one whole ABBA cycle.
const FirstLookRounds = 4

// BlockRounds is how many rounds each later look of RoundsAuto adds: two,
// one AB and one BA, so the sides keep the same mean position.
const BlockRounds = 2

// DefaultMaxRounds is the most rounds a side RoundsAuto runs by default.
const DefaultMaxRounds = 20

// DefaultRounds is the first look's rounds, FirstLookRounds.
//
// Deprecated: the default is now RoundsAuto; a fixed design names its
// rounds.
const DefaultRounds = FirstLookRounds

// Config declares an A/B qualification: Rounds rounds, each one baseline
// run and one candidate run of the same workload, arrival process and seed.
type Config struct {
	// Baseline and Candidate configure each side's runs; they differ only
	// in the engine (Client, MetricsURL, Engine). Their OutputDir and RunID
	// are ignored.
	Baseline, Candidate servebench.RunConfig
	// Rounds is the number of rounds of a fixed design, or RoundsAuto (0,
	// the default) to run rounds until decided. Round K uses the arrival
	// seed plus K − 1 on both sides. One round gives an advisory result,
	// never a verdict.
	Rounds int
	// MaxRounds bounds RoundsAuto: the most rounds a side (default
	// DefaultMaxRounds; at least FirstLookRounds).
	MaxRounds int
	// MaxDuration, when above 0, bounds RoundsAuto's wall time: no block
	// starts that would likely end after it.
	MaxDuration time.Duration
	// SameServer, when set, says why the baseline and the candidate are
	// one server; it is recorded on the comparison (an A/B of one server
	// measures only its noise). Run sets it itself when both sides have
	// the same base URL and no StartEngine.
	SameServer string
	// AfterLook, when set, is called after each look of RoundsAuto with
	// its comparison and the deciding statistics still undecided.
	AfterLook func(look int, c *compare.Comparison, undecided []string)
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
