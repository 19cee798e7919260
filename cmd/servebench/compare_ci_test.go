package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// writeTTFTRounds writes one side's rounds: 100 offered, qualified of them
// qualified, and a stored TTFT distribution of 10 requests at ttft ms.
func writeTTFTRounds(t *testing.T, dir string, ttft float64, qualified ...int) {
	t.Helper()
	for k, q := range qualified {
		a := float64(q) / 100
		v := ttft
		writeRun(t, filepath.Join(dir, fmt.Sprintf("round-%d", k+1)), report.Report{
			Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: q, Attainment: &a, Valid: true,
			Inputs: report.Inputs{WorkloadSHA256: "w1"},
			Experiment: &report.Experiment{Model: "m1", RunID: fmt.Sprintf("run-%d", k),
				Arrival: schedule.ArrivalSpec{Process: "poisson", RateRPS: 5, Seed: int64(7 + k)}},
			Percentiles: map[record.Metric]report.Distribution{record.MetricTTFT: {Population: "successful requests", N: 10, P50: &v, P99: &v, Max: &v}},
		})
	}
}

// Attainment 0.95 and 0.95 against 0.50 and 0.50: 45 points worse, a
// regression (exit 5). The step summary's row gives both means, the
// change and the tolerance; the PyTorch record gives the candidate's 0.5,
// as its target the worst attainment the tolerance allows (0.95 − 0.05 =
// 0.9), and the baseline and verdict in its extra_info.
func TestCompareWritesTheStepSummaryAndPyTorchRecords(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base"), filepath.Join(dir, "cand")
	writeTTFTRounds(t, base, 100, 95, 95)
	writeTTFTRounds(t, cand, 100, 50, 50)
	summary, records := filepath.Join(dir, "summary.md"), filepath.Join(dir, "records.json")
	code, stdout, stderr := runCLI("compare", "--tolerance", "attainment=0.05", "--step-summary", summary, "--pytorch-records", records, base, cand)
	if code != 5 {
		t.Fatalf("exit %d, want 5\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "### servebench compare: regression (exit 5)\n\n| statistic | baseline | candidate | change | interval | tolerance | verdict |\n") ||
		!strings.Contains(string(b), "| attainment | 0.9500 | 0.5000 | +45.00 pt | [") || !strings.Contains(string(b), "| 5 pt | **regression** |\n") {
		t.Errorf("step summary:\n%s", b)
	}
	var recs []struct {
		Benchmark struct {
			ExtraInfo map[string]string `json:"extra_info"`
		}
		Model  struct{ Name string }
		Metric struct {
			Name            string
			BenchmarkValues []float64         `json:"benchmark_values"`
			TargetValue     *float64          `json:"target_value"`
			ExtraInfo       map[string]string `json:"extra_info"`
		}
	}
	b, err = os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("records:\n%s", b)
	}
	r := recs[0]
	if r.Metric.Name != "attainment" || r.Metric.BenchmarkValues[0] != 0.5 || r.Metric.TargetValue == nil || *r.Metric.TargetValue < 0.9-1e-9 || *r.Metric.TargetValue > 0.9+1e-9 ||
		r.Metric.ExtraInfo["baseline"] != "0.95" || r.Metric.ExtraInfo["verdict"] != "regression" || r.Benchmark.ExtraInfo["command"] != "compare" ||
		r.Benchmark.ExtraInfo["verdict"] != "regression" || r.Model.Name != "m1" {
		t.Errorf("record:\n%s", b)
	}
}

// p99 TTFT over 10 requests a round (20 a side, none beyond p99) is
// insufficient_data. With --allow-inconclusive the comparison exits 0;
// --unjudged fail makes it exit 6, naming the statistic.
func TestCompareUnjudgedFailRefusesInsufficientData(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base"), filepath.Join(dir, "cand")
	writeTTFTRounds(t, base, 100, 95, 95)
	writeTTFTRounds(t, cand, 100, 95, 95)
	args := []string{"compare", "--allow-inconclusive", "--tolerance", "attainment=0.05", "--tolerance", "ttft_p99=5%"}
	code, stdout, stderr := runCLI(append(args, base, cand)...)
	if code != 0 || !strings.Contains(stdout, "insufficient_data") {
		t.Fatalf("exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(append(args, "--unjudged", "fail", base, cand)...)
	if code != 6 || !strings.Contains(stderr, "servebench compare: ttft_p99 is insufficient_data, and --unjudged fail makes a statistic without its data a failure (exit 6)") {
		t.Errorf("--unjudged fail: exit %d, want 6\n%s", code, stderr)
	}
	code, _, stderr = runCLI(append(args, "--unjudged", "sometimes", base, cand)...)
	if code != 1 || !strings.Contains(stderr, "--unjudged: want skip or fail") {
		t.Errorf("--unjudged sometimes: exit %d\n%s", code, stderr)
	}
}
