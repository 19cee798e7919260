package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/servebench/servebench/servebench/history"
)

func init() {
	register("history", "find where metrics shifted across releases (one run or comparison per release)", runHistory)
}

// runHistory is the history command.
func runHistory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servebench history [flags] DIR...\n\nEach DIR is one release, oldest first: a run directory, a directory of round-K runs, an ab directory\n(its compare.json: the candidate's figures), or a report.json or compare.json file.\nExit codes: 0 the history was analyzed; 1 bad input.")
		fs.PrintDefaults()
	}
	order := fs.String("order", "args", "release order: args (as given) or time (by the runs' UUIDv7 run IDs)")
	falseAlarm := fs.Float64("false-alarm", 0.05, "each split's permutation-test level: the chance of reporting a change in a series without one")
	confidence := fs.Float64("confidence", 0.95, "two-sided level of each change's interval")
	format := fs.String("format", "text", "one of text, json, html")
	output := fs.String("output", "", "write to this file instead of stdout")
	if err := parseFlags(fs, args); err != nil {
		return parseFailureCode(err)
	}
	switch {
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
	h, err := history.Analyze(releases, history.Options{FalseAlarm: *falseAlarm, Confidence: *confidence})
	if err != nil {
		fmt.Fprintf(stderr, "servebench history: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	switch *format {
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
	if err == nil {
		err = writeOutput(*output, buf.Bytes(), stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench history: %v\n", err)
		return 1
	}
	return 0
}
