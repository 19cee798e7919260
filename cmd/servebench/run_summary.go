package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/threshold"
)

// The values of --report: the one-screen summary (the default) or the
// full text report.
const (
	reportSummary = "summary"
	reportFull    = "full"
)

// checkReportForm refuses a --report value other than summary and full.
func checkReportForm(form string) error {
	if form != reportSummary && form != reportFull {
		return fmt.Errorf("--report: want %s or %s, got %q", reportSummary, reportFull, form)
	}
	return nil
}

// printRunReport prints a run's report on stdout: as JSON or a page, or
// as text, the full report or the summary with the run's verdict and
// where the full report is.
func (f *runFlags) printRunReport(w io.Writer, res *servebench.RunResult) error {
	if f.format != "text" || f.report == reportFull {
		return printReport(w, res.Report, f.format)
	}
	return render.Summary(w, res.Report, render.SummaryNotes{
		Verdict: runVerdict(res.Report, f.requireAttainment, threshold.JudgeAll(f.thresholds.parsed, res.Report), f.thresholds.unjudgedFail),
		Full:    []string{fullReportFiles(res.Dir)},
	})
}

// runVerdict is the summary's verdict on a run: the gate's outcome, with
// the exit code it leads to (verdictExitCode's), then one line per
// threshold (thresholds, judged on the run); an unjudged threshold fails
// the gate only when unjudgedFail.
func runVerdict(r *report.Report, requireAttainment float64, thresholds []threshold.Verdict, unjudgedFail bool) []string {
	if !r.Valid {
		return []string{"NOT EVIDENCE: the load was not delivered (exit 2)"}
	}
	short, missed := attainmentShortfall(r, requireAttainment)
	var head string
	switch {
	case missed:
		head = "FAIL: " + short + " (exit 3)"
	case !threshold.Passes(thresholds, unjudgedFail):
		head = "FAIL: a threshold did not pass (exit 3)"
	case requireAttainment >= 0:
		head = fmt.Sprintf("pass: attainment %.3f is at least the required %.3f", *r.Attainment, requireAttainment)
	case len(thresholds) > 0 && unjudgedCount(thresholds) > 0:
		head = fmt.Sprintf("pass: no threshold failed; %d unjudged, with no value (neither a pass nor a failure; --unjudged fail makes it one)", unjudgedCount(thresholds))
	case len(thresholds) > 0:
		head = "pass: every threshold holds"
	default:
		head = "pass: the load was delivered; no gate declared (--require-attainment, --threshold)"
	}
	return append([]string{head}, thresholdLines(thresholds)...)
}

// unjudgedCount is how many of vs are unjudged.
func unjudgedCount(vs []threshold.Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Outcome == threshold.Unjudged {
			n++
		}
	}
	return n
}

// thresholdLines are the thresholds' verdicts, one line each.
func thresholdLines(vs []threshold.Verdict) []string {
	lines := make([]string, 0, len(vs))
	for _, v := range vs {
		lines = append(lines, v.Line())
	}
	return lines
}

// fullReportFiles names a run directory's full report: its text form,
// then the JSON and the page beside it.
func fullReportFiles(dir string) string {
	return fmt.Sprintf("%s (also %s, %s)", filepath.Join(dir, record.ReportTextFile), record.ReportFile, record.ReportHTMLFile)
}
