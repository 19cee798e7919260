package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/suites"
)

func init() {
	register("check", "run YAML SLO contracts and judge their objectives and baselines, as the Ginkgo suite does", runCheck)
}

// checkUsage heads check's -h.
const checkUsage = `usage: servebench check [flags] CONTRACT.yaml|DIR...

Runs each contract as the Ginkgo suite does (package suites): starts its engine, runs its load points
(or its A/B rounds against the baseline) and judges every objective and comparison, each line naming
the contract line that declared it. A DIR stands for its *.yaml and *.yml files. Every contract is
read before any load: a malformed one is exit 1, naming its file, line and field.
An objective without its data is unjudged (neither a pass nor a failure), unless --unjudged fail or the
contract's unjudged: fail; an objective of a tier above the contract's enforce: is informational.
Exit codes: 0 every objective holds; 1 bad input, or a load that did not run; 2 a load not delivered;
3 an objective failed on delivered load; 5 a regression against the baseline; 6 an inconclusive or
advisory comparison. Over several contracts the code is the first that applies of 1, 2, 5, 3 and 6.
130 and 143 interrupted by SIGINT or SIGTERM.`

// checkFlags are check's flags.
type checkFlags struct {
	junit, stepSummary, labelFilter, unjudged string
}

// register adds the flags to fs.
func (f *checkFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML report to this file: one testcase per objective, failures and skips with their message")
	fs.StringVar(&f.stepSummary, "step-summary", "", "append a markdown verdict table to this file (also to $"+stepsummary.EnvVar+" when set)")
	fs.StringVar(&f.unjudged, "unjudged", "", "skip or fail: what an objective without its data (a percentile with too few observations beyond it, an engine metric not exposed) is; fail overrides each contract's unjudged: (default: the contract's, else skip)")
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only the contracts whose labels match this Ginkgo label filter, e.g. 'smoke && !gpu'")
}

// runCheck is the check command.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, checkUsage)
		fs.PrintDefaults()
	}
	var f checkFlags
	f.register(fs)
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return parseFailureCode(err)
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "servebench check: give one or more contract files or directories")
		return 1
	}
	filter, err := types.ParseLabelFilter(f.labelFilter)
	if err != nil {
		fmt.Fprintf(stderr, "servebench check: --label-filter %q: %s\n", f.labelFilter, plainGinkgoError(err))
		return 1
	}
	unjudgedFail, ok := suites.ParseUnjudged(f.unjudged)
	if !ok && f.unjudged != "" {
		fmt.Fprintf(stderr, "servebench check: --unjudged: want skip or fail, got %q\n", f.unjudged)
		return 1
	}
	contracts, err := loadContracts(paths)
	if err != nil {
		fmt.Fprintf(stderr, "servebench check: %v\n", err)
		return 1
	}
	for _, c := range contracts {
		if f.unjudged != "" {
			c.UnjudgedFail = unjudgedFail
		}
	}
	var selected []*suites.Contract
	for _, c := range contracts {
		if filter(c.AllLabels()) {
			selected = append(selected, c)
		}
	}
	if len(selected) == 0 {
		fmt.Fprintf(stdout, "no contract matches --label-filter %q (labels: %s)\n", f.labelFilter, labelList(contracts))
		return 0
	}
	return withInterrupts("servebench check", stderr, func(ctx context.Context) int {
		results := checkContracts(ctx, selected, stdout, stderr)
		code := checkExitCode(results)
		fmt.Fprintln(stdout, checkTally(results, code))
		if werr := writeCheckReports(f, results, code); werr != nil {
			fmt.Fprintf(stderr, "servebench check: %v\n", werr)
			return 1
		}
		return code
	})
}

// ginkgoMarkup matches the colour markup of a Ginkgo message: {{red}}.
var ginkgoMarkup = regexp.MustCompile(`\{\{[a-z/]*\}\}`)

// plainGinkgoError renders a Ginkgo error in one line without its
// terminal colours: its heading and message.
func plainGinkgoError(err error) string {
	var g types.GinkgoError
	if !errors.As(err, &g) {
		return err.Error()
	}
	return g.Heading + ": " + strings.Join(strings.Fields(ginkgoMarkup.ReplaceAllString(g.Message, "")), " ")
}

// parseInterspersed parses fs from args with flags before, between or
// after the positional arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// loadContracts reads every contract named, a directory standing for its
// contract files; every malformed one is reported.
func loadContracts(paths []string) ([]*suites.Contract, error) {
	var out []*suites.Contract
	var errs []error
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			cs, err := suites.LoadDir(p)
			if err != nil {
				errs = append(errs, err)
			}
			out = append(out, cs...)
			continue
		}
		c, err := suites.Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// contractResult is what checking one contract gave.
type contractResult struct {
	contract *suites.Contract
	verdicts []suites.Verdict
	started  time.Time
	took     time.Duration
}

// checkContracts checks each contract in turn, printing each one's
// verdicts as they come; progress goes to stderr.
func checkContracts(ctx context.Context, contracts []*suites.Contract, stdout, stderr io.Writer) []contractResult {
	var out []contractResult
	for _, c := range contracts {
		if ctx.Err() != nil {
			break
		}
		start := time.Now()
		verdicts := suites.Check(ctx, c, stderr)
		r := contractResult{contract: c, verdicts: verdicts, started: start, took: time.Since(start)}
		printContractResult(stdout, r)
		out = append(out, r)
	}
	return out
}

// checkExitCodeOrder is the precedence of exit codes over several
// verdicts: the first that applies wins.
var checkExitCodeOrder = []int{1, 2, 5, 3, 6}

// checkExitCode is the first of 1, 2, 5, 3 and 6 that a verdict gives, 0
// when none does.
func checkExitCode(results []contractResult) int {
	seen := map[int]bool{}
	for _, r := range results {
		for _, v := range r.verdicts {
			seen[v.ExitCode] = true
		}
	}
	for _, code := range checkExitCodeOrder {
		if seen[code] {
			return code
		}
	}
	return 0
}

// writeCheckReports writes the JUnit report and appends the step summary
// where asked.
func writeCheckReports(f checkFlags, results []contractResult, code int) error {
	var errs []error
	if f.junit != "" {
		errs = append(errs, writeCheckJUnit(f.junit, results))
	}
	if paths := stepsummary.Paths(f.stepSummary, os.Getenv); len(paths) > 0 {
		errs = append(errs, stepsummary.Append(paths, checkStepSummary(results, code)))
	}
	return errors.Join(errs...)
}
