package suites

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/servebench/servebench/servebench/ab"
)

// Check runs contract c without Ginkgo, as Register's specs would: it
// starts the engine (or names the base URL), runs every load point in
// order (or the user search, or the A/B rounds against the baseline),
// keeps every run directory and sweep under the contract's artifacts, and
// returns one Verdict per spec, in the order of the specs. Progress lines
// go to log. As in the suite, a load point that does not complete fails
// its first spec and skips every later one, and an engine that cannot run
// here skips every spec (or fails the first, where the environment
// requires the engine).
func Check(ctx context.Context, c *Contract, log io.Writer) []Verdict {
	if c.Baseline != nil {
		return checkBaseline(ctx, c, log)
	}
	run := &contractRun{c: c, log: log}
	target, stop, err := c.startTarget(ctx, log)
	if err != nil {
		return c.notStarted(err)
	}
	if stop != nil {
		defer stopEngine(ctx, log, c.Name, stop)
	}
	run.target = target
	if c.UserSearch != nil {
		return run.checkSearch(ctx)
	}
	out, complete := run.checkPoints(ctx)
	if c.Arrival.Sweep() {
		if entry, err := run.writeSweep(); err != nil {
			fmt.Fprintf(log, "servebench: keeping sweep.json and sweep.html: %v\n", err)
		} else if entry != nil {
			fmt.Fprintf(log, "servebench: %s\n", entry.ColorableString())
		}
	}
	if o, rule, ok := c.CapacityObjective(); ok && complete {
		out = append(out, run.judgeCapacity(o, rule))
	}
	return out
}

// checkPoints runs each load point and judges its objectives; a point
// that does not complete ends the contract's verdicts (see notRun), and
// complete is false.
func (r *contractRun) checkPoints(ctx context.Context) (out []Verdict, complete bool) {
	c := r.c
	for _, p := range c.Points() {
		res, err := r.runPoint(ctx, p)
		if err != nil {
			return c.notRun(out, p.Name, c.pointFailureHeading(p), err), false
		}
		for _, o := range c.PointObjectives(p) {
			out = append(out, c.judgeObjective(p, o, res, ""))
		}
	}
	return out, true
}

// checkSearch runs a user search and judges its concurrency objective.
func (r *contractRun) checkSearch(ctx context.Context) []Verdict {
	c := r.c
	sw, entry, err := r.runSearch(ctx)
	if entry != nil {
		fmt.Fprintf(r.log, "servebench: %s\n", entry.ColorableString())
	}
	o, ok := c.ConcurrencyObjective()
	if !ok {
		if err != nil {
			return []Verdict{failed(Verdict{Contract: c.Name, LoadPoint: userSearchPoint.Name, Name: userSearchPoint.Name, At: c.searchLocation()},
				1, c.searchFailureHeading(), err.Error())}
		}
		return nil
	}
	if err != nil {
		return c.notRun(nil, userSearchPoint.Name, c.searchFailureHeading(), err)
	}
	return []Verdict{c.judgeConcurrency(o, sw)}
}

// checkBaseline runs a contract with a baseline: per load point, the
// rounds, then each objective on every candidate round and each
// comparison; then the capacities.
func checkBaseline(ctx context.Context, c *Contract, log io.Writer) []Verdict {
	run := &abRun{c: c, log: log}
	if run.fresh = c.freshEngines(); !run.fresh {
		target, stop, err := c.startTarget(ctx, log)
		if err != nil {
			return c.notStarted(err)
		}
		if stop != nil {
			defer stopEngine(ctx, log, c.Name, stop)
		}
		baseline, stopBaseline, err := c.baselineContract().startTarget(ctx, log)
		if err != nil {
			return c.notStarted(err)
		}
		if stopBaseline != nil {
			defer stopEngine(ctx, log, c.Name+" baseline", stopBaseline)
		}
		run.target, run.baseline = target, baseline
	}
	var out []Verdict
	for _, p := range c.Points() {
		res, dir, err := run.runPoint(ctx, p)
		if errors.Is(err, ErrEngineUnavailable) {
			return c.notStarted(err)
		}
		if err != nil {
			return c.notRun(out, p.Name+" against baseline", c.abFailureHeading(p, dir), err)
		}
		out = append(out, c.judgeAB(p, res)...)
	}
	if o, rule, ok := c.CapacityObjective(); ok {
		out = append(out, run.judgeCapacity(o, rule), run.judgeCapacityAgainstBaseline(rule))
	}
	return out
}

// judgeAB judges load point p's objectives on every candidate round, then
// each comparison.
func (c *Contract) judgeAB(p LoadPoint, res *ab.Result) []Verdict {
	var out []Verdict
	for _, o := range c.PointObjectives(p) {
		out = append(out, c.judgeCandidate(p, o, res))
	}
	for _, t := range c.Baseline.baselineTolerances() {
		out = append(out, c.judgeComparison(p, t, res))
	}
	return out
}

// abObjectives lists load point p's specs in a contract with a baseline:
// its objectives, then one per comparison, named and located as
// registerABPoint's.
func (c *Contract) abObjectives(p LoadPoint) []Objective {
	out := c.PointObjectives(p)
	for _, t := range c.Baseline.baselineTolerances() {
		out = append(out, Objective{Name: ComparisonName(t), Field: "baseline.tolerances." + t.Name})
	}
	return out
}

// notRun ends the verdicts done of a contract whose load (what) did not
// complete, as Ginkgo ends an ordered container whose BeforeAll failed:
// the next spec fails with heading and err, and every later spec of the
// contract is skipped.
func (c *Contract) notRun(done []Verdict, what, heading string, err error) []Verdict {
	specs := c.specs()
	out := append(done, failed(specs[len(done)], 1, heading, err.Error()))
	for _, v := range specs[len(out):] {
		out = append(out, skipped(v, "skipped because "+what+" did not complete"))
	}
	return out
}

// notStarted is the verdicts of a contract whose engine did not start:
// every spec skipped when the engine cannot run here, else (or where the
// environment requires the engine) the first failed and the others
// skipped.
func (c *Contract) notStarted(err error) []Verdict {
	msg, fail := err.Error(), true
	if errors.Is(err, ErrEngineUnavailable) {
		msg, fail = c.unavailable(err.Error())
	}
	var out []Verdict
	for _, v := range c.specs() {
		if fail && len(out) == 0 {
			out = append(out, failed(v, 1, msg, ""))
			continue
		}
		out = append(out, skipped(v, msg))
	}
	return out
}

// specs lists the contract's specs, unjudged, in the order Check returns
// their verdicts.
func (c *Contract) specs() []Verdict {
	var out []Verdict
	add := func(p string, o Objective) {
		out = append(out, Verdict{Contract: c.Name, LoadPoint: p, Name: o.Name, At: c.specLocation(o)})
	}
	if c.UserSearch != nil {
		if o, ok := c.ConcurrencyObjective(); ok {
			add(userSearchPoint.Name, o)
		}
		return out
	}
	for _, p := range c.Points() {
		objectives := c.PointObjectives(p)
		if c.Baseline != nil {
			objectives = c.abObjectives(p)
		}
		for _, o := range objectives {
			add(p.Name, o)
		}
	}
	if o, _, ok := c.CapacityObjective(); ok {
		add("", o)
		if c.Baseline != nil {
			add("", Objective{Name: capacityAgainstBaselineName, Field: "objectives.capacity"})
		}
	}
	return out
}

// specLocation is the line of the spec of o, as the suite locates it: a
// comparison at its tolerance, an objective at its field.
func (c *Contract) specLocation(o Objective) types.CodeLocation {
	if strings.HasPrefix(o.Field, "baseline.") {
		return c.Location(o.Field, "baseline.tolerances", "baseline")
	}
	return c.Location(o.Field, "objectives")
}

// stopEngine stops an engine Check started, within two minutes, even
// after ctx was cancelled.
func stopEngine(ctx context.Context, log io.Writer, name string, stop func(context.Context) error) {
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	if err := stop(stopCtx); err != nil {
		fmt.Fprintf(log, "servebench: stopping the engine of %s: %v\n", name, err)
	}
}
