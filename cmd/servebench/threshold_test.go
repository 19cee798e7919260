package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/threshold"
)

// thresholdRunArgs are a run of 8 four-token requests against url.
func thresholdRunArgs(t *testing.T, url, out string) []string {
	return []string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "8",
		"--schedule-lag-tolerance", "2s", "--output", out, "--no-progress"}
}

// readThresholdsFile reads dir/thresholds.json.
func readThresholdsFile(t *testing.T, dir string) threshold.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, threshold.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var f threshold.File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRunThresholdsPassExitZero(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	// ttft_p97.5 is no stored percentile: report.json keeps it because a
	// threshold names it. Over 8 TTFTs, p99 and p97.5 are the slowest,
	// with none beyond them: unjudged (500 and 200 are needed for 5 to lie
	// beyond), which fails nothing; p100, the maximum, is judged.
	code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out),
		"--threshold", "ttft_p99<=30s", "--threshold", "ttft_p97.5<=30s", "--threshold", "attainment>=1", "--threshold", "error_rate<=0",
		"--threshold", "ttft_p100<=30s")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^UNJUDGED ttft_p99<=30s: no value \(p99 needs at least 500 observations for 5 to lie beyond it, and its population has 8 \(.+\)\)$`),
		regexp.MustCompile(`(?m)^UNJUDGED ttft_p97.5<=30s: no value \(p97.5 needs at least 200 observations for 5 to lie beyond it, and its population has 8 \(.+\)\)$`),
		regexp.MustCompile(`(?m)^PASS ttft_p100<=30s: measured [0-9.]+ ms \(p100 over [^,]+, n = 8\)$`),
		regexp.MustCompile(`(?m)^PASS attainment>=1: measured 1 \(8 of 8 offered qualified\)$`),
		regexp.MustCompile(`(?m)^PASS error_rate<=0: measured 0 \(0 of 8 offered did not succeed\)$`),
	} {
		if !want.MatchString(stderr) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr)
		}
	}
	f := readThresholdsFile(t, out)
	if !f.Pass || len(f.Judged) != 1 || len(f.Judged[0].Verdicts) != 5 || f.Judged[0].Verdicts[2].Expression != "attainment>=1" {
		t.Fatalf("thresholds.json: %+v", f)
	}
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(b), `"path": "thresholds.json"`) {
		t.Fatalf("manifest.json does not list thresholds.json: %v\n%s", err, b)
	}
	rep, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := rep.Percentiles[record.MetricTTFT].Extra["p97.5"]; !kept {
		t.Fatalf("report.json does not keep the p97.5 TTFT a threshold names: %+v", rep.Percentiles[record.MetricTTFT])
	}
}

func TestRunThresholdFailsExitThree(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out),
		"--threshold", "attainment>=1", "--threshold", "ttft_p100<=1us")...)
	if code != 3 {
		t.Fatalf("exit %d (want 3), stderr:\n%s", code, stderr)
	}
	fail := regexp.MustCompile(`(?m)^FAIL ttft_p100<=1us: measured [0-9.]+ ms \(p100 over [^,]+, n = 8\)$`)
	if !fail.MatchString(stderr) || !strings.Contains(stderr, "PASS attainment>=1: measured 1 (8 of 8 offered qualified)\n") ||
		!strings.Contains(stderr, "a threshold did not pass (an unjudged one, with no value, fails it too under --unjudged fail)\n") {
		t.Fatalf("stderr:\n%s", stderr)
	}
	f := readThresholdsFile(t, out)
	if f.Pass || f.Judged[0].Verdicts[1].Outcome != threshold.Fail || f.Judged[0].Verdicts[1].Bound != 0.001 {
		t.Fatalf("thresholds.json: %+v", f)
	}
}

func TestRunUnjudgedThresholdIsNeitherPassNorFail(t *testing.T) {
	// Without --logprobs no event is proven to carry one token: the ITL
	// population is empty, and a threshold on it is unjudged. It does not
	// fail the gate (exit 0) unless --unjudged fail (exit 3).
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "itl_p99<=1h")...)
	if !strings.Contains(stdout, "verdict:     pass: no threshold failed; 1 unjudged, with no value (neither a pass nor a failure; --unjudged fail makes it one)\n") {
		t.Errorf("summary verdict:\n%s", stdout)
	}
	if code != 0 || !regexp.MustCompile(`(?m)^UNJUDGED itl_p99<=1h: no value \(percentile of itl_ms: the population is empty \(.+\)\)$`).MatchString(stderr) {
		t.Fatalf("exit %d (want 0), stderr:\n%s", code, stderr)
	}
	f := readThresholdsFile(t, out)
	if v := f.Judged[0].Verdicts[0]; v.Outcome != threshold.Unjudged || v.Measured != nil || !f.Pass || f.Unjudged != "skip" {
		t.Fatalf("thresholds.json: %+v", f)
	}
	out = filepath.Join(t.TempDir(), "run")
	code, _, stderr = runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "itl_p99<=1h", "--unjudged", "fail")...)
	if f := readThresholdsFile(t, out); code != 3 || f.Pass || f.Unjudged != "fail" {
		t.Fatalf("--unjudged fail: exit %d (want 3), thresholds.json %+v, stderr:\n%s", code, f, stderr)
	}
}

// A run's step summary has a row per gate, and its PyTorch records one per
// metric, a threshold's bound as its target: 8 requests against a healthy
// engine, so attainment 1 (8 of 8) and error rate 0.
func TestRunWritesTheStepSummaryAndPyTorchRecords(t *testing.T) {
	url := startSim(t, nil)
	dir := t.TempDir()
	out, summary, records := filepath.Join(dir, "run"), filepath.Join(dir, "summary.md"), filepath.Join(dir, "records.json")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "ttft_p99<=1h", "--threshold", "ttft_p100<=1h", "--threshold", "itl_p99<=1h",
		"--require-attainment", "0.9", "--step-summary", summary, "--pytorch-records", records)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### servebench run: pass (exit 0)\n",
		"| valid load | – | 8 offered, 0 late | delivered | pass |\n",
		"| attainment | – | 1.000 (8 of 8) | >= 0.900 | pass |\n",
		"| ttft_p99 | – | no value: p99 needs at least 500 observations for 5 to lie beyond it, and ",
		"| ttft_p100 | – | ",
		"| <= 1h | pass |\n",
		"| itl_p99 | – | no value: percentile of itl_ms: the population is empty",
		"| <= 1h | unjudged |\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("step summary has no %q:\n%s", want, b)
		}
	}
	var recs []struct {
		Benchmark struct {
			Name, Mode string
			ExtraInfo  map[string]string `json:"extra_info"`
		}
		Model  struct{ Name string }
		Metric struct {
			Name            string
			BenchmarkValues []float64 `json:"benchmark_values"`
			TargetValue     *float64  `json:"target_value"`
		}
	}
	b, err = os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, r := range recs {
		byName[r.Metric.Name] = i
		if r.Benchmark.Name != "servebench" || r.Benchmark.Mode != "inference" || r.Benchmark.ExtraInfo["command"] != "run" || r.Model.Name != "simengine-tiny" {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	att, ok := byName["attainment"]
	if !ok || recs[att].Metric.BenchmarkValues[0] != 1 || recs[att].Metric.TargetValue != nil {
		t.Errorf("attainment record: %s", b)
	}
	ttft, ok := byName["ttft_p99_ms"]
	if !ok || recs[ttft].Metric.TargetValue == nil || *recs[ttft].Metric.TargetValue != 3.6e6 {
		t.Errorf("ttft_p99_ms record (target 1h = 3600000 ms): %s", b)
	}
	if e, ok := byName["error_rate"]; !ok || recs[e].Metric.BenchmarkValues[0] != 0 {
		t.Errorf("error_rate record: %s", b)
	}
	code, _, stderr = runCLI(append(thresholdRunArgs(t, url, filepath.Join(dir, "run2")), "--pytorch-records", filepath.Join(dir, "missing", "r.json"))...)
	if code != 1 || !strings.Contains(stderr, "--pytorch-records") {
		t.Errorf("missing directory: exit %d %s", code, stderr)
	}
}

// countingServer counts the requests it is sent.
func countingServer(t *testing.T) (string, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

func TestMalformedThresholdExitsOneBeforeAnyLoad(t *testing.T) {
	url, sent := countingServer(t)
	for _, tc := range []struct{ command, expr, want string }{
		{"run", "ttft_p99<=fast", `servebench run: --threshold "ttft_p99<=fast": the bound "fast" is not a duration (e.g. 500ms)`},
		{"run", "p(99)<500", `servebench run: --threshold "p(99)<500": unknown statistic "p(99)" (want attainment, wilson_lower, error_rate, qualified_rate, session_attainment, session_wilson_lower, acceptance_rate, mean_acceptance_length, jain_DIMENSION, or METRIC_pP with METRIC one of ttft, ttft_from_scheduled, tpot, itl, chunk_gap, max_gap, e2e, last_token, schedule_lag, client_queue and P a percentile, e.g. ttft_p99)`},
		{"run", "attainment=>0.9", `servebench run: --threshold "attainment=>0.9": unknown comparison "=>" (want <, <=, > or >=)`},
		{"sweep", "attainment>=95%", `servebench sweep: --threshold "attainment>=95%": the bound "95%" is not a number (e.g. 0.95)`},
	} {
		out := filepath.Join(t.TempDir(), "out")
		args := []string{tc.command, "--base-url", url, "--model", "m", "--endpoint", "chat", "--workload", writeWorkload(t, twoRows),
			"--arrival", "constant", "--count", "4", "--output", out, "--no-progress", "--threshold", "attainment>=0.5", "--threshold", tc.expr}
		if tc.command == "run" {
			args = append(args, "--rate", "10")
		} else {
			args = append(args, "--rates", "10")
		}
		code, _, stderr := runCLI(args...)
		if code != 1 || strings.TrimSpace(stderr) != tc.want {
			t.Errorf("%s --threshold %q: exit %d, stderr %q; want 1 and %q", tc.command, tc.expr, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s --threshold %q: the output directory was created (%v)", tc.command, tc.expr, err)
		}
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("%d requests were sent before the malformed threshold was refused", n)
	}
}

func TestThresholdRefusedWhereNoRunIsJudged(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--rate", "1", "--output", "o",
			"--shard", "0/2", "--run-id", "0190a5c4-0000-7000-8000-000000000000", "--start-at", "2030-01-01T00:00:00Z", "--threshold", "attainment>=0.9"},
			"servebench run: --threshold with --shard: a shard's report is one part of the run, not the run; give the thresholds to a run without --shard"},
		{[]string{"ab", "--threshold", "attainment>=0.9"}, "--threshold is refused: the comparison is the verdict"},
		{[]string{"k8s", "job", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--rate", "1", "--output", "/out",
			"--image", "i", "--volume-claim", "v", "--threshold", "attainment>=0.9"},
			"--threshold is refused: each of the Job's pods runs one shard, and a shard's report is one part of the run, not the run"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestNotDeliveredWinsOverAFailedThreshold(t *testing.T) {
	att := 0.5
	r := &report.Report{Offered: 2, Qualified: 1, Attainment: &att, InvalidReasons: []string{"1 of 2 offered requests were never sent"}}
	var stderr strings.Builder
	if code := verdictExitCode(r, 0.9, false, &stderr); code != 2 {
		t.Fatalf("invalid run with a failed threshold: exit %d, want 2\n%s", code, stderr.String())
	}
	r.Valid = true
	if code := verdictExitCode(r, -1, false, io.Discard); code != 3 {
		t.Fatalf("valid run with a failed threshold: exit %d, want 3", code)
	}
	if code := verdictExitCode(r, -1, true, io.Discard); code != 0 {
		t.Fatalf("valid run with every threshold passed: exit %d, want 0", code)
	}
}

func TestSweepThresholdsJudgeTheSelectedPoint(t *testing.T) {
	url := startSim(t, nil)
	args := []string{"sweep", "--rates", "5,10", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--duration", "500ms",
		"--schedule-lag-tolerance", "2s", "--no-backlog-growth=false", "--no-progress", "--threshold", "attainment>=1"}
	out := t.TempDir()
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	code, _, stderr := runCLI(append(args, "--output", out, "--step-summary", summary)...)
	if code != 0 || !strings.Contains(stderr, "thresholds at the selected point (10 req/s, rate-10):\n  PASS attainment>=1: measured 1 (5 of 5 offered qualified)\n") {
		t.Fatalf("exit %d (want 0), stderr:\n%s", code, stderr)
	}
	// The step summary: a row per tested rate (attainment 1.000 of 5
	// offered at 10 req/s, against the default 0.95) and the threshold at
	// the selected point.
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### servebench sweep: ", " 10 req/s (exit 0)\n", "| attainment | 5 req/s | 1.000 | >= 0.950 | pass |\n",
		"| attainment | 10 req/s | 1.000 | >= 0.950 | pass |\n", "| attainment | rate-10 | 1 (5 of 5 offered qualified) | >= 1 | pass |\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("step summary has no %q:\n%s", want, b)
		}
	}
	f := readThresholdsFile(t, out)
	if !f.Pass || len(f.Judged) != 1 || f.Judged[0].OfferedRPS == nil || *f.Judged[0].OfferedRPS != 10 || f.Judged[0].RunDir != "rate-10" {
		t.Fatalf("thresholds.json: %+v", f)
	}
	// The selected point's report.json holds the verdict; the other
	// rate's holds none.
	selected, err := report.ReadFile(filepath.Join(out, "rate-10", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(selected.Objectives) != 1 || selected.Objectives[0].Name != "attainment>=1" || selected.Objectives[0].Verdict != report.ObjectivePass ||
		*selected.Objectives[0].Measured != 1 {
		t.Fatalf("rate-10/report.json objectives: %+v", selected.Objectives)
	}
	if other, err := report.ReadFile(filepath.Join(out, "rate-5", "report.json")); err != nil || other.Objectives != nil {
		t.Fatalf("rate-5/report.json objectives: %v %+v", err, other)
	}
	out = t.TempDir()
	// Over 5 requests p50 has 2 beyond it (10 are needed for 5): unjudged;
	// the maximum is judged.
	code, _, stderr = runCLI(append(args, "--output", out, "--threshold", "e2e_p50<1us", "--threshold", "e2e_p100<1us")...)
	if code != 3 || !regexp.MustCompile(`(?m)^  FAIL e2e_p100<1us: measured [0-9.]+ ms \(p100 over [^,]+, n = 5\)$`).MatchString(stderr) ||
		!regexp.MustCompile(`(?m)^  UNJUDGED e2e_p50<1us: no value \(p50 needs at least 10 observations for 5 to lie beyond it, and its population has 5 \(.+\)\)$`).MatchString(stderr) ||
		!strings.Contains(stderr, "servebench sweep: a threshold did not pass at the selected point (an unjudged one, with no value, fails it too under --unjudged fail)\n") {
		t.Fatalf("exit %d (want 3), stderr:\n%s", code, stderr)
	}
}

func TestSweepWithNoPassingRateStaysExitFour(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.ErrorRate = 1 })
	out := t.TempDir()
	code, _, stderr := runCLI("sweep", "--rates", "5", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--duration", "400ms", "--skip-preflight",
		"--schedule-lag-tolerance", "2s", "--no-backlog-growth=false", "--no-progress", "--output", out, "--threshold", "error_rate<=1")
	if code != 4 || !strings.Contains(stderr, "servebench sweep: thresholds not judged: no point was selected\n") {
		t.Fatalf("exit %d (want 4), stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, threshold.FileName)); !os.IsNotExist(err) {
		t.Fatalf("thresholds.json written for a sweep that selected no point: %v", err)
	}
}

// report.json lists each threshold's verdict with its value and bound: 8
// requests against a healthy engine, all qualified (attainment 8/8 = 1,
// error rate 0/8 = 0); p99 of 8 TTFTs has none beyond it (500 are needed
// for 5), so it is unjudged; their maximum is above 1 µs, a failure.
// Under --unjudged fail the p99 is a failure that says it was unjudged.
func TestRunReportHoldsTheThresholdsVerdicts(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "attainment>=0.9", "--threshold", "error_rate<=0",
		"--threshold", "ttft_p99<=1h", "--threshold", "ttft_p100<=1us")...)
	if code != 3 {
		t.Fatalf("exit %d (want 3), stderr:\n%s", code, stderr)
	}
	rep, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	maxTTFT := rep.Percentiles[record.MetricTTFT].Max
	ttftPopulation := rep.Percentiles[record.MetricTTFT].Population
	if rep.Offered != 8 || len(rep.Objectives) != 4 || maxTTFT == nil {
		t.Fatalf("report.json: offered %d, objectives %+v", rep.Offered, rep.Objectives)
	}
	type row struct {
		name     string
		measured *float64
		bound    float64
		unit     string
		verdict  report.ObjectiveOutcome
		reason   string
	}
	want := []row{
		{"attainment>=0.9", new(1.0), 0.9, "fraction", report.ObjectivePass, "8 of 8 offered qualified"},
		{"error_rate<=0", new(0.0), 0, "fraction", report.ObjectivePass, "0 of 8 offered did not succeed"},
		{"ttft_p99<=1h", nil, 3.6e6, "ms", report.ObjectiveUnjudged, "p99 needs at least 500 observations for 5 to lie beyond it, and its population has 8 (" + ttftPopulation + ")"},
		{"ttft_p100<=1us", maxTTFT, 0.001, "ms", report.ObjectiveFail, "p100 over " + ttftPopulation + ", n = 8"},
	}
	for i, w := range want {
		o := rep.Objectives[i]
		sameValue := (o.Measured == nil) == (w.measured == nil) && (w.measured == nil || *o.Measured == *w.measured)
		if o.Name != w.name || o.Source != "threshold" || !sameValue || o.Bound == nil || *o.Bound != w.bound || o.Unit != w.unit ||
			o.Verdict != w.verdict || o.Reason != w.reason {
			t.Errorf("objective %d: %+v, want %+v", i, o, w)
		}
	}

	out = filepath.Join(t.TempDir(), "run")
	code, _, stderr = runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "ttft_p99<=1h", "--unjudged", "fail")...)
	if code != 3 {
		t.Fatalf("--unjudged fail: exit %d (want 3), stderr:\n%s", code, stderr)
	}
	rep, err = report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Objectives) != 1 || rep.Objectives[0].Verdict != report.ObjectiveFail ||
		rep.Objectives[0].Reason != "unjudged: p99 needs at least 500 observations for 5 to lie beyond it, and its population has 8 ("+
			rep.Percentiles[record.MetricTTFT].Population+") (--unjudged fail makes a threshold without its data a failure)" {
		t.Fatalf("--unjudged fail: objectives %+v", rep.Objectives)
	}
}

// Thresholds on sessions, speculative decoding and fairness against an
// engine and workload that have none of them are unjudged, with what is
// missing, and fail the gate only under --unjudged fail. With the
// engine's metrics URL and a draft model of 3 tokens, each accepted, both
// figures are judged: each of the 8 four-token requests makes one draft
// after its first token, and its verification step yields the 3 tokens
// left, 2 accepted and the target model's own, so 16 of 24 draft tokens
// are accepted (0.667) and the mean acceptance length is 1 + 16/8 = 3.
func TestRunThresholdsWithoutSessionsSpeculationOrTenantsAreUnjudged(t *testing.T) {
	url := startSim(t, nil)
	args := []string{"--threshold", "session_attainment>=0.9", "--threshold", "acceptance_rate>=0.5", "--threshold", "jain_tenant>=0.9"}
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out), args...)...)
	if code != 0 {
		t.Fatalf("exit %d (want 0), stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"UNJUDGED session_attainment>=0.9: no value (the session attainment was not measured: the report has no sessions (the workload has no conversations))\n",
		"UNJUDGED acceptance_rate>=0.5: no value (the acceptance rate was not measured: the run scraped no engine metrics (give it the engine's metrics URL))\n",
		"UNJUDGED jain_tenant>=0.9: no value (Jain's index over tenant was not measured: no request carried a tenant)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	rep, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Objectives) != 3 || rep.Objectives[2].Verdict != report.ObjectiveUnjudged || rep.Objectives[2].Unit != "index" {
		t.Fatalf("report.json objectives %+v", rep.Objectives)
	}
	out = filepath.Join(t.TempDir(), "run")
	if code, _, stderr = runCLI(append(append(thresholdRunArgs(t, url, out), args...), "--unjudged", "fail")...); code != 3 {
		t.Fatalf("--unjudged fail: exit %d (want 3), stderr:\n%s", code, stderr)
	}

	spec := startSim(t, func(c *simengine.Config) { c.SpecTokens, c.SpecAcceptance = 3, 1 })
	out = filepath.Join(t.TempDir(), "run")
	code, _, stderr = runCLI(append(thresholdRunArgs(t, spec, out), "--metrics-url", spec+"/metrics",
		"--threshold", "acceptance_rate>=0.6", "--threshold", "mean_acceptance_length>=3")...)
	if code != 0 || !strings.Contains(stderr, "PASS acceptance_rate>=0.6: measured 0.667 (16 accepted of 24 draft tokens)\n") ||
		!strings.Contains(stderr, "PASS mean_acceptance_length>=3: measured 3 (1 + 16 accepted tokens / 8 drafts)\n") {
		t.Fatalf("exit %d (want 0), stderr:\n%s", code, stderr)
	}
}

// --require-attainment is a run's objective too: report.json lists it
// (8 of 8 qualified: 1 against 1); a run judged against nothing lists no
// objectives.
func TestRunReportHoldsTheRequiredAttainment(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runCLI(append(thresholdRunArgs(t, url, out), "--require-attainment", "1")...); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	rep, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Objectives) != 1 {
		t.Fatalf("objectives %+v", rep.Objectives)
	}
	if o := rep.Objectives[0]; o.Name != "attainment>=1" || o.Source != "--require-attainment" || o.Measured == nil || *o.Measured != 1 ||
		*o.Bound != 1 || o.Verdict != report.ObjectivePass || o.Reason != "8 of 8 offered qualified" {
		t.Fatalf("objective %+v", o)
	}
	out = filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runCLI(thresholdRunArgs(t, url, out)...); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil || strings.Contains(string(b), `"objectives"`) {
		t.Fatalf("a run judged against nothing: %v, objectives in report.json: %v", err, strings.Contains(string(b), `"objectives"`))
	}
}
