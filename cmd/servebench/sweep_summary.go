package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/threshold"
	"github.com/servebench/servebench/sweepreport"
)

// sweepTextFile is the sweep's full text, the one sweep prints with
// --report full, in the sweep's directory.
const sweepTextFile = "sweep.txt"

// summaryWidth is the width a summary's wrapped lines keep within.
const summaryWidth = 100

// printSweepSummary writes the sweep on one screen: what was swept and by
// which rule, every tested point's verdict, then the summary of the
// selected point's run (the knee, or the lowest point when none passed)
// with the knee, the answer and the thresholds judged there as its
// verdict, and where the full text, the sweep's files and the point's own
// report are.
func printSweepSummary(w io.Writer, sw *capacity.Sweep, dir string, thresholds []threshold.Threshold) error {
	points, verdicts, verdict := sweepSelection(sw)
	fmt.Fprintf(w, "%-12s %s; a point passes at %s\n", "sweep:", numfmt.Count(len(points), "tested point", "tested points"), ruleText(sw.Rule))
	for i, l := range wrapList(pointVerdicts(points, verdicts), summaryWidth-13) {
		label := ""
		if i == 0 {
			label = "points:"
		}
		fmt.Fprintf(w, "%-12s %s\n", label, l)
	}
	full := []string{fmt.Sprintf("%s (also %s, %s)", filepath.Join(dir, sweepTextFile), sweepreport.JSONFile, sweepreport.HTMLFile)}
	p, heading, selected := summaryPoint(sw, points)
	switch {
	case len(thresholds) > 0 && selected:
		verdict = append(verdict, thresholdLines(threshold.JudgeAll(thresholds, p.Report))...)
	case len(thresholds) > 0:
		verdict = append(verdict, "thresholds not judged: no point was selected")
	}
	if p == nil {
		return render.Summary(w, nil, render.SummaryNotes{Verdict: verdict, Full: full})
	}
	if p.RunDir != "" {
		full = append(full, filepath.Join(p.RunDir, record.ReportTextFile)+" (this point's run)")
	}
	fmt.Fprintf(w, "%s:\n", heading)
	return render.Summary(w, p.Report, render.SummaryNotes{Verdict: verdict, Full: full})
}

// sweepSelection is the sweep's tested points, their verdicts in the same
// order, and the lines that say what was selected: the knee and the
// answer, or a user search's SLO concurrency.
func sweepSelection(sw *capacity.Sweep) ([]capacity.Point, []capacity.PointVerdict, []string) {
	if sw.Concurrency != nil {
		return sw.Points, sw.Concurrency.Verdicts, concurrencyLines(sw)
	}
	lines := kneeLines(sw.Selection)
	if sw.Capacity != nil {
		lines = append(lines, answerLine(sw))
	}
	return sw.Points, sw.Selection.Verdicts, lines
}

// answerLine is the sweep's answer: the bracket the capacity lies in, with
// its confidence, as the full text and the summary both print it.
func answerLine(sw *capacity.Sweep) string {
	return fmt.Sprintf("answer: %s", sw.Capacity)
}

// ruleText is the capacity rule in a few words.
func ruleText(r capacity.Rule) string {
	s := "attainment >= " + numfmt.Shortest(r.MinAttainment)
	if r.UseWilsonLower {
		s = fmt.Sprintf("Wilson lower bound (%s) >= %s", numfmt.Level(r.Confidence), numfmt.Shortest(r.MinAttainment))
	}
	s += ", its load delivered"
	if r.RequireNoBacklogGrowth {
		s += ", no backlog growth"
	}
	return s
}

// pointVerdicts names each tested point (its rate, number of users or
// batch size) with its verdict, in capitals where it did not pass.
func pointVerdicts(points []capacity.Point, verdicts []capacity.PointVerdict) []string {
	out := make([]string, 0, len(verdicts))
	for i, v := range verdicts {
		verdict := "pass"
		if !v.Pass {
			verdict = strings.ToUpper(v.Verdict)
		}
		out = append(out, pointName(points, i, v)+" "+verdict)
	}
	return out
}

// pointName is how a summary names the i-th tested point.
func pointName(points []capacity.Point, i int, v capacity.PointVerdict) string {
	switch {
	case v.Users > 0:
		return numfmt.Count(v.Users, "user", "users")
	case i < len(points) && points[i].BatchSize > 0:
		return fmt.Sprintf("batch %d", points[i].BatchSize)
	}
	return numfmt.Shortest(v.OfferedRPS) + " req/s"
}

// summaryPoint is the point whose run the sweep summary shows, with a
// heading that says which it is and whether it is the selected point: the
// knee (or SLO concurrency), else the lowest tested point. Nil when no
// point has a report.
func summaryPoint(sw *capacity.Sweep, points []capacity.Point) (*capacity.Point, string, bool) {
	var lowest *capacity.Point
	for i := range points {
		p := &points[i]
		if p.Report == nil {
			continue
		}
		if sw.Concurrency != nil && sw.Concurrency.Users != nil && p.Users == *sw.Concurrency.Users {
			if sw.Capacity != nil && sw.Capacity.Unit == capacity.UnitAgents {
				return p, "at the agent capacity, " + numfmt.Count(p.Users, "agent", "agents"), true
			}
			return p, "at the SLO concurrency, " + numfmt.Count(p.Users, "user", "users"), true
		}
		if sw.Concurrency == nil && sw.Selection.RPS != nil && p.OfferedRPS == *sw.Selection.RPS {
			return p, fmt.Sprintf("at the knee, %g req/s", p.OfferedRPS), true
		}
		if lowest == nil || lowerPoint(p, lowest) {
			lowest = p
		}
	}
	if lowest == nil {
		return nil, "", false
	}
	if sw.Concurrency != nil {
		return lowest, "at the fewest users tested, " + numfmt.Count(lowest.Users, "user", "users"), false
	}
	return lowest, fmt.Sprintf("at the lowest tested rate, %g req/s", lowest.OfferedRPS), false
}

// lowerPoint reports whether p is a lower point than q: fewer users in a
// user search, else a lower offered rate.
func lowerPoint(p, q *capacity.Point) bool {
	if p.Users != q.Users {
		return p.Users < q.Users
	}
	return p.OfferedRPS < q.OfferedRPS
}

// wrapList joins items with ", " into lines of at most width columns (an
// item longer than width gets a line of its own).
func wrapList(items []string, width int) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case len(cur)+2+len(it) > width:
			lines = append(lines, cur+",")
			cur = it
		default:
			cur += ", " + it
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
