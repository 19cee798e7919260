package pytorchrecords

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// The worst candidate value each tolerance allows: p99 TTFT 100 ms at 5 %
// is 105 ms; 10 req/s at 5 % is 10/1.05 = 9.5238 req/s (qualified_rps's
// change is baseline/candidate − 1); attainment 0.95 less 1 point is
// 0.94; error rate 0.02 plus 1 point is 0.03.
func TestAllowedIsTheWorstValueTheToleranceAccepts(t *testing.T) {
	for _, tc := range []struct {
		m    compare.MetricComparison
		want float64
	}{
		{compare.MetricComparison{Name: "ttft_p99", Kind: compare.KindRelative, Unit: "ms", Baseline: 100, Tolerance: 0.05}, 105},
		{compare.MetricComparison{Name: "qualified_rps", Kind: compare.KindRelative, Unit: "rps", Baseline: 10, Tolerance: 0.05}, 10 / 1.05},
		{compare.MetricComparison{Name: "attainment", Kind: compare.KindAbsolute, Unit: "fraction", Baseline: 0.95, Tolerance: 0.01}, 0.94},
		{compare.MetricComparison{Name: "error_rate", Kind: compare.KindAbsolute, Unit: "fraction", Baseline: 0.02, Tolerance: 0.01}, 0.03},
	} {
		got, ok := allowed(tc.m)
		if !ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.m.Name, got, tc.want)
		}
	}
}

// A run of 200 offered, 190 qualified and 196 protocol successes gives
// attainment 0.95 and error rate 4/200 = 0.02; the threshold
// attainment>=0.9 is its target, and the file holds the fields the
// oss_ci_benchmark_v3 table takes.
func TestFromRunWritesOneRecordPerMetric(t *testing.T) {
	a, q := 0.95, 3.8
	r := &report.Report{Offered: 200, Qualified: 190, ProtocolSuccesses: 196, Attainment: &a, QualifiedRPS: &q,
		Experiment: &report.Experiment{Model: "m", RunID: "r1"}}
	th, err := threshold.Parse("attainment>=0.9")
	if err != nil {
		t.Fatal(err)
	}
	recs := FromRun(r, Targets([]threshold.Threshold{th}))
	if len(recs) != 3 || recs[0].Metric.Name != "attainment" || recs[1].Metric.Name != "error_rate" || recs[2].Metric.Name != "qualified_rps" {
		t.Fatalf("records %+v", recs)
	}
	if recs[0].Metric.TargetValue == nil || *recs[0].Metric.TargetValue != 0.9 || recs[1].Metric.BenchmarkValues[0] != 0.02 || recs[1].Metric.TargetValue != nil {
		t.Errorf("records %+v", recs)
	}
	p := filepath.Join(t.TempDir(), "r.json")
	if err := Write(p, recs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	first := raw[0]
	if first["benchmark"]["name"] != "servebench" || first["benchmark"]["mode"] != "inference" || first["model"]["name"] != "m" ||
		first["metric"]["name"] != "attainment" || first["metric"]["target_value"] != 0.9 || first["benchmark"]["extra_info"].(map[string]any)["run_id"] != "r1" {
		t.Errorf("file:\n%s", b)
	}
}
