package ab

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// engines starts and stops the engines of an A/B qualification.
type engines struct {
	cfg *Config
	// reused holds each side's configuration pointed at its reused engine.
	reused map[compare.Side]*servebench.RunConfig
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
func (e *engines) unloadAll(ctx context.Context) error {
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
func (e *engines) loadOnce(ctx context.Context, run servebench.RunConfig) (servebench.RunConfig, error) {
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
func (e *engines) stopAll() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
}

// sideConfig is the side's run configuration, pointed at its engine:
// a fresh one (whose stop is returned) unless engines are reused.
func (e *engines) sideConfig(ctx context.Context, side compare.Side) (servebench.RunConfig, func(), error) {
	run := e.cfg.Baseline
	if side == compare.Candidate {
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
		e.reused = map[compare.Side]*servebench.RunConfig{}
	}
	e.reused[side] = &run
	e.stops = append(e.stops, stop)
	return run, nil, nil
}

// run makes one run of one side in round k.
func (e *engines) run(ctx context.Context, side compare.Side, k int) (*report.Report, error) {
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
