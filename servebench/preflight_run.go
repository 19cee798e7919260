package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/openai"
)

// PreflightRun validates cfg as Run would, then runs Preflight with its
// client and the workload's first row, so that a run that cannot succeed
// fails before anything is written or sent.
func PreflightRun(ctx context.Context, cfg RunConfig) (*openai.PreflightReport, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return openai.Preflight(ctx, cfg.Client, cfg.Workload.Requests[0])
}
