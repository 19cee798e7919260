package suites

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// judgedObjective is one objective with its verdict at a load point.
type judgedObjective struct {
	o Objective
	v Verdict
}

// reportObjective is the verdict as report.json's objectives list holds
// it; ok is false for a spec that was skipped, not judged.
func (j judgedObjective) reportObjective() (report.ObjectiveVerdict, bool) {
	v := j.v
	rv := report.ObjectiveVerdict{Name: v.Name, Source: j.o.Field, Tier: v.Tier, Measured: v.Value, Bound: v.Bound, Unit: v.Unit}
	if rv.Source == "" {
		rv.Source = "contract"
	}
	switch v.Outcome {
	case Passed:
		rv.Verdict = report.ObjectivePass
		if v.Measured != "" {
			rv.Reason = "measured " + v.Measured
		}
	case Failed:
		rv.Verdict, rv.Reason = report.ObjectiveFail, withoutHeading(v.Message)
	case Informational:
		rv.Verdict, rv.Reason = report.ObjectiveInformational, withoutHeading(v.Message)
	case Unjudged:
		rv.Verdict, rv.Reason = report.ObjectiveUnjudged, v.Message
	default:
		return rv, false
	}
	return rv, true
}

// withoutHeading is a failure message without its first line, the
// "file:line: name" heading, which report.json's name and source say.
func withoutHeading(msg string) string {
	if _, rest, found := strings.Cut(msg, "\n"); found {
		return rest
	}
	return msg
}

// writeObjectives adds the verdicts judged at a load point to the
// report.json in its run directory dir, in the order of the specs;
// nothing when dir is empty or no objective was judged.
func writeObjectives(dir string, judged []judgedObjective) error {
	var vs []report.ObjectiveVerdict
	for _, j := range judged {
		if rv, ok := j.reportObjective(); ok {
			vs = append(vs, rv)
		}
	}
	if dir == "" || len(vs) == 0 {
		return nil
	}
	return report.WriteObjectives(filepath.Join(dir, record.ReportFile), vs)
}

// writePointObjectives judges load point p's objectives on its run, as
// its specs do, and adds the verdicts to the run's report.json.
func (c *Contract) writePointObjectives(p LoadPoint, res *servebench.RunResult) error {
	var judged []judgedObjective
	for _, o := range c.PointObjectives(p) {
		judged = append(judged, judgedObjective{o, c.judgeObjective(p, o, res, "")})
	}
	return writeObjectives(res.Dir, judged)
}

// writeCandidateObjectives judges load point p's objectives on each
// candidate round of res, as judgeCandidate does, and adds each round's
// verdicts to its own report.json under dir, the load point's A/B
// directory.
func (c *Contract) writeCandidateObjectives(p LoadPoint, res *ab.Result, dir string) error {
	for k, rep := range res.Candidate {
		var judged []judgedObjective
		for _, o := range c.PointObjectives(p) {
			judged = append(judged, judgedObjective{o, c.judgeObjective(p, o, rep, fmt.Sprintf("candidate round %d", k+1))})
		}
		if err := writeObjectives(filepath.Join(dir, string(compare.Candidate), "round-"+strconv.Itoa(k+1)), judged); err != nil {
			return err
		}
	}
	return nil
}
