package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// writeRounds writes one side's rounds as round-K run directories, each
// with qualified of 100 offered requests qualified, arrival seed 7 + K − 1.
func writeRounds(t *testing.T, dir string, qualified ...int) {
	t.Helper()
	for k, q := range qualified {
		a := float64(q) / 100
		writeRun(t, filepath.Join(dir, fmt.Sprintf("round-%d", k+1)), report.Report{
			Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: q, Attainment: &a, Valid: true,
			Inputs:     report.Inputs{WorkloadSHA256: "w1"},
			Experiment: &report.Experiment{Arrival: schedule.ArrivalSpec{Process: "poisson", RateRPS: 5, Seed: int64(7 + k)}},
		})
	}
}

// Two rounds of attainment, baseline 0.90 and 0.94, candidate 0.88 and
// 0.94: the drops 0.02 and 0 leave a 5-point tolerance undecided. That
// exits 6 by default, 0 with --allow-inconclusive, and --strict is
// accepted with a deprecation note and changes nothing.
func TestCompareInconclusiveExitsSixUnlessAllowed(t *testing.T) {
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base"), filepath.Join(dir, "cand")
	writeRounds(t, base, 90, 94)
	writeRounds(t, cand, 88, 94)
	code, stdout, stderr := runCLI("compare", "--tolerance", "attainment=5%", base, cand)
	if code != 6 || !strings.Contains(stdout, "verdict: inconclusive (exit 6)") || !strings.Contains(stderr, "--allow-inconclusive lets an inconclusive verdict exit 0") {
		t.Errorf("inconclusive: exit %d, want 6 and the advice in CLI terms\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI("compare", "--allow-inconclusive", "--tolerance", "attainment=5%", base, cand)
	if code != 0 || !strings.Contains(stdout, "inconclusive allowed to pass (--allow-inconclusive)") {
		t.Errorf("--allow-inconclusive: exit %d, want 0\n%s", code, stdout)
	}
	code, _, stderr = runCLI("compare", "--strict", "--tolerance", "attainment=5%", base, cand)
	if code != 6 || !strings.Contains(stderr, "--strict is deprecated and changes nothing") {
		t.Errorf("--strict: exit %d, want 6 with a deprecation note\n%s", code, stderr)
	}
}

// A round whose two sides ran different seeds is refused with exit 1,
// naming the round and the field; --allow-different-workloads compares
// anyway and the verdict says so.
func TestCompareRefusesRoundsWithDifferentSeeds(t *testing.T) {
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base"), filepath.Join(dir, "cand")
	writeRounds(t, base, 90, 94)
	writeRounds(t, cand, 88, 94)
	a := 0.94
	writeRun(t, filepath.Join(cand, "round-2"), report.Report{
		Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: 94, Attainment: &a, Valid: true,
		Inputs:     report.Inputs{WorkloadSHA256: "w1"},
		Experiment: &report.Experiment{Arrival: schedule.ArrivalSpec{Process: "poisson", RateRPS: 5, Seed: 9}},
	})
	code, _, stderr := runCLI("compare", "--tolerance", "attainment=5%", base, cand)
	if code != 1 || !strings.Contains(stderr, "round 2: the seed differs: baseline 8, candidate 9") {
		t.Errorf("different seeds: exit %d, want 1 naming the field\n%s", code, stderr)
	}
	code, stdout, _ := runCLI("compare", "--allow-different-workloads", "--tolerance", "attainment=5%", base, cand)
	if code != 6 || !strings.Contains(stdout, "allowed with --allow-different-workloads") || !strings.Contains(stdout, "round 2: the seed differs") {
		t.Errorf("allowed: exit %d\n%s", code, stdout)
	}
}
