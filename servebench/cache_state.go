package servebench

import (
	"context"
	"fmt"

	"github.com/servebench/servebench/servebench/report"
)

// resetPrefixCache empties the engine's prefix cache when cfg asks for it
// and returns the route that did; "" when cfg does not ask.
func resetPrefixCache(ctx context.Context, cfg RunConfig) (string, error) {
	if !cfg.ResetPrefixCache {
		return "", nil
	}
	kind := ""
	if cfg.Engine != nil {
		kind = cfg.Engine.Kind
	}
	route, err := cfg.Client.ResetPrefixCache(ctx, kind)
	if err != nil {
		return "", fmt.Errorf("run: nothing was sent: %w", err)
	}
	return route, nil
}

// setCacheState records in rep the cache state the run started from and
// the workload's declared cache policy.
func setCacheState(rep *report.Report, cfg RunConfig, route string) {
	rep.CacheState, rep.CacheResetRoute = report.CacheStateUncontrolled, ""
	if route != "" {
		rep.CacheState, rep.CacheResetRoute = report.CacheStateReset, route
	}
	rep.CachePolicy = cfg.CachePolicy
	rep.EngineStarts = cfg.EngineStarts
}

// EngineControl identifies the engine a run measures and says what the run
// does to it beside the load. RunConfig embeds it.
type EngineControl struct {
	// Engine identifies the engine for the experiment record.
	Engine *report.EngineInfo
	// ResetPrefixCache empties the engine's prefix cache before the
	// warmup (Client.ResetPrefixCache, with Engine's kind when set), so
	// that every run, sweep point and A/B round starts from the same cache
	// state; a reset that fails stops the run before anything is sent or
	// written. The report's CacheState is then "reset", else
	// "uncontrolled".
	ResetPrefixCache bool
	// CachePolicy is the prefix-cache state the workload declares
	// (fixtures.CachePolicy: cold, warm or disabled; "" for none); the
	// report records it beside CacheState.
	CachePolicy string
	// EngineStarts are the engine's starts when the run's caller started
	// it (containers.EngineStart), copied into the report.
	EngineStarts []report.EngineStart
}
