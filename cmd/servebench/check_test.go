package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/suites"
)

// checkContract is a contract against the in-process simulated engine:
// eight requests at 40 req/s. Its lines: objectives 16, attainment 17,
// error_rate 18.
const checkContract = `name: %s
labels: [%s]
engine:
  kind: simengine
  args: ["--time-scale=0.05", "--seed=7"%s]
workload:
  file: w.jsonl
arrival:
  process: constant
  rate: %s
count: 8
timeouts:
  total: 20s
slo:
  ttft: 5s
objectives:
  attainment: 0.9
  error_rate: 0.01
schedule_lag_tolerance: 5s
`

// writeCheckContract writes a contract named name with label and extra
// engine arguments into dir, beside its workload, and returns its path.
func writeCheckContract(t *testing.T, dir, name, label, engineArgs, rate string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(twoRows), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(p, []byte(fmt.Sprintf(checkContract, name, label, engineArgs, rate)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkEnv keeps the runs' artifacts in a temporary directory and away
// from a CI job's own step summary.
func checkEnv(t *testing.T) {
	t.Setenv(suites.EnvArtifacts, t.TempDir())
	t.Setenv(stepsummary.EnvVar, "")
}

func TestCheckPassesAContractWithOneLinePerObjective(t *testing.T) {
	checkEnv(t)
	p := writeCheckContract(t, t.TempDir(), "fast", "smoke", "", "40")
	code, stdout, stderr := runCLI("check", p)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := "contract fast (" + p + ")\n" +
		"  constant 8 requests at 40 req/s\n" +
		"    PASS  " + p + ":16  no lost requests\n" +
		"    PASS  " + p + ":16  valid load: 8 of 8 sent, 0 late\n" +
		"    PASS  " + p + ":17  attainment >= 0.900: 1.000 (8 of 8)\n" +
		"    PASS  " + p + ":18  error rate <= 0.010: 0.000 (0 of 8)\n" +
		"check: 4 passed, 0 failed, 0 skipped in 1 contract: exit 0 (every objective holds)\n"
	if stdout != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	if !strings.Contains(stderr, "servebench: fast, constant 8 requests at 40 req/s: run directory ") {
		t.Errorf("stderr does not name the run directory:\n%s", stderr)
	}
}

func TestCheckExitsThreeWhenAnObjectiveFails(t *testing.T) {
	checkEnv(t)
	p := writeCheckContract(t, t.TempDir(), "failing", "smoke", `, "--error-rate=1"`, "40")
	code, stdout, stderr := runCLI("check", p)
	if code != 3 {
		t.Fatalf("exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, line := range []string{
		"    PASS  " + p + ":16  valid load: 8 of 8 sent, 0 late\n",
		"    FAIL  " + p + ":17  attainment >= 0.900: 0.000 (0 of 8)\n          Expected attainment 0.000 (0 of 8 offered) to be at least 0.900\n",
		"    FAIL  " + p + ":18  error rate <= 0.010: 1.000 (8 of 8)\n",
		"check: 2 passed, 2 failed, 0 skipped in 1 contract: exit 3 (an objective failed on delivered load)\n",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("stdout has no %q:\n%s", line, stdout)
		}
	}
}

func TestCheckRefusesAMalformedContractBeforeAnyLoad(t *testing.T) {
	checkEnv(t)
	dir := t.TempDir()
	good := writeCheckContract(t, dir, "fast", "smoke", "", "40")
	bad := writeCheckContract(t, dir, "bad", "smoke", "", "-1")
	missing := filepath.Join(dir, "none.yaml")
	code, stdout, stderr := runCLI("check", good, bad, missing)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := "servebench check: " + bad + ":10:9: arrival.rate: want a number greater than 0, got -1\n" +
		"load contract: open " + missing + ": no such file or directory\n"
	if stderr != want || stdout != "" {
		t.Fatalf("stdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", stdout, stderr, want)
	}
}

func TestCheckRefusesBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "servebench check: give one or more contract files or directories\n"},
		{[]string{"--label-filter", "(", "x.yaml"}, `servebench check: --label-filter "(": Syntax Error Parsing Label Filter: ( Mismatched '(' - could not find matching ')'.` + "\n"},
	} {
		code, _, stderr := runCLI(append([]string{"check"}, tc.args...)...)
		if code != 1 || stderr != tc.want {
			t.Errorf("check %q: exit %d, stderr %q; want 1, %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestCheckLabelFilterSelectsContracts(t *testing.T) {
	checkEnv(t)
	dir := t.TempDir()
	writeCheckContract(t, dir, "fast", "smoke", "", "40")
	writeCheckContract(t, dir, "nightly", "nightly", "", "40")
	code, stdout, stderr := runCLI("check", dir, "--label-filter", "smoke && engine:simengine")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "contract fast (") || strings.Contains(stdout, "contract nightly") {
		t.Fatalf("--label-filter smoke ran:\n%s", stdout)
	}
	if !strings.HasSuffix(stdout, "check: 4 passed, 0 failed, 0 skipped in 1 contract: exit 0 (every objective holds)\n") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	code, stdout, _ = runCLI("check", "--label-filter", "gpu", dir)
	want := `no contract matches --label-filter "gpu" (labels: engine:simengine, nightly, smoke)` + "\n"
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, stdout %q; want 0, %q", code, stdout, want)
	}
}

func TestCheckWritesJUnit(t *testing.T) {
	checkEnv(t)
	dir := t.TempDir()
	pass := writeCheckContract(t, dir, "fast", "smoke", "", "40")
	fail := writeCheckContract(t, dir, "failing", "smoke", `, "--error-rate=1"`, "40")
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, stdout, stderr := runCLI("check", "--junit", junit, pass, fail)
	if code != 3 {
		t.Fatalf("exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var got reporters.JUnitTestSuites
	if err := xml.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.Tests != 8 || got.Failures != 2 || len(got.TestSuites) != 2 {
		t.Fatalf("testsuites: %d tests, %d failures, %d suites\n%s", got.Tests, got.Failures, len(got.TestSuites), b)
	}
	s := got.TestSuites[1]
	if s.Name != "failing" || s.Package != fail || s.Tests != 4 || s.Failures != 2 || len(s.TestCases) != 4 {
		t.Fatalf("testsuite %+v", s)
	}
	tc := s.TestCases[2]
	if tc.Name != "constant 8 requests at 40 req/s: attainment >= 0.900" || tc.Classname != "failing" || tc.Failure == nil {
		t.Fatalf("testcase %+v", tc)
	}
	if tc.Failure.Message != fail+":17: attainment >= 0.900" || tc.Failure.Type != "an objective failed on delivered load" ||
		!strings.HasPrefix(tc.Failure.Description, fail+":17: attainment >= 0.900\nExpected attainment 0.000 (0 of 8 offered) to be at least 0.900\n") {
		t.Fatalf("failure %+v", tc.Failure)
	}
	if !strings.Contains(string(b), `file="`+fail+`" line="17"`) {
		t.Errorf("the testcase names no file and line:\n%s", b)
	}
	if p := got.TestSuites[0].TestCases[0]; p.Failure != nil || p.Skipped != nil {
		t.Errorf("passing testcase %+v", p)
	}
}

func TestCheckJUnitSkipsUnjudgedObjectives(t *testing.T) {
	c := &suites.Contract{Name: "gpu", Path: "gpu.yaml"}
	results := []contractResult{{contract: c, verdicts: []suites.Verdict{
		{Contract: "gpu", LoadPoint: "at 4 req/s", Name: "valid load", Outcome: suites.Skipped, Message: "contract gpu: docker is not available"},
	}}}
	got := checkJUnit(results)
	tc := got.Suites[0].Cases[0]
	if got.Skipped != 1 || tc.Skipped == nil || tc.Skipped.Message != "contract gpu: docker is not available" || tc.Failure != nil {
		t.Fatalf("%+v", got)
	}
}

func TestCheckAppendsTheStepSummary(t *testing.T) {
	checkEnv(t)
	dir := t.TempDir()
	p := writeCheckContract(t, dir, "fast", "smoke", "", "40")
	summary := filepath.Join(t.TempDir(), "summary.md")
	gh := filepath.Join(t.TempDir(), "github.md")
	if err := os.WriteFile(gh, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(stepsummary.EnvVar, gh)
	code, stdout, stderr := runCLI("check", "--step-summary", summary, p)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	point := ", constant 8 requests at 40 req/s"
	want := "### servebench check: pass (exit 0: every objective holds)\n\n" +
		"#### fast (`" + p + "`)\n\n" +
		"| objective | where | measured | bound | verdict |\n" +
		"| --- | --- | --- | --- | --- |\n" +
		"| no lost requests | " + p + ":16" + point + " | – | – | pass |\n" +
		"| valid load | " + p + ":16" + point + " | 8 of 8 sent, 0 late | – | pass |\n" +
		"| attainment | " + p + ":17" + point + " | 1.000 (8 of 8) | >= 0.900 | pass |\n" +
		"| error rate | " + p + ":18" + point + " | 0.000 (0 of 8) | <= 0.010 | pass |\n\n"
	for path, prefix := range map[string]string{summary: "", gh: "earlier step\n"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != prefix+want {
			t.Errorf("%s:\n%s\nwant:\n%s", path, b, prefix+want)
		}
	}
}

func TestCheckStepSummaryShowsFailures(t *testing.T) {
	checkEnv(t)
	p := writeCheckContract(t, t.TempDir(), "failing", "smoke", `, "--error-rate=1"`, "40")
	summary := filepath.Join(t.TempDir(), "summary.md")
	if code, stdout, stderr := runCLI("check", p, "--step-summary", summary); code != 3 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"### servebench check: fail (exit 3: an objective failed on delivered load)\n",
		"| attainment | " + p + ":17, constant 8 requests at 40 req/s | 0.000 (0 of 8) | >= 0.900 | **fail** |\n",
		"<details><summary>" + p + ":17: attainment &gt;= 0.900</summary>\n\n```\n" + p + ":17: attainment >= 0.900\nExpected attainment 0.000 (0 of 8 offered) to be at least 0.900\n",
	} {
		if !strings.Contains(string(b), s) {
			t.Errorf("the step summary has no %q:\n%s", s, b)
		}
	}
}

func TestCheckExitCodeIsTheFirstOfOneTwoFiveThreeSix(t *testing.T) {
	result := func(codes ...int) []contractResult {
		var vs []suites.Verdict
		for _, c := range codes {
			vs = append(vs, suites.Verdict{ExitCode: c})
		}
		return []contractResult{{verdicts: vs}}
	}
	for _, tc := range []struct {
		codes []int
		want  int
	}{
		{nil, 0},
		{[]int{0, 0}, 0},
		{[]int{6, 3}, 3},
		{[]int{3, 5, 6}, 5},
		{[]int{6, 3, 5, 2}, 2},
		{[]int{2, 1, 5}, 1},
		{[]int{6}, 6},
	} {
		if got := checkExitCode(result(tc.codes...)); got != tc.want {
			t.Errorf("checkExitCode(%v) = %d, want %d", tc.codes, got, tc.want)
		}
	}
}
