package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/openai"
)

// PreflightRun validates cfg as Run would, then runs Preflight with its
// client and the workload's first row, so that a run that cannot succeed
// fails before anything is written or sent. With an adapter mix it also
// refuses an adapter the engine does not list (CheckServedAdapters); an
// adapter of cfg.LoRA.Load not loaded yet (cfg.LoRA.Loaded nil) is not
// refused, since the run loads it first. To check the loaded adapters
// too, load them first with LoadAdapters and set cfg.LoRA.Loaded.
func PreflightRun(ctx context.Context, cfg RunConfig) (*openai.PreflightReport, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.LoRA.Mix != nil {
		// Refused before the probe is sent.
		rep, err := openai.CheckServedModel(ctx, cfg.Client)
		if err == nil {
			err = CheckServedAdapters(servedOrPending(rep.ServedModels, cfg), cfg.LoRA.Mix)
		}
		if err != nil {
			return rep, err
		}
	}
	return openai.Preflight(ctx, cfg.Client, cfg.Workload.Requests[0])
}

// servedOrPending is the engine's model list with the adapters the run
// will load before its load added; nil stays nil (no list to check).
func servedOrPending(served []string, cfg RunConfig) []string {
	if served == nil || cfg.LoRA.Loaded != nil {
		return served
	}
	out := append([]string(nil), served...)
	for _, a := range cfg.LoRA.Load {
		out = append(out, a.Name)
	}
	return out
}
