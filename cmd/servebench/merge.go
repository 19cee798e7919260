package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/score"
)

func init() {
	register("merge", "merge the run directories of a sharded run into one scored run", runMerge)
}

// runMerge is the merge command. Exit codes: 0 the merged run is valid; 2
// it is scored but not valid (a missing shard, an unsent or late request);
// 1 bad input (shards of different runs, a record in the wrong shard or
// recorded twice, an unreadable directory).
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servebench merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servebench merge --output DIR SHARDDIR...")
		fmt.Fprintln(stderr, "Joins the shard run directories of one sharded run (servebench run --shard K/N) into DIR, scored as one run.")
		fs.PrintDefaults()
	}
	output := fs.String("output", "", "directory for the merged run (required, must not hold a run)")
	format := fs.String("format", "text", "report on stdout: text, json or html")
	overwrite := fs.Bool("overwrite", false, "remove what servebench wrote in --output before (what its manifest.json names) instead of refusing a directory that is not empty")
	if err := parseFlags(fs, args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 1
	}
	switch {
	case *output == "":
		fmt.Fprintln(stderr, "servebench merge: --output is required")
		return 1
	case fs.NArg() == 0:
		fmt.Fprintln(stderr, "servebench merge: name the shard run directories")
		return 1
	case *format != "text" && *format != "json" && *format != "html":
		fmt.Fprintf(stderr, "servebench merge: --format: want text, json or html, got %q\n", *format)
		return 1
	}
	return withInterrupts("servebench merge", stderr, func(context.Context) int {
		out, err := prepareOutput(*output, *overwrite)
		if err != nil {
			fmt.Fprintf(stderr, "servebench merge: %v\n", err)
			return 1
		}
		defer finishOutput(out, "merge", stderr)
		rep, err := servebench.MergeShards(fs.Args(), *output, score.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "servebench merge: %v\n", err)
			return 1
		}
		if err := printReport(stdout, rep, *format); err != nil {
			fmt.Fprintf(stderr, "servebench merge: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "merged run directory: %s\n", *output)
		return verdictExitCode(rep, -1, true, stderr)
	})
}
