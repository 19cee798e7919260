package ab

import (
	"context"
	"errors"
	"time"

	"github.com/servebench/servebench/servebench/compare"
)

// runSequential runs rounds until every deciding statistic is decided:
// FirstLookRounds rounds, a look, then BlockRounds more before each next
// look, until the look decides, the next block would pass MaxRounds, or
// would likely end after MaxDuration.
func runSequential(ctx context.Context, cfg Config, eng *engines, res *Result) error {
	order := compare.ABBAOrder(cfg.MaxRounds)
	look := &compare.Look{MaxRounds: cfg.MaxRounds}
	opts := cfg.Options
	opts.Look = look
	start := time.Now()
	var last *compare.Comparison
	for target := FirstLookRounds; ; target += BlockRounds {
		if err := runRounds(ctx, cfg, eng, res, order, target); err != nil {
			return interrupted(cfg, res, last, look.Number, err)
		}
		look.Number++
		c, err := compare.Reports(res.Baseline, res.Candidate, opts)
		if err != nil {
			return err
		}
		last = c
		undecided := c.Undecided()
		if cfg.AfterLook != nil {
			cfg.AfterLook(look.Number, c, undecided)
		}
		perRound := time.Since(start) / time.Duration(target)
		reason := ""
		switch {
		case len(undecided) == 0 || c.Verdict == compare.Regression || !c.Valid:
			reason = compare.StopDecided
		case target+BlockRounds > cfg.MaxRounds:
			reason = compare.StopMaxRounds
		case cfg.MaxDuration > 0 && time.Since(start)+BlockRounds*perRound > cfg.MaxDuration:
			reason = compare.StopMaxDuration
		}
		if reason != "" {
			c.Stopping = &compare.Stopping{Rule: compare.SequentialRule, Looks: look.Number, Rounds: c.Rounds, MaxRounds: cfg.MaxRounds, Reason: reason}
			return finish(cfg, res, c, compare.ABBAOrder(target))
		}
		look.PreviousRounds, look.Decided = target, c.Decided()
	}
}

// interrupted records an interruption: the last look's comparison, if
// any, is written with the stopping reason interrupted; err is returned.
func interrupted(cfg Config, res *Result, last *compare.Comparison, looks int, err error) error {
	if !errors.Is(err, ErrInterrupted) {
		return err
	}
	st := &compare.Stopping{Rule: compare.SequentialRule, Looks: looks, Rounds: roundsOf(res), MaxRounds: cfg.MaxRounds, Reason: compare.StopInterrupted}
	res.Stopping = st
	if last == nil {
		return err
	}
	last.Stopping = st
	if werr := finish(cfg, res, last, compare.ABBAOrder(last.Rounds.Baseline)); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}
