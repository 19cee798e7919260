package main

import (
	"flag"
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/llmdreport"
)

// benchmarkReportFlags holds the flag that chooses the llm-d Benchmark
// Report written in every run directory.
type benchmarkReportFlags struct {
	format string
}

func (f *benchmarkReportFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "benchmark-report", string(llmdreport.JSON),
		"write the llm-d Benchmark Report v0.2.1 of every run as benchmark_report.json (json), benchmark_report.yaml (yaml), or not at all (none)")
}

// apply adds the report's writer to the run's artifacts.
func (f *benchmarkReportFlags) apply(s *servebench.Settings) error {
	if f.format == "none" {
		return nil
	}
	format, err := llmdreport.ParseFormat(f.format)
	if err != nil {
		return fmt.Errorf("--benchmark-report: %w, or none", err)
	}
	s.Artifacts = append(s.Artifacts, llmdreport.Writer{Format: format})
	return nil
}
