package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/openai"
)

// PreflightRun validates cfg as Run would, then runs Preflight with its
// client and the workload's first row, so that a run that cannot succeed
// fails before anything is written or sent. With an adapter mix it also
// refuses an adapter the engine does not list (CheckServedAdapters).
func PreflightRun(ctx context.Context, cfg RunConfig) (*openai.PreflightReport, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Adapters != nil {
		// Refused before the probe is sent.
		rep, err := openai.CheckServedModel(ctx, cfg.Client)
		if err == nil {
			err = CheckServedAdapters(rep.ServedModels, cfg.Adapters)
		}
		if err != nil {
			return rep, err
		}
	}
	return openai.Preflight(ctx, cfg.Client, cfg.Workload.Requests[0])
}
