package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/record"
)

// wantOneScreen fails when a summary is 25 lines or more, or when a line
// other than a path's is wider than 100 columns.
func wantOneScreen(t *testing.T, summary string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(summary, "\n"), "\n")
	if len(lines) >= 25 {
		t.Errorf("summary of %d lines:\n%s", len(lines), summary)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 && !strings.Contains(l, string(filepath.Separator)) {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunPrintsTheSummaryAndWithReportFullTheTextOfReportTxt: by default a
// run prints the one-screen summary, which names report.txt; with
// --report full it prints the full text report, byte for byte that file.
func TestRunPrintsTheSummaryAndWithReportFullTheTextOfReportTxt(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI(runArgs(t, url, "--output", out)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"load:        constant at 40 req/s, 4 offered over a 0.1 s window (chat)\n",
		"attainment:  100.0% (4 of 4 offered); Wilson lower bound 59.7% at 95% confidence\n",
		"latency ms          p50        p99        n\n",
		"verdict:     pass: the load was delivered; no gate declared (--require-attainment, --threshold)\n",
		"full report: " + filepath.Join(out, record.ReportTextFile) + " (also report.json, report.html)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.HasPrefix(stdout, "load:") || strings.Contains(stdout, "servebench report") {
		t.Errorf("the summary is not what run prints first, or the full report is printed too:\n%s", stdout)
	}
	wantOneScreen(t, stdout)
	full := readText(t, filepath.Join(out, record.ReportTextFile))
	if !strings.HasPrefix(full, "====================== servebench report =====================\n") {
		t.Fatalf("report.txt is not the full text report:\n%s", full)
	}

	out = filepath.Join(t.TempDir(), "run")
	code, stdout, stderr = runCLI(runArgs(t, url, "--output", out, "--report", "full")...)
	if code != 0 {
		t.Fatalf("--report full: exit %d, stderr:\n%s", code, stderr)
	}
	if full := readText(t, filepath.Join(out, record.ReportTextFile)); stdout != full || !strings.Contains(stdout, "Load delivery") {
		t.Fatalf("--report full printed\n%s\nreport.txt holds\n%s", stdout, full)
	}
}

// TestSweepPrintsItsSummaryAndWithReportFullTheTextOfSweepTxt: a sweep's
// summary lists every point's verdict and the knee's run; --report full
// prints the table, byte for byte sweep.txt.
func TestSweepPrintsItsSummaryAndWithReportFullTheTextOfSweepTxt(t *testing.T) {
	url := startSim(t, nil)
	args := []string{"sweep", "--rates", "10,5", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--count", "4", "--schedule-lag-tolerance", "2s",
		"--no-backlog-growth=false", "--no-progress"}
	out := t.TempDir()
	code, stdout, stderr := runCLI(append(args, "--output", out)...)
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"sweep:       2 tested points; a point passes at attainment >= 0.95, its load delivered\n" +
			"points:      5 req/s pass, 10 req/s pass\n" +
			"at the knee, 10 req/s:\n" +
			"load:        constant at 10 req/s, 4 offered over a 0.4 s window (chat)\n",
		"verdict:     knee: 10 req/s is the highest passing tested offered rate\n",
		"full report: " + filepath.Join(out, sweepTextFile) + " (also sweep.json, sweep.html)\n" +
			"             " + filepath.Join(out, "rate-10", record.ReportTextFile) + " (this point's run)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	wantOneScreen(t, stdout)
	if !strings.Contains(stderr, "sweep directory: "+out+" (sweep.txt, sweep.json, sweep.html, rate-*)") {
		t.Errorf("stderr does not name sweep.txt:\n%s", stderr)
	}

	out = t.TempDir()
	code, stdout, stderr = runCLI(append(args, "--output", out, "--report", "full")...)
	if code != 0 {
		t.Fatalf("--report full: exit %d, stderr:\n%s", code, stderr)
	}
	if full := readText(t, filepath.Join(out, sweepTextFile)); stdout != full || !strings.Contains(stdout, "offered rps") {
		t.Fatalf("--report full printed\n%s\nsweep.txt holds\n%s", stdout, full)
	}
}

// TestABReportFullPrintsTheTextOfCompareTxt: with --report full ab prints
// the full comparison, byte for byte compare.txt.
func TestABReportFullPrintsTheTextOfCompareTxt(t *testing.T) {
	baseURL, candURL := startSim(t, nil), startSim(t, nil)
	out := filepath.Join(t.TempDir(), "ab")
	code, stdout, stderr := runCLI("ab", "--baseline-url", baseURL, "--candidate-url", candURL, "--model", "simengine-tiny",
		"--endpoint", "chat", "--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "4",
		"--rounds", "1", "--schedule-lag-tolerance", "2s", "--output", out, "--report", "full")
	if code != 6 {
		t.Fatalf("exit %d, want 6 (one round is advisory); stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if full := readText(t, filepath.Join(out, compare.ComparisonTextFile)); stdout != full || !strings.Contains(stdout, "method: ") {
		t.Fatalf("--report full printed\n%s\ncompare.txt holds\n%s", stdout, full)
	}
}

// TestReportRefusesAnUnknownForm: every command that takes --report names
// the flag and its values before anything is sent.
func TestReportRefusesAnUnknownForm(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	common := []string{"--model", "m", "--workload", wl, "--count", "1", "--output", t.TempDir(), "--report", "brief"}
	for _, args := range [][]string{
		append([]string{"run", "--base-url", "http://127.0.0.1:1", "--rate", "1"}, common...),
		append([]string{"sweep", "--base-url", "http://127.0.0.1:1", "--rates", "1"}, common...),
		append([]string{"ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2", "--rate", "1"}, common...),
		{"demo", "--report", "brief"},
	} {
		code, _, stderr := runCLI(args...)
		if want := `--report: want summary or full, got "brief"`; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", args[0], code, stderr, want)
		}
	}
}

// TestSummaryVerdictShowsEveryThreshold: the summary's verdict says which
// gate failed, then the thresholds' own lines, the ones stderr prints.
func TestSummaryVerdictShowsEveryThreshold(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI(append(thresholdRunArgs(t, url, out),
		"--threshold", "attainment>=1", "--threshold", "ttft_p100<=1us")...)
	if code != 3 {
		t.Fatalf("exit %d, want 3; stderr:\n%s", code, stderr)
	}
	want := regexp.MustCompile(`(?m)^verdict:     FAIL: a threshold did not pass \(exit 3\)\n` +
		`             PASS attainment>=1: measured 1 \(8 of 8 offered qualified\)\n` +
		`             FAIL ttft_p100<=1us: measured [0-9.]+ ms \(p100 over [^\n]+, n = 8\)\n` +
		`full report: `)
	if !want.MatchString(stdout) {
		t.Fatalf("summary lacks %s:\n%s", want, stdout)
	}
	for _, l := range []string{"PASS attainment>=1: measured 1 (8 of 8 offered qualified)\n"} {
		if !strings.Contains(stderr, l) {
			t.Errorf("stderr lacks %q: the summary's line is not the threshold's own\n%s", l, stderr)
		}
	}

	out = filepath.Join(t.TempDir(), "run")
	code, stdout, stderr = runCLI(append(thresholdRunArgs(t, url, out), "--threshold", "error_rate<=0")...)
	if code != 0 || !strings.Contains(stdout, "verdict:     pass: every threshold holds\n             PASS error_rate<=0: measured 0 (0 of 8 offered did not succeed)\n") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestSweepSummaryShowsTheThresholdsAtTheKnee: a sweep's summary judges
// the thresholds at the knee, the selected point.
func TestSweepSummaryShowsTheThresholdsAtTheKnee(t *testing.T) {
	url := startSim(t, nil)
	code, stdout, stderr := runCLI("sweep", "--rates", "5,10", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--count", "4", "--schedule-lag-tolerance", "2s",
		"--no-backlog-growth=false", "--no-progress", "--output", t.TempDir(), "--threshold", "error_rate<=0")
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if want := "\n             PASS error_rate<=0: measured 0 (0 of 4 offered did not succeed)\nfull report: "; !strings.Contains(stdout, "at the knee, 10 req/s:\n") || !strings.Contains(stdout, want) {
		t.Fatalf("summary lacks the knee's threshold line %q:\n%s", want, stdout)
	}
}
