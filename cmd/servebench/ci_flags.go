package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/pytorchrecords"
	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
	"github.com/servebench/servebench/suites"
)

// ciFlags put a command's verdict where CI shows it and say what an
// objective without its data is: --step-summary, --unjudged and, for the
// commands that measure, --pytorch-records.
type ciFlags struct {
	stepSummary, unjudged, pytorchRecords string
}

// register adds --step-summary and --unjudged to fs, and --pytorch-records
// when records is true.
func (f *ciFlags) register(fs *flag.FlagSet, records bool) {
	fs.StringVar(&f.stepSummary, "step-summary", "", "append a markdown verdict to this file (also to $"+stepsummary.EnvVar+" when set)")
	fs.StringVar(&f.unjudged, "unjudged", suites.UnjudgedSkip, "skip or fail: what a threshold or statistic without its data is (skip: neither a pass nor a failure; fail: a failure)")
	if records {
		fs.StringVar(&f.pytorchRecords, "pytorch-records", "", "write the results to this file in the PyTorch OSS benchmark record format (one record per metric), for the PyTorch HUD")
	}
}

// check refuses, before any load, an --unjudged that is neither skip nor
// fail and a --pytorch-records file whose directory does not exist.
func (f *ciFlags) check() error {
	if _, ok := suites.ParseUnjudged(f.unjudged); !ok {
		return fmt.Errorf("--unjudged: want skip or fail, got %q", f.unjudged)
	}
	if f.pytorchRecords != "" {
		if st, err := os.Stat(filepath.Dir(f.pytorchRecords)); err != nil || !st.IsDir() {
			return fmt.Errorf("--pytorch-records %s: its directory %s does not exist", f.pytorchRecords, filepath.Dir(f.pytorchRecords))
		}
	}
	return nil
}

// unjudgedFails reports whether --unjudged fail was given.
func (f *ciFlags) unjudgedFails() bool {
	fail, _ := suites.ParseUnjudged(f.unjudged)
	return fail
}

// appendSummary appends markdown to --step-summary and to
// $GITHUB_STEP_SUMMARY, when either is set.
func (f *ciFlags) appendSummary(markdown string) error {
	paths := stepsummary.Paths(f.stepSummary, os.Getenv)
	if len(paths) == 0 {
		return nil
	}
	return stepsummary.Append(paths, markdown)
}

// finishRun writes a run's PyTorch records and appends its step summary,
// then returns code; 1 when either cannot be written.
func (f *runFlags) finishRun(r *report.Report, code int, stderr io.Writer) int {
	var errs []error
	if f.ci.pytorchRecords != "" {
		errs = append(errs, pytorchrecords.Write(f.ci.pytorchRecords, pytorchrecords.FromRun(r, pytorchrecords.Targets(f.thresholds.parsed))))
	}
	errs = append(errs, f.ci.appendSummary(runStepSummary(r, f.requireAttainment, threshold.JudgeAll(f.thresholds.parsed, r), code)))
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintf(stderr, "servebench run: %v\n", err)
		return 1
	}
	return code
}

// finishComparison is the exit code of an A/B comparison (command ab or
// compare), after --unjudged fail: a comparison that would exit 0 with a
// statistic of insufficient_data exits 6. It writes the PyTorch records
// (the candidate's figures; candidate names the model and the load) and
// appends the step summary; 1 when either cannot be written.
func (f *ciFlags) finishComparison(command string, c *compare.Comparison, candidate *report.Report, stderr io.Writer) int {
	code := c.ExitCode()
	if code == 0 && f.unjudgedFails() {
		for _, m := range c.Comparisons {
			if m.Verdict == compare.InsufficientData {
				fmt.Fprintf(stderr, "servebench %s: %s is %s, and --unjudged fail makes a statistic without its data a failure (exit 6)\n", command, m.Name, m.Verdict)
				code = 6
			}
		}
	}
	if c.Verdict == compare.Inconclusive && !c.AllowInconclusive && c.Valid {
		fmt.Fprintf(stderr, "servebench %s: inconclusive (exit 6): a deciding statistic is undecided after the rounds run; each one's line says what would decide it, and --allow-inconclusive lets an inconclusive verdict exit 0\n", command)
	}
	var errs []error
	if f.pytorchRecords != "" {
		errs = append(errs, pytorchrecords.Write(f.pytorchRecords, pytorchrecords.FromComparison(command, c, candidate)))
	}
	errs = append(errs, f.appendSummary(comparisonStepSummary(command, c, code)))
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintf(stderr, "servebench %s: %v\n", command, err)
		return 1
	}
	return code
}

// firstReport is the first of reports; nil when there is none.
func firstReport(reports []*report.Report) *report.Report {
	if len(reports) == 0 {
		return nil
	}
	return reports[0]
}
