package threshold_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// handReport is a report read back from JSON: 200 offered, 190 succeeded,
// 182 qualified over a 20 s horizon; TTFT over the 190 successes, and an
// ITL population that is empty (no event was proven to carry one token).
func handReport() *report.Report {
	f := func(v float64) *float64 { return &v }
	return &report.Report{
		Offered: 200, ProtocolSuccesses: 190, Qualified: 182,
		Attainment: f(0.91), WilsonLower: f(0.8786), WilsonConfidence: 0.95, QualifiedRPS: f(9.1),
		Percentiles: map[record.Metric]report.Distribution{
			record.MetricTTFT: {Population: "successful requests", N: 190, P50: f(40), P90: f(120), P95: f(180), P99: f(480), Max: f(612.5),
				Extra: map[string]float64{"p99.9": 600}},
			record.MetricITL: {Population: "gaps between single-token events", N: 0},
		},
	}
}

func TestJudge(t *testing.T) {
	r := handReport()
	for _, c := range []struct {
		expr     string
		outcome  threshold.Outcome
		measured float64
		line     string
	}{
		{"ttft_p99<=500ms", threshold.Pass, 480, "PASS ttft_p99<=500ms: measured 480 ms (p99 over successful requests, n = 190)"},
		{"ttft_p99<480ms", threshold.Fail, 480, "FAIL ttft_p99<480ms: measured 480 ms (p99 over successful requests, n = 190)"},
		{"ttft_p99<=480ms", threshold.Pass, 480, "PASS ttft_p99<=480ms: measured 480 ms (p99 over successful requests, n = 190)"},
		{"ttft_p50>=40ms", threshold.Pass, 40, "PASS ttft_p50>=40ms: measured 40 ms (p50 over successful requests, n = 190)"},
		{"ttft_p50>40ms", threshold.Fail, 40, "FAIL ttft_p50>40ms: measured 40 ms (p50 over successful requests, n = 190)"},
		{"ttft_p100<=0.6s", threshold.Fail, 612.5, "FAIL ttft_p100<=0.6s: measured 612.5 ms (p100 over successful requests, n = 190)"},
		{"ttft_p99.9<=1s", threshold.Pass, 600, "PASS ttft_p99.9<=1s: measured 600 ms (p99.9 over successful requests, n = 190)"},
		{"attainment>=0.95", threshold.Fail, 0.91, "FAIL attainment>=0.95: measured 0.91 (182 of 200 offered qualified)"},
		{"attainment>=0.91", threshold.Pass, 0.91, "PASS attainment>=0.91: measured 0.91 (182 of 200 offered qualified)"},
		{"wilson_lower>=0.9", threshold.Fail, 0.8786, "FAIL wilson_lower>=0.9: measured 0.879 (95% confidence, 182 of 200 offered qualified)"},
		// 10 of 200 offered did not succeed: 0.05.
		{"error_rate<=0.05", threshold.Pass, 0.05, "PASS error_rate<=0.05: measured 0.05 (10 of 200 offered did not succeed)"},
		{"error_rate<0.05", threshold.Fail, 0.05, "FAIL error_rate<0.05: measured 0.05 (10 of 200 offered did not succeed)"},
		{"qualified_rate>=9", threshold.Pass, 9.1, "PASS qualified_rate>=9: measured 9.1 req/s (182 qualified, req/s over the horizon)"},
	} {
		th, err := threshold.Parse(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		v := th.Judge(r)
		if v.Outcome != c.outcome || v.Measured == nil || *v.Measured != c.measured {
			t.Errorf("%s: got %s measured %v, want %s measured %v", c.expr, v.Outcome, v.Measured, c.outcome, c.measured)
		}
		if v.Line() != c.line {
			t.Errorf("%s line:\n got %s\nwant %s", c.expr, v.Line(), c.line)
		}
	}
}

func TestJudgeUnjudged(t *testing.T) {
	r := handReport()
	for _, c := range []struct {
		expr string
		r    *report.Report
		line string
	}{
		{"itl_p99<=20ms", r, "UNJUDGED itl_p99<=20ms: no value (percentile of itl_ms: the population is empty (gaps between single-token events))"},
		{"tpot_p99<=20ms", r, "UNJUDGED tpot_p99<=20ms: no value (percentile of tpot_ms: the report has no such metric)"},
		{"ttft_p75<=1s", r, "UNJUDGED ttft_p75<=1s: no value (percentile of ttft_ms: p75 was not asked of the scoring (score.Options.Percentiles), and without the raw samples a report keeps only min, p50, p90, p95, p99, max and those asked for)"},
		{"attainment>=0.9", &report.Report{}, "UNJUDGED attainment>=0.9: no value (nothing was offered)"},
		{"wilson_lower>=0.9", &report.Report{}, "UNJUDGED wilson_lower>=0.9: no value (nothing was offered)"},
		{"error_rate<=0.1", &report.Report{}, "UNJUDGED error_rate<=0.1: no value (nothing was offered)"},
		{"qualified_rate>=1", &report.Report{}, "UNJUDGED qualified_rate>=1: no value (the run has no horizon to divide by)"},
		{"attainment>=0.9", nil, "UNJUDGED attainment>=0.9: no value (no report)"},
	} {
		th, err := threshold.Parse(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		v := th.Judge(c.r)
		if v.Outcome != threshold.Unjudged || v.Measured != nil || v.Passed() {
			t.Errorf("%s: got %s measured %v, want unjudged with no value", c.expr, v.Outcome, v.Measured)
		}
		if v.Line() != c.line {
			t.Errorf("%s line:\n got %s\nwant %s", c.expr, v.Line(), c.line)
		}
	}
}

func TestJudgeFromSamples(t *testing.T) {
	// Raw samples answer any percentile: nearest rank of p75 over
	// 1..8 ms (sorted, as the scorer keeps them)
	// is the 6th value, 6 ms.
	r := &report.Report{
		Percentiles: map[record.Metric]report.Distribution{record.MetricE2E: {Population: "successful requests", N: 8}},
		Samples:     map[record.Metric][]float64{record.MetricE2E: {1, 2, 3, 4, 5, 6, 7, 8}},
	}
	th, err := threshold.Parse("e2e_p75<6ms")
	if err != nil {
		t.Fatal(err)
	}
	if v := th.Judge(r); v.Line() != "FAIL e2e_p75<6ms: measured 6 ms (p75 over successful requests, n = 8)" {
		t.Fatalf("got %s", v.Line())
	}
}

func TestFile(t *testing.T) {
	r := handReport()
	var ts []threshold.Threshold
	for _, e := range []string{"ttft_p99<=500ms", "itl_p99<=20ms"} {
		th, err := threshold.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	vs := threshold.JudgeAll(ts, r)
	if threshold.AllPassed(vs) {
		t.Fatal("an unjudged threshold passed the gate")
	}
	if !threshold.AllPassed(vs[:1]) {
		t.Fatal("a passing threshold failed the gate")
	}
	// Unjudged is neither a pass nor a failure: the gate passes unless
	// unjudged verdicts fail it.
	if !threshold.Passes(vs, false) || threshold.Passes(vs, true) {
		t.Fatal("Passes: an unjudged threshold decided the default gate, or did not fail the strict one")
	}
	if threshold.NewFile([]threshold.Judgment{{Verdicts: vs}}, false).Pass != true {
		t.Fatal("thresholds.json failed on an unjudged threshold by default")
	}
	dir := t.TempDir()
	if err := threshold.NewFile([]threshold.Judgment{{Verdicts: vs}}, true).WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, threshold.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	judged := got["judged"].([]any)
	verdicts := judged[0].(map[string]any)["verdicts"].([]any)
	first, second := verdicts[0].(map[string]any), verdicts[1].(map[string]any)
	if got["schema"] != threshold.Schema || got["pass"] != false || got["unjudged"] != "fail" || len(verdicts) != 2 ||
		first["verdict"] != "pass" || first["measured"] != 480.0 || first["unit"] != "ms" || first["bound"] != 500.0 ||
		second["verdict"] != "unjudged" || second["measured"] != nil {
		t.Fatalf("thresholds.json:\n%s", b)
	}
}
