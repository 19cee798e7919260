// Package pytorchrecords writes results in the PyTorch OSS benchmark
// record format, the one the PyTorch HUD ingests: a JSON list with one
// record per metric, each {benchmark {name, mode, extra_info}, model
// {name}, metric {name, benchmark_values, target_value, extra_info}}. The
// fields are those of the oss_ci_benchmark_v3 table
// (pytorch/test-infra, clickhouse_db_schema/oss_ci_benchmark_v3/schema.sql),
// where every extra_info is a map of strings and target_value a number;
// the uploader (.github/scripts/upload_benchmark_results.py there) adds
// the repository, workflow and job. vLLM's benchmarks write the same
// shape (benchmarks/benchmark_utils.py, convert_to_pytorch_benchmark_format).
package pytorchrecords

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// BenchmarkName names servebench's records in the database.
const BenchmarkName = "servebench"

// Mode is the benchmark's mode: serving is inference.
const Mode = "inference"

// Record is one metric's record.
type Record struct {
	Benchmark Benchmark `json:"benchmark"`
	Model     Model     `json:"model"`
	Metric    Metric    `json:"metric"`
}

// Benchmark says what was run: its name, its mode and, in ExtraInfo, the
// command, the endpoint, the arrival and the run's ID.
type Benchmark struct {
	Name      string            `json:"name"`
	Mode      string            `json:"mode"`
	ExtraInfo map[string]string `json:"extra_info"`
}

// Model names the served model.
type Model struct {
	Name string `json:"name"`
}

// Metric is one metric's values: one per run (a run's single value, or a
// comparison's candidate), its target where one was declared (a threshold,
// or the worst candidate value a comparison's tolerance allows), and in
// ExtraInfo its unit and, for a comparison, the baseline, the change, its
// interval and the verdict.
type Metric struct {
	Name            string            `json:"name"`
	BenchmarkValues []float64         `json:"benchmark_values"`
	TargetValue     *float64          `json:"target_value,omitempty"`
	ExtraInfo       map[string]string `json:"extra_info"`
}

// finite reports whether v can be written as a JSON number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Write writes the records to path as an indented JSON list.
func Write(path string, records []Record) error {
	if records == nil {
		records = []Record{}
	}
	b, err := json.MarshalIndent(records, "", "  ")
	if err != nil {
		return fmt.Errorf("--pytorch-records: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("--pytorch-records: %w", err)
	}
	return nil
}

// format prints a value for an extra_info map.
func format(v float64) string {
	if !finite(v) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%g", v)
}
