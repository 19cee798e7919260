package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// The files an A/B directory holds beside its baseline/ and candidate/
// round directories.
const (
	ComparisonFile     = "compare.json"
	ComparisonHTMLFile = "compare.html"
)

// Side names one side of an A/B comparison.
type Side string

// The two sides.
const (
	Baseline  Side = "baseline"
	Candidate Side = "candidate"
)

// DefaultRounds is the number of rounds an A/B qualification runs when
// none is given: four, one whole ABBA cycle.
const DefaultRounds = 4

// ErrInterrupted is wrapped by RunAB's error when its context ended
// before the last run finished: every finished run stays on disk and no
// comparison is made or written.
var ErrInterrupted = errors.New("interrupted")

// ABConfig declares an A/B qualification: Rounds rounds, each one baseline
// run and one candidate run of the same workload, arrival process and seed.
type ABConfig struct {
	// Baseline and Candidate configure each side's runs; they differ only
	// in the engine (Client, MetricsURL, Engine). Their OutputDir and RunID
	// are ignored.
	Baseline, Candidate servebench.RunConfig
	// Rounds is the number of rounds (default DefaultRounds). Round K uses
	// the arrival seed plus K − 1 on both sides. One round gives an
	// advisory result, never a verdict.
	Rounds int
	// OutputDir receives baseline/round-K and candidate/round-K run
	// directories, compare.json and compare.html.
	OutputDir string
	// Options declares the comparison.
	Options Options
	// StartEngine, when set, starts an engine for side and points cfg at
	// it (its client's base URL and model, its metrics URL and engine
	// identity); stop shuts it down. By default it is called before every
	// run, so that no round inherits another's warm caches; with
	// ReuseEngines each side's engine starts once, before its first run,
	// and stops after the qualification. Without StartEngine the engines
	// are the ones Baseline and Candidate point at, reused by every round.
	StartEngine func(ctx context.Context, side Side, cfg *servebench.RunConfig) (stop func(), err error)
	// ReuseEngines keeps each side's engine from StartEngine for every
	// round instead of starting a fresh one per run.
	ReuseEngines bool
	// BeforeRun, when set, is called before each run with its side, round
	// (from 1) and configuration, which it may change; the returned
	// function, when not nil, runs after the run.
	BeforeRun func(side Side, round int, cfg *servebench.RunConfig) (after func(), err error)
}

// The ways an A/B qualification used its engines, as Comparison.Engines
// records them.
const (
	EnginesFresh           = "fresh: every run started its own engine"
	EnginesReusedStarted   = "reused: each side's engine started once and served every round"
	EnginesReusedGivenURLs = "reused: the engines were running before the first round and served every round"
)

// engineUse says how cfg uses its engines.
func (cfg ABConfig) engineUse() string {
	switch {
	case cfg.StartEngine == nil:
		return EnginesReusedGivenURLs
	case cfg.ReuseEngines:
		return EnginesReusedStarted
	}
	return EnginesFresh
}

// ABResult is what an A/B qualification leaves.
type ABResult struct {
	// Baseline and Candidate hold every finished run's report, in round
	// order.
	Baseline, Candidate []*report.Report
	// Comparison is the verdict; nil when the qualification did not
	// finish.
	Comparison *Comparison
	// Order lists the finished runs in the order they ran, as
	// "baseline/round-1".
	Order []string
}

// RunAB runs the rounds in the balanced ABBA order (see ABBAOrder) so that
// drift and warm-up hit both sides alike, keeps every run, compares them
// and writes compare.json and compare.html into the output directory. A run
// that ends in error, or an interruption (ctx ending: the error wraps
// ErrInterrupted), stops the qualification: the finished runs stay on disk
// and no comparison is made from the unbalanced set.
func RunAB(ctx context.Context, cfg ABConfig) (result *ABResult, err error) {
	if cfg.Rounds == 0 {
		cfg.Rounds = DefaultRounds
	}
	if cfg.Rounds < 1 {
		return nil, fmt.Errorf("ab: rounds must be at least 1, got %d", cfg.Rounds)
	}
	if cfg.OutputDir == "" {
		return nil, errors.New("ab: an output directory is required")
	}
	res := &ABResult{}
	eng := &abEngines{cfg: &cfg}
	defer eng.stopAll()
	defer func() { err = errors.Join(err, eng.unloadAll(ctx)) }()
	order := ABBAOrder(cfg.Rounds)
	for _, pos := range order.Runs {
		rep, err := eng.run(ctx, pos.Side, pos.Round)
		if ctx.Err() != nil {
			err = fmt.Errorf("ab: %s: %w before the run finished; its partial run and the %d finished runs are kept in %s, and no verdict is written from an unbalanced set of rounds",
				pos, ErrInterrupted, len(res.Order), cfg.OutputDir)
		}
		if err != nil {
			return res, err
		}
		res.Order = append(res.Order, pos.String())
		if pos.Side == Baseline {
			res.Baseline = append(res.Baseline, rep)
		} else {
			res.Candidate = append(res.Candidate, rep)
		}
	}
	c, err := Reports(res.Baseline, res.Candidate, cfg.Options)
	if err != nil {
		return res, err
	}
	c.RunOrder, c.Engines = &order, cfg.engineUse()
	res.Comparison = c
	return res, c.WriteFiles(cfg.OutputDir)
}

// abEngines starts and stops the engines of an A/B qualification.
type abEngines struct {
	cfg *ABConfig
	// reused holds each side's configuration pointed at its reused engine.
	reused map[Side]*servebench.RunConfig
	stops  []func()
	// loaded holds the LoRA adapter loads done on each engine that serves
	// more than one run (by base URL), so that no adapter is loaded twice,
	// with the run configuration that loaded them, to unload them at the
	// end.
	loaded map[string]engineLoads
}

// engineLoads are the adapter loads done on one engine, and the run
// configuration that did them.
type engineLoads struct {
	run   servebench.RunConfig
	loads []report.AdapterLoad
}

// unloadAll unloads the adapters loaded on each engine, so that the
// engines are left as the qualification found them.
func (e *abEngines) unloadAll(ctx context.Context) error {
	var errs []error
	for url, l := range e.loaded {
		if err := servebench.UnloadAdapters(ctx, l.run, l.loads); err != nil {
			errs = append(errs, fmt.Errorf("ab: unloading the adapters loaded on %s: %w", url, err))
		}
	}
	return errors.Join(errs...)
}

// loadOnce loads run's adapters into its engine unless they were loaded
// there already, and sets the loads on run.
func (e *abEngines) loadOnce(ctx context.Context, run servebench.RunConfig) (servebench.RunConfig, error) {
	if len(run.LoRA.Load) == 0 || run.LoRA.Loaded != nil || run.Client == nil {
		return run, nil
	}
	if l, ok := e.loaded[run.Client.BaseURL]; ok {
		run.LoRA.Loaded = l.loads
		return run, nil
	}
	loads, err := servebench.LoadAdapters(ctx, run)
	if err != nil {
		return run, err
	}
	if e.loaded == nil {
		e.loaded = map[string]engineLoads{}
	}
	e.loaded[run.Client.BaseURL] = engineLoads{run: run, loads: loads}
	run.LoRA.Loaded = loads
	return run, nil
}

// stopAll stops the reused engines, last started first.
func (e *abEngines) stopAll() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
}

// sideConfig is the side's run configuration, pointed at its engine:
// a fresh one (whose stop is returned) unless engines are reused.
func (e *abEngines) sideConfig(ctx context.Context, side Side) (servebench.RunConfig, func(), error) {
	run := e.cfg.Baseline
	if side == Candidate {
		run = e.cfg.Candidate
	}
	if e.cfg.StartEngine == nil {
		run, err := e.loadOnce(ctx, run)
		return run, nil, err
	}
	if r, ok := e.reused[side]; ok {
		return *r, nil, nil
	}
	stop, err := e.cfg.StartEngine(ctx, side, &run)
	if err != nil {
		return run, nil, fmt.Errorf("start the %s engine: %w", side, err)
	}
	if stop == nil {
		stop = func() {}
	}
	if !e.cfg.ReuseEngines {
		return run, stop, nil
	}
	if run, err = e.loadOnce(ctx, run); err != nil {
		stop()
		return run, nil, err
	}
	if e.reused == nil {
		e.reused = map[Side]*servebench.RunConfig{}
	}
	e.reused[side] = &run
	e.stops = append(e.stops, stop)
	return run, nil, nil
}

// run makes one run of one side in round k.
func (e *abEngines) run(ctx context.Context, side Side, k int) (*report.Report, error) {
	run, stop, err := e.sideConfig(ctx, side)
	if err != nil {
		return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
	}
	if stop != nil {
		defer stop()
	}
	run.OutputDir = filepath.Join(e.cfg.OutputDir, string(side), "round-"+strconv.Itoa(k))
	run.RunID, run.Schedule = "", nil
	if run.Arrival != nil {
		spec := run.Arrival.Spec()
		if spec.Process != "replay" {
			spec.Seed += int64(k - 1)
			a, err := schedule.NewArrival(spec)
			if err != nil {
				return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
			}
			run.Arrival = a
		}
	}
	if e.cfg.BeforeRun != nil {
		after, err := e.cfg.BeforeRun(side, k, &run)
		if err != nil {
			return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
		}
		if after != nil {
			defer after()
		}
	}
	r, err := servebench.Run(ctx, run)
	if err != nil {
		return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
	}
	return r.Report, nil
}

// WriteFiles writes compare.json and compare.html into dir.
func (c *Comparison) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	b, err := c.JSON()
	if err != nil {
		return err
	}
	if err := safefile.WriteWhole(filepath.Join(dir, ComparisonFile), b); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	f, err := safefile.Create(filepath.Join(dir, ComparisonHTMLFile))
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := c.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
