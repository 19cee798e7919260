// Package llmdreport writes servebench runs as llm-d Benchmark Reports
// (schema v0.2.1), the tool-neutral report that llm-d-benchmark's analysis
// and plots read: one report per load point, benchmark_report.json (or
// .yaml) beside report.json.
//
// Set a Writer in servebench.RunConfig.Artifacts to have every run, sweep
// point or contract load point write one; FromRun builds the report alone.
// The figures are servebench's own (TTFT = f - d over successful requests,
// and so on, see Definitions), with exactly the schema's unit strings and
// percentiles from p0.1 to p99.9. A figure servebench cannot define is left
// out, never written as zero.
package llmdreport
