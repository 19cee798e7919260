package suites

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
)

// contractRun is one run of a contract: its target, the points its load
// points produced, and the steps and judgments that Register's specs and
// Check both take, so that the suite and `servebench check` judge a
// contract in one way.
type contractRun struct {
	c *Contract
	// log receives progress lines: GinkgoWriter in a suite.
	log    io.Writer
	target Target

	mu    sync.Mutex
	sweep []capacity.Point
}

// pointLocation is where a contract declares its load points.
func (c *Contract) pointLocation() types.CodeLocation {
	return c.Location("arrival.rates", "arrival.rate", "arrival")
}

// runPoint runs load point p and keeps it for the sweep. A point cut short
// (interrupted, or past its budget) is marked so that no capacity or knee
// comes from it.
func (r *contractRun) runPoint(ctx context.Context, p LoadPoint) (*servebench.RunResult, error) {
	fmt.Fprintf(r.log, "servebench: running %s, %s against %s\n", r.c.Name, p.Name, r.target.BaseURL)
	res, err := r.c.RunPoint(ctx, p, r.target, nil)
	if res != nil && res.Dir != "" {
		fmt.Fprintf(r.log, "servebench: %s, %s: run directory %s\n", r.c.Name, p.Name, res.Dir)
	}
	if res != nil && res.Report != nil {
		r.mu.Lock()
		r.sweep = append(r.sweep, capacity.Point{OfferedRPS: p.RateRPS, RunDir: res.Dir, Report: res.Report,
			Interrupted: err != nil && ctx.Err() != nil})
		r.mu.Unlock()
	}
	return res, err
}

// points returns a copy of the points run so far.
func (r *contractRun) points() []capacity.Point {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]capacity.Point(nil), r.sweep...)
}

// pointFailureHeading heads the failure of a load point that did not
// complete.
func (c *Contract) pointFailureHeading(p LoadPoint) string {
	return failureHeading(c.pointLocation(), p.Name+": the load point did not complete")
}

// writeSweep keeps sweep.json and sweep.html of the points run, whatever
// their objectives said; nil when no point produced a report.
func (r *contractRun) writeSweep() (*SweepEntry, error) {
	points := r.points()
	if len(points) == 0 {
		return nil, nil
	}
	return r.c.writeSweep(points, time.Now())
}

// judgeObjective judges objective o at load point p on actual (a
// *servebench.RunResult, or a candidate round's *report.Report), with the
// failure heading named by the objective's line and, when given, what
// which adds (a candidate round).
func (c *Contract) judgeObjective(p LoadPoint, o Objective, actual any, which string) Verdict {
	at := c.Location(o.Field, "objectives")
	v := Verdict{Contract: c.Name, LoadPoint: p.Name, Name: o.Name, At: at}
	heading := o.Name
	if which != "" {
		heading += " (" + which + ")"
	}
	v = judge(v, o.Matcher, actual, failureHeading(at, heading))
	if v.Outcome == Failed && !delivered(actual) {
		v.ExitCode = 2
	}
	return c.tiered(o, v, failureHeading(at, heading))
}

// tiered applies the tiers and the unjudged rule to v, the verdict of o:
// an informational objective's failure is Informational and fails
// nothing; an enforced objective without its data fails (exit 3) when the
// contract says unjudged: fail.
func (c *Contract) tiered(o Objective, v Verdict, heading string) Verdict {
	v.Tier = o.Tier
	switch {
	case o.Informational && v.Outcome == Failed:
		v.Outcome, v.ExitCode = Informational, 0
	case !o.Informational && v.Outcome == Unjudged && c.UnjudgedFail:
		v = failed(v, 3, heading, "unjudged: "+v.Message+" (unjudged: fail makes an objective without its data a failure)")
	}
	return v
}

// delivered reports whether the judged run's load was delivered; a failure
// on undelivered load is not evidence (exit 2), not an objective failed.
func delivered(actual any) bool {
	var rep *report.Report
	switch a := actual.(type) {
	case *servebench.RunResult:
		if a != nil {
			rep = a.Report
		}
	case *report.Report:
		rep = a
	}
	return rep == nil || rep.Valid
}

// judgeCapacity judges a sweep's capacity objective over every point run.
func (r *contractRun) judgeCapacity(o Objective, rule capacity.Rule) Verdict {
	c := r.c
	at := c.Location(o.Field)
	v := Verdict{Contract: c.Name, Name: o.Name, At: at}
	points := r.points()
	if len(points) != len(c.Points()) {
		return failed(v, 1, failureHeading(at, fmt.Sprintf("only %d of the %d load points produced a report", len(points), len(c.Points()))), "")
	}
	return judge(v, o.Matcher, capacity.NewSweep(points, rule), failureHeading(at, o.Name))
}
