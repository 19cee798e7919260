package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Twelve releases whose attainment drops from 0.99 to 0.90 at the seventh:
// history finds one change there, 9 points worse, in text, JSON and HTML.
func TestHistoryFindsTheReleaseWhereAttainmentDropped(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for i := range 12 {
		q := 99 - i%2 // 99, 98, 99, 98, … then 90, 89, …
		if i >= 6 {
			q = 90 - i%2
		}
		a := float64(q) / 100
		d := filepath.Join(dir, fmt.Sprintf("v1.%02d", i))
		writeRun(t, d, report.Report{Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: q,
			Attainment: &a, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"}})
		dirs = append(dirs, d)
	}
	code, stdout, stderr := runCLI(append([]string{"history"}, dirs...)...)
	if code != 0 || !strings.Contains(stdout, "change starting at v1.06: 0.9850 -> 0.8950, +9.00 pt") {
		t.Errorf("text: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(append([]string{"history", "--format", "json"}, dirs...)...)
	if code != 0 || !strings.Contains(stdout, `"release": "v1.06"`) {
		t.Errorf("json: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(append([]string{"history", "--format", "html"}, dirs...)...)
	if code != 0 || !strings.Contains(stdout, "<svg") {
		t.Errorf("html: exit %d", code)
	}
	code, _, stderr = runCLI("history", dirs[0])
	if code != 1 || !strings.Contains(stderr, "two or more") {
		t.Errorf("one release: exit %d %s", code, stderr)
	}
	code, _, stderr = runCLI("history", dirs[0], filepath.Join(dir, "missing"))
	if code != 1 || !strings.Contains(stderr, "missing") {
		t.Errorf("missing release: exit %d %s", code, stderr)
	}
}

// Three releases, even with attainment falling from 0.99 to 0.50, cannot
// show a change at the default false-alarm rate: history says so and how
// many releases it needs, in text and JSON (min_releases), and exits 0.
func TestHistoryOverThreeReleasesSaysHowManyItNeeds(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for i, q := range []int{99, 99, 50} {
		a := float64(q) / 100
		d := filepath.Join(dir, fmt.Sprintf("v%d", i+1))
		writeRun(t, d, report.Report{Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: q,
			Attainment: &a, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"}})
		dirs = append(dirs, d)
	}
	code, stdout, stderr := runCLI(append([]string{"history"}, dirs...)...)
	const notice = "too short: no change can be shown in 3 releases at a false-alarm rate of 0.05: the permutation test needs at least 8 releases to declare one\n"
	if code != 0 || !strings.Contains(stdout, notice) || strings.Contains(stdout, "  no change\n") ||
		!strings.Contains(stdout, "attainment: 0.9900 0.9900 0.5000\n  no change can be shown (too short)\n") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(append([]string{"history", "--format", "json", "--false-alarm", "0.1"}, dirs...)...)
	if code != 0 || !strings.Contains(stdout, `"min_releases": 6,`) {
		t.Errorf("json: exit %d\n%s", code, stdout)
	}
}

// Six releases with p99 TTFT 100, 110, 90, 105, 130 and 135 ms (their
// requests' TTFTs all equal, so each run's p99 is that value): under
// --policy ratio v5 and v6 are above 1.2 × 105 ms = 126 ms, the median
// of their three releases before, so the newest is a regression, exit 5,
// with the verdict in text, JSON and the step summary. Under the default
// changepoint policy six releases are too short to judge: exit 0.
func TestHistoryRatioPolicyExitsFiveOnARegression(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for i, ms := range []float64{100, 110, 90, 105, 130, 135} {
		a := 1.0
		v := ms
		d := filepath.Join(dir, fmt.Sprintf("v%d", i+1))
		writeRun(t, d, report.Report{Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: 100,
			Attainment: &a, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"},
			Percentiles: map[record.Metric]report.Distribution{record.MetricTTFT: {Population: "successful requests", N: 100, P50: &v, P99: &v, Max: &v}}})
		dirs = append(dirs, d)
	}
	summary := filepath.Join(dir, "summary.md")
	code, stdout, stderr := runCLI(append([]string{"history", "--policy", "ratio", "--step-summary", summary}, dirs...)...)
	if code != 5 || !strings.Contains(stdout, "  ttft_p99: v4 ok, v5 violates (130.00 ms > 126.00 ms), v6 violates (135.00 ms > 126.00 ms)\n") ||
		!strings.Contains(stdout, "newest release v6 under the ratio policy: regression\n") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "### servebench history: newest release v6 under the ratio policy: regression (exit 5)\n") ||
		!strings.Contains(string(b), "| ttft_p99 | 105.00 ms | 135.00 ms | +28.57% | – | 20% | **regression** |\n") {
		t.Errorf("step summary:\n%s", b)
	}
	code, stdout, _ = runCLI(append([]string{"history", "--policy", "ratio", "--format", "json"}, dirs...)...)
	if code != 5 || !strings.Contains(stdout, `"policy": "ratio"`) || !strings.Contains(stdout, `"verdict": "regression"`) || !strings.Contains(stdout, `"window": 3`) {
		t.Errorf("json: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(append([]string{"history", "--policy", "ratio", "--format", "html"}, dirs...)...)
	if code != 5 || !strings.Contains(stdout, "<h2>Ratio policy</h2>") || !strings.Contains(stdout, "violates (135.00 ms &gt; 126.00 ms)") {
		t.Errorf("html: exit %d", code)
	}
	code, stdout, _ = runCLI(append([]string{"history"}, dirs...)...)
	if code != 0 || !strings.Contains(stdout, "newest release v6 under the changepoint policy: insufficient_data\n") {
		t.Errorf("changepoint: exit %d\n%s", code, stdout)
	}
	for _, bad := range [][]string{{"--policy", "ratio", "--window", "0"}, {"--policy", "hud"}, {"--ratio", "2"}} {
		code, _, stderr = runCLI(append(append([]string{"history"}, bad...), dirs...)...)
		if code != 1 || !strings.Contains(stderr, bad[len(bad)-2]) {
			t.Errorf("%v: exit %d %s", bad, code, stderr)
		}
	}
}
