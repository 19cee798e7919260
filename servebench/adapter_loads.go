package servebench

import (
	"context"
	"errors"
	"fmt"

	"github.com/servebench/servebench/servebench/report"
)

// LoadAdapters loads cfg.LoRA.Load into the engine through
// cfg.Client, one after another in the order given, and returns each
// load's time for the report (RunConfig.LoRA.Loaded). The first load
// that fails stops it: the adapters loaded before it are unloaded again
// (so a rerun finds the engine as this one did), and the error names the
// adapter, the route, the HTTP status and the engine's message. Nothing of
// the run is sent or written. Whoever loads the adapters unloads them with
// UnloadAdapters when its runs are over.
func LoadAdapters(ctx context.Context, cfg RunConfig) ([]report.AdapterLoad, error) {
	if len(cfg.LoRA.Load) == 0 {
		return nil, nil
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	loads := make([]report.AdapterLoad, 0, len(cfg.LoRA.Load))
	for _, a := range cfg.LoRA.Load {
		res, err := cfg.Client.LoadAdapter(ctx, a, cfg.LoRA.LoadTimeout)
		if err != nil {
			if uerr := unloadAdapters(ctx, cfg, loads); uerr != nil {
				err = fmt.Errorf("%w; unloading the adapters loaded before it: %w", err, uerr)
			}
			return loads, err
		}
		loads = append(loads, report.AdapterLoad{Adapter: a.Name, Path: a.Path, Route: res.Route,
			LoadMS: float64(res.Elapsed.Microseconds()) / 1000, Status: res.Status})
	}
	return loads, nil
}

// UnloadAdapters unloads the adapters of loads from the engine, last
// loaded first, each through cfg.Client's unload route, unless
// cfg.LoRA.Keep. It goes on past a failure and returns every failure
// joined. A cancelled ctx does not stop it (an interrupted run still
// leaves the engine as it found it); each call is bounded by
// cfg.LoRA.LoadTimeout.
func UnloadAdapters(ctx context.Context, cfg RunConfig, loads []report.AdapterLoad) error {
	if cfg.LoRA.Keep {
		return nil
	}
	return unloadAdapters(ctx, cfg, loads)
}

// unloadAdapters is UnloadAdapters whatever cfg.LoRA.Keep says: the
// loads before a failed one are always undone.
func unloadAdapters(ctx context.Context, cfg RunConfig, loads []report.AdapterLoad) error {
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for i := len(loads) - 1; i >= 0; i-- {
		if _, err := cfg.Client.UnloadAdapter(ctx, loads[i].Adapter, cfg.LoRA.LoadTimeout); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
