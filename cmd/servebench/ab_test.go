package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// eightTokenRows force eight output tokens per request.
const eightTokenRows = `{"id":"a","prompt":"is the pager quiet","max_tokens":8,"ignore_eos":true}
{"id":"b","prompt":"summarize the incident","max_tokens":8,"ignore_eos":true}
`

// A candidate whose decode step is four times the baseline's is a TPOT
// regression: ab runs the rounds in alternating order into the documented
// layout, exits 5, and compare on the same directories agrees.
func TestABFindsAFourTimesSlowerDecodeStep(t *testing.T) {
	slow := func(c *simengine.Config) { c.TimeScale, c.StepBase = 1, 32e6 }
	fast := func(c *simengine.Config) { c.TimeScale, c.StepBase = 1, 8e6 }
	baseURL, candURL := startSim(t, fast), startSim(t, slow)
	out := filepath.Join(t.TempDir(), "ab")
	code, stdout, stderr := runCLI("ab", "--baseline-url", baseURL, "--candidate-url", candURL, "--model", "simengine-tiny",
		"--endpoint", "completions", "--workload", writeWorkload(t, eightTokenRows), "--arrival", "poisson", "--rate", "10",
		"--seed", "7", "--count", "6", "--rounds", "2", "--schedule-lag-tolerance", "2s", "--tolerance", "tpot_p50=50%", "--output", out)
	if code != 5 {
		t.Fatalf("exit %d, want 5; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "run order: [baseline/round-1 candidate/round-1 candidate/round-2 baseline/round-2]") {
		t.Errorf("the order is not ABBA:\n%s", stderr)
	}
	full, err := os.ReadFile(filepath.Join(out, compare.ComparisonTextFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(full), "order: ABBA (ABBA; A baseline, B candidate): mean position baseline 2.5, candidate 2.5") ||
		!strings.Contains(string(full), "engines: reused: the engines were running before the first round") {
		t.Errorf("compare.txt does not give the order and the engines:\n%s", full)
	}
	for _, want := range []string{
		"load:        poisson at 10 req/s, 6 offered over a ",
		"\nverdict:     regression (exit 5)\nvalid:       yes: every run delivered its load\nrounds:      baseline 2, candidate 2\n",
		"\n  tpot_p50  ",
		"\nfull report: " + filepath.Join(out, compare.ComparisonTextFile) + " (also compare.json, compare.html)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, side := range []string{"baseline", "candidate"} {
		for k, seed := range map[string]int64{"round-1": 7, "round-2": 8} {
			b, err := os.ReadFile(filepath.Join(out, side, k, record.ReportFile))
			if err != nil {
				t.Fatal(err)
			}
			var r report.Report
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			if r.Experiment == nil || r.Experiment.Arrival.Seed != seed {
				t.Errorf("%s/%s: arrival %+v, want seed %d", side, k, r.Experiment, seed)
			}
		}
	}
	var c compare.Comparison
	b, err := os.ReadFile(filepath.Join(out, compare.ComparisonFile))
	if err != nil || json.Unmarshal(b, &c) != nil {
		t.Fatalf("compare.json: %v", err)
	}
	if c.Verdict != compare.Regression || c.Rounds != (compare.Rounds{Baseline: 2, Candidate: 2}) || len(c.BaselineRuns) != 2 {
		t.Errorf("compare.json: %+v", c)
	}
	if c.RunOrder == nil || len(c.RunOrder.Runs) != 4 || c.RunOrder.Runs[2] != (compare.RunPosition{Position: 3, Side: compare.Candidate, Round: 2}) {
		t.Errorf("compare.json run order: %+v", c.RunOrder)
	}
	if len(c.Notes) != 0 || len(c.AllowedDifferences) != 0 {
		t.Errorf("round pairs ran different schedules: %v %v", c.Notes, c.AllowedDifferences)
	}
	if _, err := os.Stat(filepath.Join(out, compare.ComparisonHTMLFile)); err != nil {
		t.Error(err)
	}
	code, stdout, stderr = runCLI("compare", "--tolerance", "tpot_p50=50%", "--format", "json", filepath.Join(out, "baseline"), filepath.Join(out, "candidate"))
	if code != 5 || !strings.Contains(stdout, `"verdict": "regression"`) {
		t.Errorf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	html := filepath.Join(t.TempDir(), "c.html")
	code, _, stderr = runCLI("compare", "--format", "html", "--output", html, "--tolerance", "tpot_p50=50%", "--tolerance", "tpot_p99=100%",
		filepath.Join(out, "baseline"), filepath.Join(out, "candidate"))
	page, _ := os.ReadFile(html)
	if code == 1 || !strings.Contains(string(page), "<svg") || !strings.Contains(string(page), "tpot_p99") {
		t.Errorf("compare --format html: exit %d, %s", code, stderr)
	}
}

func TestABRefusesFlagsThatDoNotApply(t *testing.T) {
	w := writeWorkload(t, eightTokenRows)
	common := []string{"ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2", "--model", "m",
		"--workload", w, "--rate", "1", "--count", "1", "--output", t.TempDir()}
	for flag, want := range map[string]string{
		"--require-attainment=0.9": "--require-attainment is refused",
		"--base-url=http://x":      "--base-url and --metrics-url are replaced",
	} {
		code, _, stderr := runCLI(append(common, flag)...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %s", flag, code, stderr)
		}
	}
}

// writeRun writes a report.json into dir.
func writeRun(t *testing.T, dir string, r report.Report) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	if err := os.WriteFile(filepath.Join(dir, record.ReportFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCompareExitCodesOnBadInputAndInvalidLoad(t *testing.T) {
	dir := t.TempDir()
	att := 0.9
	good := report.Report{Schema: report.ReportSchema, Offered: 10, ProtocolSuccesses: 10, Qualified: 9, Attainment: &att,
		Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"}}
	writeRun(t, filepath.Join(dir, "b"), good)
	late := good
	late.Valid, late.InvalidReasons = false, []string{"1 of 10 offered requests were sent more than 20 ms after their scheduled time"}
	writeRun(t, filepath.Join(dir, "late"), late)
	other := good
	other.Inputs.WorkloadSHA256 = "w2"
	writeRun(t, filepath.Join(dir, "other"), other)

	code, stdout, _ := runCLI("compare", "--tolerance", "attainment=0.01", filepath.Join(dir, "b"), filepath.Join(dir, "late"))
	if code != 2 || !strings.Contains(stdout, "NOT EVIDENCE") {
		t.Errorf("invalid load: exit %d\n%s", code, stdout)
	}
	code, _, stderr := runCLI("compare", filepath.Join(dir, "b"), filepath.Join(dir, "other"))
	if code != 1 || !strings.Contains(stderr, "workload") {
		t.Errorf("different workloads: exit %d, %s", code, stderr)
	}
	code, stdout, _ = runCLI("compare", "--allow-different-workloads", "--tolerance", "attainment=0.01", filepath.Join(dir, "b"), filepath.Join(dir, "other"))
	if code != 6 || !strings.Contains(stdout, "allowed with --allow-different-workloads") || !strings.Contains(stdout, "verdict: advisory (exit 6)") {
		t.Errorf("allowed different workloads, one round each: exit %d, want 6 (advisory)\n%s", code, stdout)
	}
	code, _, stderr = runCLI("compare", "--tolerance", "latency=5%", filepath.Join(dir, "b"), filepath.Join(dir, "b"))
	if code != 1 || !strings.Contains(stderr, "unknown statistic") {
		t.Errorf("unknown tolerance: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCLI("compare", filepath.Join(dir, "missing"), filepath.Join(dir, "b"))
	if code != 1 || !strings.Contains(stderr, "missing") {
		t.Errorf("missing directory: exit %d, %s", code, stderr)
	}
}
