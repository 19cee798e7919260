package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/servebench/history"
)

func init() {
	register("history", "find where metrics shifted across releases (one run or comparison per release), and judge the newest", runHistory)
}

// historyUsage heads history's -h.
const historyUsage = `usage: servebench history [flags] DIR...

Each DIR is one release, oldest first: a run directory, a directory of round-K runs, an ab directory
(its compare.json: the candidate's figures), or a report.json or compare.json file.
--policy changepoint (the default) judges the newest release by the e-divisive analysis: a regression
when a change beyond its --tolerance starts there. --policy ratio is the PyTorch HUD's rule: a latency
above --ratio × the median of the --window releases before, or a throughput below (2 − ratio) × it,
violates, and the newest release is a regression when it and the one before both violate.
Exit codes: 0 the newest release is no regression (or the history is too short to judge it);
5 it is a regression under the policy; 1 bad input.`

// runHistory is the history command.
func runHistory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, historyUsage)
		fs.PrintDefaults()
	}
	order := fs.String("order", "args", "release order: args (as given) or time (by the runs' UUIDv7 run IDs)")
	falseAlarm := fs.Float64("false-alarm", 0.05, "each split's permutation-test level: the chance of reporting a change in a series without one")
	confidence := fs.Float64("confidence", 0.95, "two-sided level of each change's interval")
	policy := fs.String("policy", string(history.PolicyChangepoint), "the rule that judges the newest release: changepoint or ratio")
	window := fs.Int("window", history.DefaultWindow, "ratio policy: how many releases before one make its baseline (their median); at least 1")
	ratio := fs.Float64("ratio", history.DefaultRatio, "ratio policy: a latency above RATIO × baseline, or a throughput below (2 − RATIO) × baseline, violates; in (1, 2)")
	var tolerances toleranceList
	fs.Var(&tolerances, "tolerance", "changepoint policy: NAME=VALUE, repeatable (e.g. ttft_p99=10%); naming any judges only the named ones (default those of compare)")
	format := fs.String("format", "text", "one of text, json, html")
	output := fs.String("output", "", "write to this file instead of stdout")
	summary := fs.String("step-summary", "", "append a markdown verdict to this file (also to $"+stepsummary.EnvVar+" when set)")
	if err := parseFlags(fs, args); err != nil {
		return parseFailureCode(err)
	}
	p, err := history.ParsePolicy(*policy)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "servebench history: --policy: %v\n", err)
		return 1
	case *window < 1:
		fmt.Fprintf(stderr, "servebench history: --window %d: want at least 1 release before the one judged\n", *window)
		return 1
	case !(*ratio > 1 && *ratio < 2):
		fmt.Fprintf(stderr, "servebench history: --ratio %g: want a number in (1, 2), such as 1.2\n", *ratio)
		return 1
	case fs.NArg() < 2:
		fmt.Fprintln(stderr, "servebench history: want two or more release directories, oldest first")
		return 1
	case *order != "args" && *order != "time":
		fmt.Fprintf(stderr, "servebench history: --order: want args or time, got %q\n", *order)
		return 1
	case *format != "text" && *format != "json" && *format != "html":
		fmt.Fprintf(stderr, "servebench history: --format: want text, json or html, got %q\n", *format)
		return 1
	}
	releases, err := history.Load(fs.Args(), *order == "time")
	if err != nil {
		fmt.Fprintf(stderr, "servebench history: %v\n", err)
		return 1
	}
	h, err := history.Analyze(releases, history.Options{FalseAlarm: *falseAlarm, Confidence: *confidence,
		Policy: p, Window: *window, Ratio: *ratio, Tolerances: tolerances})
	if err != nil {
		fmt.Fprintf(stderr, "servebench history: %v\n", err)
		return 1
	}
	if err := writeHistory(h, *format, *output, stdout); err != nil {
		fmt.Fprintf(stderr, "servebench history: %v\n", err)
		return 1
	}
	code := 0
	if h.Verdict.Outcome == history.Regression {
		code = 5
	}
	if paths := stepsummary.Paths(*summary, os.Getenv); len(paths) > 0 {
		if err := stepsummary.Append(paths, historyStepSummary(h, code)); err != nil {
			fmt.Fprintf(stderr, "servebench history: %v\n", err)
			return 1
		}
	}
	return code
}

// writeHistory writes the history in format to output (stdout when "").
func writeHistory(h *history.History, format, output string, stdout io.Writer) error {
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		var b []byte
		if b, err = h.JSON(); err == nil {
			buf.Write(b)
		}
	case "html":
		err = h.WriteHTML(&buf)
	default:
		err = h.WriteText(&buf)
	}
	if err != nil {
		return err
	}
	return writeOutput(output, buf.Bytes(), stdout)
}
