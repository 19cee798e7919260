package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tieredAdditions give the check contract (eight requests, attainment
// 1.000 on a healthy engine) two tiers: functional bounds p50 TTFT (8
// requests put 4 beyond p50, fewer than 5: unjudged, 10 needed) and
// complete, the enforced tier, an attainment of 0.9; target, above it,
// asks for a qualified rate of 1000 req/s, which 8 requests at 40 req/s
// cannot give: informational.
const tieredAdditions = `tiers:
  functional:
    percentiles:
      - {metric: ttft, p: 50, below: 5s}
  complete:
    attainment: 0.9
  target:
    qualified_rate: 1000
enforce: complete
`

// writeTieredContract writes the check contract with tieredAdditions.
func writeTieredContract(t *testing.T) string {
	t.Helper()
	p := writeCheckContract(t, t.TempDir(), "tiered", "smoke", "", "40")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, tieredAdditions...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The unjudged p50 and the informational target pass the contract (exit
// 0), each named on its line; --unjudged fail makes the p50 a failure
// (exit 3). The JUnit report skips the unjudged objective with its reason.
func TestCheckReportsUnjudgedAndInformationalObjectives(t *testing.T) {
	checkEnv(t)
	p := writeTieredContract(t)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, stdout, stderr := runCLI("check", "--junit", junit, p)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, line := range []string{
		"    UNJUDGED  " + p + ":23  functional: p50 TTFT <= 5000 ms: unjudged: p50 TTFT needs at least 10 observations for 5 to lie beyond it, and its population has 8 (",
		"    PASS  " + p + ":25  complete: attainment >= 0.900: 1.000 (8 of 8)\n",
		"    INFO  " + p + ":27  target (informational): qualified request rate >= 1000.000 req/s: ",
		"check: 5 passed, 0 failed, 0 skipped, 1 unjudged, 1 informational in 1 contract: exit 0 (every objective holds)\n",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("stdout has no %q:\n%s", line, stdout)
		}
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var got junitTestSuites
	if err := xml.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Skipped != 1 || got.Failures != 0 || !strings.Contains(string(b), `<skipped message="unjudged: p50 TTFT needs at least 10 observations`) {
		t.Errorf("junit:\n%s", b)
	}
	code, stdout, _ = runCLI("check", "--unjudged", "fail", p)
	if code != 3 || !strings.Contains(stdout, "    FAIL  "+p+":23  functional: p50 TTFT <= 5000 ms\n          unjudged: p50 TTFT needs at least 10 observations") {
		t.Errorf("--unjudged fail: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runCLI("check", "--unjudged", "maybe", p)
	if code != 1 || !strings.Contains(stderr, "--unjudged: want skip or fail") {
		t.Errorf("--unjudged maybe: exit %d %s", code, stderr)
	}
}
