package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ab --dry-run sends nothing: at its defaults (150 requests a round, at
// most 20 rounds) the plan can decide every default deciding statistic
// (exit 0); at 40 requests and 4 fixed rounds a 1-point attainment
// tolerance cannot be decided, and the check names the requests a round
// that can (exit 1). The URLs need not answer.
func TestABDryRunChecksThePlanOnly(t *testing.T) {
	w := writeWorkload(t, eightTokenRows)
	out := filepath.Join(t.TempDir(), "ab")
	code, stdout, stderr := runCLI("ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2",
		"--model", "m", "--workload", w, "--output", out, "--dry-run")
	if code != 0 || !strings.HasPrefix(stdout, "plan: 150 requests a round, rounds until decided, at most 20: can decide every deciding statistic") {
		t.Errorf("defaults: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--dry-run made the output directory (stat: %v)", err)
	}
	code, stdout, stderr = runCLI("ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:1",
		"--model", "m", "--workload", w, "--output", out, "--dry-run", "--count", "40", "--rounds", "4", "--tolerance", "attainment=1%")
	if code != 1 || !strings.Contains(stdout, "cannot decide: a 1 pt attainment tolerance needs about 254 requests a round (this plan: 40)") {
		t.Errorf("40 requests × 4 rounds: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "WARNING: the baseline and the candidate are one server (http://127.0.0.1:1)") {
		t.Errorf("no same-server warning:\n%s", stderr)
	}
}

// Bad input exits 1 before any load, naming the flag.
func TestABRefusesPlansThatCannotRun(t *testing.T) {
	w := writeWorkload(t, eightTokenRows)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-rounds", "3"}, "--max-rounds: want at least 4 with --rounds auto"},
		{[]string{"--tolerance", "attainment=1%", "--decide", "tpot_p50"}, `--decide: the deciding statistic "tpot_p50" is not compared (compared: attainment)`},
		{[]string{"--rounds", "zero"}, "want auto or a whole number of rounds"},
	} {
		args := append([]string{"ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2",
			"--model", "m", "--workload", w, "--output", filepath.Join(t.TempDir(), "ab")}, tc.args...)
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 1 with %q\n%s", tc.args, code, tc.want, stderr)
		}
	}
}
