package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// streamedScoreMemoryLimit is the soft heap limit the streamed score sets
// when GOMEMLIMIT does not: its live data is a few tens of MB, and the
// limit makes the collector run before garbage from decoding doubles that.
const streamedScoreMemoryLimit = 100 << 20

// scoreRunStreamed re-scores a run directory in bounded memory, writing
// the per-request entries to requestsPath ("none": nowhere).
func scoreRunStreamed(dir, requestsPath string, opts score.Options) (*report.Report, error) {
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(streamedScoreMemoryLimit))
	}
	var out io.Writer
	if requestsPath != "none" {
		f, err := safefile.Create(requestsPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		out = f
	}
	rep, err := score.RunDirTo(dir, opts, out)
	if err == nil && out != nil {
		// Absolute: the report may be read from anywhere.
		if rep.RequestsFile, err = filepath.Abs(requestsPath); err != nil {
			return nil, err
		}
	}
	return rep, err
}

// scoreRunDirFlags re-scores --run in bounded memory, whatever the shape
// of the run directory: the entries go to --requests, or, without it,
// nowhere (the JSON and text reports do without them), except for the HTML
// report, whose charts read them from a scratch file that done removes.
// done is never nil.
func scoreRunDirFlags(f scoreFlags, opts score.Options) (*report.Report, func(), error) {
	if f.requests != "" || f.format != "html" {
		requests := f.requests
		if requests == "" {
			requests = "none"
		}
		rep, err := scoreRunStreamed(f.runDir, requests, opts)
		return rep, func() {}, err
	}
	scratch, err := os.CreateTemp("", "servebench-requests-*.jsonl")
	if err != nil {
		return nil, func() {}, err
	}
	scratch.Close()
	done := func() { os.Remove(scratch.Name()) }
	rep, err := scoreRunStreamed(f.runDir, scratch.Name(), opts)
	return rep, done, err
}

// metricsIntervalFlag maps --metrics-interval onto RunConfig: 0 on the
// command line turns the series off, which RunConfig spells negative.
func metricsIntervalFlag(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
