package servebench

import (
	"io"
	"os"

	"github.com/servebench/servebench/servebench/record"
)

// Internals the external tests use.

// Millis converts a duration to the records' milliseconds.
var Millis = record.Millis

// SetOutcomeSink wraps a run's outcomes.jsonl file for the external tests
// (a disk that fills up).
func SetOutcomeSink(cfg *RunConfig, wrap func(*os.File) io.Writer) { cfg.outcomeSink = wrap }
