package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/servebench/servebench/servebench/compare"
)

// compareFlags are the flags that shape a comparison, shared by compare
// and ab.
type compareFlags struct {
	confidence                                float64
	tolerances                                toleranceList
	format, output, decide                    string
	strict, allowDifferent, allowInconclusive bool
}

// toleranceList collects repeated --tolerance NAME=VALUE flags.
type toleranceList []compare.Tolerance

func (l *toleranceList) String() string { return fmt.Sprint(*l) }

func (l *toleranceList) Set(s string) error {
	t, err := compare.ParseTolerance(s)
	if err != nil {
		return err
	}
	*l = append(*l, t)
	return nil
}

func (f *compareFlags) register(fs *flag.FlagSet, withOutput bool) {
	fs.Float64Var(&f.confidence, "confidence", 0.95, "family-wise confidence: an A/A comparison reports any regression with probability at most 1 − confidence")
	fs.Var(&f.tolerances, "tolerance", "NAME=VALUE, repeatable (e.g. ttft_p99=10% or attainment=0.02); naming any limits the comparison to the named ones")
	fs.StringVar(&f.decide, "decide", "", "comma-separated statistics that make the verdict; the others are compared and reported informational (default: attainment,error_rate,tpot_p50,e2e_p50 with the default tolerances, else every --tolerance)")
	fs.BoolVar(&f.strict, "strict", false, "deprecated, no effect: inconclusive exits 6 by default (see --allow-inconclusive)")
	fs.BoolVar(&f.allowInconclusive, "allow-inconclusive", false, "exit 0 instead of 6 when the verdict is inconclusive (an advisory one-round result still exits 6)")
	fs.BoolVar(&f.allowDifferent, "allow-different-workloads", false, "compare runs of different workloads, SLOs or schedules (hash, request count, arrival process, rate, seed); the verdict lists every difference")
	if withOutput {
		fs.StringVar(&f.format, "format", "text", "text, json or html")
		fs.StringVar(&f.output, "output", "", "write the comparison to this file instead of stdout")
	}
}

// options turns the flags into the comparison's options; a --strict on
// the command line gets its deprecation note on stderr.
func (f *compareFlags) options(fs *flag.FlagSet, stderr io.Writer) (compare.Options, error) {
	if !(f.confidence > 0 && f.confidence < 1) {
		return compare.Options{}, fmt.Errorf("--confidence: want a value in (0, 1), got %v", f.confidence)
	}
	if setFlags(fs)["strict"] {
		fmt.Fprintf(stderr, "%s: --strict is deprecated and changes nothing: an inconclusive verdict exits 6 by default; pass --allow-inconclusive to let it exit 0\n", fs.Name())
	}
	opts := compare.Options{Confidence: f.confidence, Tolerances: f.tolerances, AllowDifferentWorkloads: f.allowDifferent, AllowInconclusive: f.allowInconclusive}
	if f.decide != "" {
		d, err := compare.ParseDecide(f.decide)
		if err != nil {
			return opts, fmt.Errorf("--decide: %w", err)
		}
		opts.Decide = d
	}
	return opts, nil
}

func init() {
	register("compare", "compare a candidate's runs with a baseline's: regression, no_regression or inconclusive", runCompare)
}

// runCompare is the compare command.
func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servebench compare [flags] BASELINE CANDIDATE\n\nEach argument is a run directory, or a directory of round-K or run-K run directories.\nExit codes: 0 no_regression; 5 regression; 6 inconclusive (0 with --allow-inconclusive) or advisory (one round per side); 2 a side is not evidence (a run did not deliver its load, or the baseline failed every request); 1 bad input.")
		fs.PrintDefaults()
	}
	var f compareFlags
	f.register(fs, true)
	var ci ciFlags
	ci.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return parseFailureCode(err)
	}
	if err := ci.check(); err != nil {
		fmt.Fprintf(stderr, "servebench compare: %v\n", err)
		return 1
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "servebench compare: want two arguments, BASELINE and CANDIDATE")
		return 1
	}
	if f.format != "text" && f.format != "json" && f.format != "html" {
		fmt.Fprintf(stderr, "servebench compare: --format: want text, json or html, got %q\n", f.format)
		return 1
	}
	opts, err := f.options(fs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "servebench compare: %v\n", err)
		return 1
	}
	base, _, err := compare.LoadSide(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "servebench compare: baseline: %v\n", err)
		return 1
	}
	cand, _, err := compare.LoadSide(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "servebench compare: candidate: %v\n", err)
		return 1
	}
	c, err := compare.Reports(base, cand, opts)
	if err != nil {
		fmt.Fprintf(stderr, "servebench compare: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	switch f.format {
	case "json":
		var b []byte
		if b, err = c.JSON(); err == nil {
			buf.Write(b)
		}
	case "html":
		err = c.WriteHTML(&buf)
	default:
		err = c.WriteText(&buf)
	}
	if err == nil {
		err = writeOutput(f.output, buf.Bytes(), stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench compare: %v\n", err)
		return 1
	}
	return ci.finishComparison("compare", c, firstReport(cand), stderr)
}
