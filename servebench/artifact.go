package servebench

import (
	"errors"
	"fmt"
)

// ArtifactWriter writes one more file into a finished run's directory from
// its result: the seam through which another package adds an output format
// (package servebench/llmdreport writes the llm-d Benchmark Report through
// it) without the core knowing the format.
type ArtifactWriter interface {
	// WriteArtifact writes into res.Dir. res.Report is the scored report,
	// already saved as report.json. It is called once per run, after the
	// run's own files are written, also for an interrupted run.
	WriteArtifact(res *RunResult) error
}

// PercentileLevels is implemented by an ArtifactWriter whose format needs
// percentiles beyond those a report always keeps: the run asks the scorer
// for them (score.Options.Percentiles), since a run's report keeps no raw
// samples.
type PercentileLevels interface {
	PercentileLevels() []float64
}

// artifactLevels are the percentile levels the writers ask for.
func artifactLevels(writers []ArtifactWriter) []float64 {
	var levels []float64
	for _, w := range writers {
		if p, ok := w.(PercentileLevels); ok {
			levels = append(levels, p.PercentileLevels()...)
		}
	}
	return levels
}

// writeArtifacts runs every writer on res and joins their errors.
func writeArtifacts(writers []ArtifactWriter, res *RunResult) error {
	var errs []error
	for _, w := range writers {
		if err := w.WriteArtifact(res); err != nil {
			errs = append(errs, fmt.Errorf("%T: %w", w, err))
		}
	}
	return errors.Join(errs...)
}
