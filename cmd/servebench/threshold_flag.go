package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// thresholdFlag is --threshold, repeatable: the expressions as given and,
// once parse has run, the thresholds they declare.
type thresholdFlag struct {
	exprs  []string
	parsed []threshold.Threshold
	// unjudgedFail makes an unjudged threshold fail the gate (--unjudged
	// fail).
	unjudgedFail bool
	// judged holds the judgments write last wrote, for the step summary.
	judged []threshold.Judgment
}

// thresholdHelp is --threshold's help.
const thresholdHelp = "exit 3 unless the run's report meets EXPR, e.g. ttft_p99<=500ms, e2e_p90<2s, attainment>=0.95, error_rate<=0.01 (repeatable; sweep: judged at the selected point)"

// String lists the expressions given.
func (f *thresholdFlag) String() string { return strings.Join(f.exprs, ", ") }

// Set adds one expression; parse checks them all, so that the error names
// the flag and the expression.
func (f *thresholdFlag) Set(v string) error {
	f.exprs = append(f.exprs, v)
	return nil
}

// parse parses every expression; the error names the first malformed one
// and what is wrong with it.
func (f *thresholdFlag) parse() error {
	f.parsed = f.parsed[:0]
	for _, e := range f.exprs {
		t, err := threshold.Parse(e)
		if err != nil {
			return fmt.Errorf("--threshold %q: %w", e, err)
		}
		f.parsed = append(f.parsed, t)
	}
	return nil
}

// checkThresholds parses --threshold before anything is sent. A shard's
// report is one part of its run, so a sharded run takes no thresholds.
func (f *runFlags) checkThresholds() error {
	if err := f.thresholds.parse(); err != nil {
		return err
	}
	if f.thresholds.given() && f.sharding.shard != "" {
		return errors.New("--threshold with --shard: a shard's report is one part of the run, not the run; give the thresholds to a run without --shard")
	}
	return nil
}

// given reports whether any threshold was given.
func (f *thresholdFlag) given() bool { return len(f.exprs) > 0 }

// judgeRun judges the thresholds on a run's report, prints one line per
// threshold on stderr and writes thresholds.json in the run's directory.
// It reports whether every threshold passed. The run's report.json lists
// the verdicts as its objectives, after --require-attainment's when given
// (requireAttainment not below 0), which the exit code judges apart.
func (f *thresholdFlag) judgeRun(r *report.Report, dir string, requireAttainment float64, stderr io.Writer) bool {
	var objectives []report.ObjectiveVerdict
	if requireAttainment >= 0 {
		t := threshold.Threshold{Expr: fmt.Sprintf("attainment>=%g", requireAttainment), Statistic: "attainment", Op: threshold.AtLeast, Bound: requireAttainment}
		o := t.Judge(r).Objective(f.unjudgedFail)
		o.Source = "--require-attainment"
		objectives = append(objectives, o)
	}
	if !f.given() {
		writeObjectives(dir, objectives, stderr)
		return true
	}
	vs := threshold.JudgeAll(f.parsed, r)
	printVerdicts(stderr, "", vs)
	writeObjectives(dir, append(objectives, threshold.Objectives(vs, f.unjudgedFail)...), stderr)
	return f.write(dir, []threshold.Judgment{{Verdicts: vs}}, stderr)
}

// writeObjectives adds the verdicts to the report.json in the run
// directory dir as its objectives list; nothing when dir is empty or
// there are none.
func writeObjectives(dir string, objectives []report.ObjectiveVerdict, stderr io.Writer) {
	if dir == "" || len(objectives) == 0 {
		return
	}
	if err := report.WriteObjectives(filepath.Join(dir, record.ReportFile), objectives); err != nil {
		fmt.Fprintf(stderr, "servebench: adding the objectives' verdicts to the report: %v\n", err)
	}
}

// judgeSweep judges the thresholds on every run at the sweep's selected
// point (the capacity rate, or the SLO concurrency of a user search),
// prints their lines on stderr and writes thresholds.json in the sweep's
// directory. It reports whether every threshold passed on every such run;
// a sweep with no selected point is not judged here (it exits 4).
func (f *thresholdFlag) judgeSweep(sw *capacity.Sweep, dir string, stderr io.Writer) bool {
	if !f.given() {
		return true
	}
	var judged []threshold.Judgment
	for _, p := range selectedPoints(sw) {
		j := threshold.Judgment{Repeat: p.Repeat, Verdicts: threshold.JudgeAll(f.parsed, p.Report)}
		var where string
		if p.Users > 0 {
			j.Users = p.Users
			where = fmt.Sprintf("%d users", p.Users)
		} else {
			j.OfferedRPS = new(p.rps)
			where = fmt.Sprintf("%g req/s", p.rps)
		}
		if rel, err := filepath.Rel(dir, p.RunDir); err == nil && p.RunDir != "" {
			j.RunDir = filepath.ToSlash(rel)
			where += ", " + j.RunDir
		}
		fmt.Fprintf(stderr, "thresholds at the selected point (%s):\n", where)
		printVerdicts(stderr, "  ", j.Verdicts)
		writeObjectives(p.RunDir, threshold.Objectives(j.Verdicts, f.unjudgedFail), stderr)
		judged = append(judged, j)
	}
	return f.write(dir, judged, stderr)
}

// write writes thresholds.json and reports whether the gate passed.
func (f *thresholdFlag) write(dir string, judged []threshold.Judgment, stderr io.Writer) bool {
	f.judged = judged
	file := threshold.NewFile(judged, f.unjudgedFail)
	if dir != "" {
		if err := file.WriteFile(dir); err != nil {
			fmt.Fprintf(stderr, "servebench: %v\n", err)
		}
	}
	return file.Pass
}

// printVerdicts writes one line per verdict, each after indent.
func printVerdicts(w io.Writer, indent string, vs []threshold.Verdict) {
	for _, v := range vs {
		fmt.Fprintf(w, "%s%s\n", indent, v.Line())
	}
}

// selectedPoint is a run at a sweep's selected point with its offered
// rate as the rule judged it (the report's realized rate when the point
// declared none).
type selectedPoint struct {
	capacity.Point
	rps float64
}

// selectedPoints are the runs at the sweep's selected point: every run at
// the capacity rate, or at the SLO concurrency of a user search.
func selectedPoints(sw *capacity.Sweep) []selectedPoint {
	var out []selectedPoint
	if sw.Concurrency != nil {
		if u := sw.Concurrency.Users; u != nil {
			for i, v := range sw.Concurrency.Verdicts {
				if v.Users == *u && i < len(sw.Points) {
					out = append(out, selectedPoint{sw.Points[i], v.OfferedRPS})
				}
			}
		}
		return out
	}
	if rps := sw.Selection.RPS; rps != nil {
		for i, v := range sw.Selection.Verdicts {
			if v.OfferedRPS == *rps && i < len(sw.Points) {
				out = append(out, selectedPoint{sw.Points[i], v.OfferedRPS})
			}
		}
	}
	return out
}
