package threshold_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
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
		// p95 of 190 is rank ⌈180.5⌉ = 181, with 190 − 181 = 9
		// observations beyond it: judged.
		{"ttft_p95<=200ms", threshold.Pass, 180, "PASS ttft_p95<=200ms: measured 180 ms (p95 over successful requests, n = 190)"},
		{"ttft_p95<180ms", threshold.Fail, 180, "FAIL ttft_p95<180ms: measured 180 ms (p95 over successful requests, n = 190)"},
		{"ttft_p95<=180ms", threshold.Pass, 180, "PASS ttft_p95<=180ms: measured 180 ms (p95 over successful requests, n = 190)"},
		{"ttft_p50>=40ms", threshold.Pass, 40, "PASS ttft_p50>=40ms: measured 40 ms (p50 over successful requests, n = 190)"},
		{"ttft_p50>40ms", threshold.Fail, 40, "FAIL ttft_p50>40ms: measured 40 ms (p50 over successful requests, n = 190)"},
		{"ttft_p100<=0.6s", threshold.Fail, 612.5, "FAIL ttft_p100<=0.6s: measured 612.5 ms (p100 over successful requests, n = 190)"},
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
		// p99 of 190 is rank ⌈188.1⌉ = 189, with 1 observation beyond
		// it; 500 are needed (500 − 495 = 5), and 5000 for p99.9.
		{"ttft_p99<=500ms", r, "UNJUDGED ttft_p99<=500ms: no value (p99 needs at least 500 observations for 5 to lie beyond it, and its population has 190 (successful requests))"},
		{"ttft_p99.9<=1s", r, "UNJUDGED ttft_p99.9<=1s: no value (p99.9 needs at least 5000 observations for 5 to lie beyond it, and its population has 190 (successful requests))"},
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
	// 1..20 ms (sorted, as the scorer keeps them) is the 15th value,
	// 15 ms, with 5 beyond it; p80 is the 16th, with 4 beyond it, too few
	// (25 are needed: 25 − 20 = 5).
	samples := make([]float64, 20)
	for i := range samples {
		samples[i] = float64(i + 1)
	}
	r := &report.Report{
		Percentiles: map[record.Metric]report.Distribution{record.MetricE2E: {Population: "successful requests", N: 20}},
		Samples:     map[record.Metric][]float64{record.MetricE2E: samples},
	}
	for expr, want := range map[string]string{
		"e2e_p75<15ms":   "FAIL e2e_p75<15ms: measured 15 ms (p75 over successful requests, n = 20)",
		"e2e_p80<1s":     "UNJUDGED e2e_p80<1s: no value (p80 needs at least 25 observations for 5 to lie beyond it, and its population has 20 (successful requests))",
		"e2e_p100<=20ms": "PASS e2e_p100<=20ms: measured 20 ms (p100 over successful requests, n = 20)",
	} {
		th, err := threshold.Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		if v := th.Judge(r); v.Line() != want {
			t.Errorf("got %s, want %s", v.Line(), want)
		}
	}
}

func TestFile(t *testing.T) {
	r := handReport()
	var ts []threshold.Threshold
	for _, e := range []string{"ttft_p95<=500ms", "itl_p99<=20ms"} {
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
		first["verdict"] != "pass" || first["measured"] != 180.0 || first["unit"] != "ms" || first["bound"] != 500.0 ||
		second["verdict"] != "unjudged" || second["measured"] != nil {
		t.Fatalf("thresholds.json:\n%s", b)
	}
}

// The verdicts as report.json holds them: a pass with its value, bound
// and unit; an unjudged one with no value, or, under --unjudged fail, a
// failure that says it was unjudged.
func TestObjectives(t *testing.T) {
	r := handReport()
	var ts []threshold.Threshold
	for _, e := range []string{"attainment>=0.95", "ttft_p50<=50ms", "ttft_p99<=1s"} {
		th, err := threshold.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	vs := threshold.JudgeAll(ts, r)
	got := threshold.Objectives(vs, false)
	want := []report.ObjectiveVerdict{
		{Name: "attainment>=0.95", Source: "threshold", Measured: new(0.91), Bound: new(0.95), Unit: "fraction", Verdict: report.ObjectiveFail,
			Reason: "182 of 200 offered qualified"},
		{Name: "ttft_p50<=50ms", Source: "threshold", Measured: new(40.0), Bound: new(50.0), Unit: "ms", Verdict: report.ObjectivePass,
			Reason: "p50 over successful requests, n = 190"},
		{Name: "ttft_p99<=1s", Source: "threshold", Bound: new(1000.0), Unit: "ms", Verdict: report.ObjectiveUnjudged,
			Reason: "p99 needs at least 500 observations for 5 to lie beyond it, and its population has 190 (successful requests)"},
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("objectives:\n got %s\nwant %s", gb, wb)
	}
	strict := threshold.Objectives(vs, true)[2]
	if strict.Verdict != report.ObjectiveFail || strict.Measured != nil ||
		strict.Reason != "unjudged: p99 needs at least 500 observations for 5 to lie beyond it, and its population has 190 (successful requests) (--unjudged fail makes a threshold without its data a failure)" {
		t.Fatalf("under --unjudged fail: %+v", strict)
	}
}

// The session, speculative-decoding and fairness statistics: judged on a
// report that measured them, unjudged, with what is missing, on one that
// did not.
func TestSessionSpeculativeAndFairnessThresholds(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	r := handReport()
	judge := func(expr string, r *report.Report) threshold.Verdict {
		th, err := threshold.Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		return th.Judge(r)
	}
	for expr, line := range map[string]string{
		"session_attainment>=0.9":   "UNJUDGED session_attainment>=0.9: no value (the session attainment was not measured: the report has no sessions (the workload has no conversations))",
		"session_wilson_lower>=0.9": "UNJUDGED session_wilson_lower>=0.9: no value (the session attainment was not measured: the report has no sessions (the workload has no conversations))",
		"acceptance_rate>=0.5":      "UNJUDGED acceptance_rate>=0.5: no value (the acceptance rate was not measured: the run scraped no engine metrics (give it the engine's metrics URL))",
		"mean_acceptance_length>=2": "UNJUDGED mean_acceptance_length>=2: no value (the mean acceptance length was not measured: the run scraped no engine metrics (give it the engine's metrics URL))",
		"jain_tenant>=0.9":          "UNJUDGED jain_tenant>=0.9: no value (Jain's index over tenant was not measured: no request carried a tenant)",
	} {
		if v := judge(expr, r); v.Line() != line || v.Measured != nil {
			t.Errorf("%s:\n got %s\nwant %s", expr, v.Line(), line)
		}
	}
	// 50 sessions offered, 10 truncated, 36 of the 40 others qualified:
	// 0.9, whose one-sided 95% Wilson lower bound is 0.7950 (z = 1.6449:
	// (0.9 + z²/80 − z·√(0.9·0.1/40 + z²/6400)) / (1 + z²/40)). 9 drafts of 27 tokens, 18 accepted: rate 18/27 = 0.667, length
	// 1 + 18/9 = 3. Tenants a (100 of 100) and b (82 of 100): J = (1 +
	// 0.82)² / (2 × (1 + 0.82²)) = 3.3124 / 3.3448 = 0.99031.
	r.Sessions = &report.Sessions{Offered: 50, Truncated: 10, Qualified: 36, Attainment: f(0.9), WilsonLower: f(0.7950094153296187)}
	r.EngineMetrics = &report.EngineMetrics{URL: "http://127.0.0.1:1/metrics"}
	r.SpeculativeDecoding = &report.SpeculativeDecoding{Drafts: 9, DraftTokens: 27, AcceptedTokens: 18, AcceptanceRate: f(18.0 / 27), MeanAcceptanceLength: f(3)}
	a, b := 1.0, 0.82
	j, _ := report.JainIndex([]float64{a, b})
	r.Breakdown = map[string]*report.BreakdownDimension{"tenant": {Jain: &j, Values: map[string]report.BreakdownValue{
		"a": {Offered: 100, Qualified: 100, Attainment: &a}, "b": {Offered: 100, Qualified: 82, Attainment: &b}}}}
	for _, c := range []struct {
		expr     string
		outcome  threshold.Outcome
		measured float64
		unit     string
		detail   string
	}{
		{"session_attainment>=0.9", threshold.Pass, 0.9, "fraction", "36 of 40 sessions qualified, 10 truncated"},
		{"session_wilson_lower>=0.8", threshold.Fail, 0.7950094153296187, "fraction", "95% confidence, 36 of 40 sessions qualified, 10 truncated"},
		{"acceptance_rate>=0.7", threshold.Fail, 18.0 / 27, "fraction", "18 accepted of 27 draft tokens"},
		{"mean_acceptance_length>=3", threshold.Pass, 3, "tokens", "1 + 18 accepted tokens / 9 drafts"},
		{"jain_tenant>=0.99", threshold.Pass, 3.3124 / 3.3448, "index", "over the attainment of 2 values of tenant"},
	} {
		v := judge(c.expr, r)
		if v.Outcome != c.outcome || v.Measured == nil || math.Abs(*v.Measured-c.measured) > 1e-12 || v.Unit != c.unit || v.Detail != c.detail {
			t.Errorf("%s: %+v (measured %v), want %s %v %s %q", c.expr, v, v.Measured, c.outcome, c.measured, c.unit, c.detail)
		}
	}
	// A single tenant, and one with fewer than 10 requests: unjudged.
	r.Breakdown["tenant"] = &report.BreakdownDimension{Values: map[string]report.BreakdownValue{"a": {Offered: 100, Qualified: 100, Attainment: &a}}}
	if v := judge("jain_tenant>=0.9", r); v.Detail != "Jain's index over tenant needs two values or more, and the requests carried 1 (a)" {
		t.Errorf("one tenant: %+v", v)
	}
	r.Breakdown["tenant"].Values["b"] = report.BreakdownValue{Offered: 9, Qualified: 9, Attainment: &a}
	if v := judge("jain_tenant>=0.9", r); v.Outcome != threshold.Unjudged ||
		v.Detail != "Jain's index over tenant needs at least 10 offered requests for each value, and 1 value had fewer (b 9)" {
		t.Errorf("a tenant of 9 requests: %+v", v)
	}
}

// The session Wilson bound the test above reads is the one the statistics
// package computes for 36 of 40 at 95%.
func TestSessionWilsonBoundByHand(t *testing.T) {
	lower, ok := stats.WilsonLower(36, 40, 0.95)
	if !ok || math.Abs(lower-0.7950094153296187) > 1e-9 {
		t.Fatalf("WilsonLower(36, 40, 0.95) = %v", lower)
	}
}
