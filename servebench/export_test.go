package servebench

import (
	"io"
	"os"
)

// Internals the external tests use.

// SetOutcomeSink wraps a run's outcomes.jsonl file for the external tests
// (a disk that fills up).
func SetOutcomeSink(cfg *RunConfig, wrap func(*os.File) io.Writer) { cfg.outcomeSink = wrap }
