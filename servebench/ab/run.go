package ab

import (
	"context"
	"errors"
	"fmt"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
)

// ErrInterrupted is wrapped by Run's error when its context ended
// before the last run finished: every finished run stays on disk, and no
// verdict is made from an unbalanced set of rounds.
var ErrInterrupted = errors.New("interrupted")

// Result is what an A/B qualification leaves.
type Result struct {
	// Baseline and Candidate hold every finished run's report, in round
	// order.
	Baseline, Candidate []*report.Report
	// Comparison is the verdict; nil when the qualification did not
	// finish its first look. After an interruption it is the last look's
	// comparison, from a balanced set of rounds, with its stopping reason
	// interrupted.
	Comparison *compare.Comparison
	// Order lists the finished runs in the order they ran, as
	// "baseline/round-1".
	Order []string
	// Stopping says how the qualification ended, also when it ended
	// before its first look.
	Stopping *compare.Stopping
}

// Run runs the rounds in the balanced ABBA order (see compare.ABBAOrder)
// so that drift and warm-up hit both sides alike, keeps every run, compares
// them and writes compare.json, compare.txt and compare.html into the
// output directory. With RoundsAuto it looks after the first
// FirstLookRounds rounds and after every BlockRounds more, and stops once
// every deciding statistic is decided (see compare.SequentialRule), or at
// MaxRounds or MaxDuration. A run that ends in error, or an interruption
// (ctx ending: the error wraps ErrInterrupted), stops the qualification:
// the finished runs stay on disk and no comparison is made from an
// unbalanced set (after an interruption the last look's comparison is
// written, with stopping reason interrupted).
func Run(ctx context.Context, cfg Config) (result *Result, err error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	res := &Result{}
	eng := &engines{cfg: &cfg}
	defer eng.stopAll()
	defer func() { err = errors.Join(err, eng.unloadAll(ctx)) }()
	if cfg.Rounds == RoundsAuto {
		return res, runSequential(ctx, cfg, eng, res)
	}
	order := compare.ABBAOrder(cfg.Rounds)
	if err := runRounds(ctx, cfg, eng, res, order, cfg.Rounds); err != nil {
		if errors.Is(err, ErrInterrupted) {
			res.Stopping = &compare.Stopping{Rule: "fixed", Rounds: roundsOf(res), MaxRounds: cfg.Rounds, Reason: compare.StopInterrupted}
		}
		return res, err
	}
	c, err := compare.Reports(res.Baseline, res.Candidate, cfg.Options)
	if err != nil {
		return res, err
	}
	reason := compare.StopDecided
	if c.Verdict == compare.Inconclusive {
		reason = compare.StopMaxRounds
	}
	c.Stopping = &compare.Stopping{Rule: "fixed", Looks: 1, Rounds: c.Rounds, MaxRounds: cfg.Rounds, Reason: reason}
	return res, finish(cfg, res, c, order)
}

// check fills the defaults in and refuses a configuration that cannot run.
func (cfg *Config) check() error {
	switch {
	case cfg.Rounds < 0:
		return fmt.Errorf("ab: rounds must be at least 1, or RoundsAuto (0), got %d", cfg.Rounds)
	case cfg.OutputDir == "":
		return errors.New("ab: an output directory is required")
	case cfg.Rounds != RoundsAuto:
		return nil
	case cfg.MaxRounds == 0:
		cfg.MaxRounds = DefaultMaxRounds
	}
	if cfg.MaxRounds < FirstLookRounds {
		return fmt.Errorf("ab: max rounds %d is below the %d rounds of the first look of rounds until decided", cfg.MaxRounds, FirstLookRounds)
	}
	if cfg.MaxDuration < 0 {
		return fmt.Errorf("ab: max duration %v is negative", cfg.MaxDuration)
	}
	return nil
}

// runRounds runs the runs of order whose round is above the rounds done
// and at most upTo.
func runRounds(ctx context.Context, cfg Config, eng *engines, res *Result, order compare.RunOrder, upTo int) error {
	done := len(res.Candidate)
	for _, pos := range order.Runs {
		if pos.Round <= done || pos.Round > upTo {
			continue
		}
		rep, err := eng.run(ctx, pos.Side, pos.Round)
		if ctx.Err() != nil {
			err = fmt.Errorf("ab: %s: %w before the run finished; its partial run and the %d finished runs are kept in %s, and no verdict is written from an unbalanced set of rounds",
				pos, ErrInterrupted, len(res.Order), cfg.OutputDir)
		}
		if err != nil {
			return err
		}
		res.Order = append(res.Order, pos.String())
		if pos.Side == compare.Baseline {
			res.Baseline = append(res.Baseline, rep)
		} else {
			res.Candidate = append(res.Candidate, rep)
		}
	}
	return nil
}

// finish records the order and engines on c and writes it.
func finish(cfg Config, res *Result, c *compare.Comparison, order compare.RunOrder) error {
	c.RunOrder, c.Engines = &order, cfg.engineUse()
	c.SameServer = cfg.sameServer()
	res.Comparison, res.Stopping = c, c.Stopping
	return c.WriteFiles(cfg.OutputDir)
}

// roundsOf counts the finished runs on each side.
func roundsOf(res *Result) compare.Rounds {
	return compare.Rounds{Baseline: len(res.Baseline), Candidate: len(res.Candidate)}
}

// sameServer says why both sides are one server: cfg.SameServer, or
// equal base URLs of engines that Run does not start.
func (cfg Config) sameServer() string {
	if cfg.SameServer != "" {
		return cfg.SameServer
	}
	b, c := cfg.Baseline.Client, cfg.Candidate.Client
	if cfg.StartEngine != nil || b == nil || c == nil || b.BaseURL != c.BaseURL {
		return ""
	}
	return "the baseline and the candidate are one server (" + b.BaseURL + "): an A/B of one server measures only its noise"
}
