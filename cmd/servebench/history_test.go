package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

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
