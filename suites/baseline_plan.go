package suites

import (
	"math"

	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
)

// planCheck checks load point p's A/B plan against the baseline's
// tolerances before any load, as servebench ab does: whether each
// deciding statistic can be decided within the rounds at this run size,
// and the requests a round that can. It returns the check's text, or ""
// when the run size is not known before the run (a replay, a closed loop
// bounded by time) or the options are refused (the comparison reports
// that itself).
func (c *Contract) planCheck(p LoadPoint) string {
	requests := c.Count
	if requests == 0 && p.RateRPS > 0 && c.Duration > 0 {
		requests = int(math.Floor(p.RateRPS * c.Duration.Seconds()))
	}
	b := c.Baseline
	rounds, fixed := b.maxRounds(), b.Rounds != ab.RoundsAuto
	if requests == 0 || rounds < 2 {
		return ""
	}
	opts := compare.Options{Confidence: b.Confidence, Tolerances: b.baselineTolerances(), Decide: b.Decide}
	plan, err := compare.CheckPlan(opts, c.Endpoint, requests, rounds, fixed, nil)
	if err != nil {
		return ""
	}
	return plan.Describe()
}
