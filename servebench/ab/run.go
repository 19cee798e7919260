package ab

import (
	"context"
	"errors"
	"fmt"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
)

// ErrInterrupted is wrapped by Run's error when its context ended
// before the last run finished: every finished run stays on disk and no
// comparison is made or written.
var ErrInterrupted = errors.New("interrupted")

// Result is what an A/B qualification leaves.
type Result struct {
	// Baseline and Candidate hold every finished run's report, in round
	// order.
	Baseline, Candidate []*report.Report
	// Comparison is the verdict; nil when the qualification did not
	// finish.
	Comparison *compare.Comparison
	// Order lists the finished runs in the order they ran, as
	// "baseline/round-1".
	Order []string
}

// Run runs the rounds in the balanced ABBA order (see compare.ABBAOrder)
// so that drift and warm-up hit both sides alike, keeps every run, compares
// them and writes compare.json, compare.txt and compare.html into the output directory.
// A run that ends in error, or an interruption (ctx ending: the error wraps
// ErrInterrupted), stops the qualification: the finished runs stay on disk
// and no comparison is made from the unbalanced set.
func Run(ctx context.Context, cfg Config) (result *Result, err error) {
	if cfg.Rounds == 0 {
		cfg.Rounds = DefaultRounds
	}
	if cfg.Rounds < 1 {
		return nil, fmt.Errorf("ab: rounds must be at least 1, got %d", cfg.Rounds)
	}
	if cfg.OutputDir == "" {
		return nil, errors.New("ab: an output directory is required")
	}
	res := &Result{}
	eng := &engines{cfg: &cfg}
	defer eng.stopAll()
	defer func() { err = errors.Join(err, eng.unloadAll(ctx)) }()
	order := compare.ABBAOrder(cfg.Rounds)
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
		if pos.Side == compare.Baseline {
			res.Baseline = append(res.Baseline, rep)
		} else {
			res.Candidate = append(res.Candidate, rep)
		}
	}
	c, err := compare.Reports(res.Baseline, res.Candidate, cfg.Options)
	if err != nil {
		return res, err
	}
	c.RunOrder, c.Engines = &order, cfg.engineUse()
	res.Comparison = c
	return res, c.WriteFiles(cfg.OutputDir)
}
