package suites

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/containers"
)

// checkTestContract is a contract of one load point against baseURL; its
// objectives are on lines 11 and 12.
const checkTestContract = `name: down
base_url: %s
model: m
workload:
  file: w.jsonl
arrival:
  process: constant
  rate: 20
count: 4
objectives:
  attainment: 0.9
  error_rate: 0.01
`

// parseCheckContract writes and parses checkTestContract against baseURL.
func parseCheckContract(t *testing.T, baseURL string) *Contract {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(`{"id":"a","prompt":"hi","max_tokens":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "down.yaml")
	c, err := Parse(p, []byte(strings.Replace(checkTestContract, "%s", baseURL, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCheckFailsTheFirstObjectiveOfALoadPointThatDidNotRun(t *testing.T) {
	t.Setenv(EnvArtifacts, t.TempDir())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	_ = l.Close()
	c := parseCheckContract(t, url)
	got := Check(context.Background(), c, io.Discard)
	names := []string{"no lost requests", "valid load", "attainment >= 0.900", "error rate <= 0.010"}
	if len(got) != len(names) {
		t.Fatalf("%d verdicts: %+v", len(got), got)
	}
	for i, v := range got {
		if v.Name != names[i] || v.LoadPoint != "constant 4 requests at 20 req/s" {
			t.Errorf("verdict %d: %q at %q", i, v.Name, v.LoadPoint)
		}
	}
	first := got[0]
	heading := c.Path + ":8: constant 4 requests at 20 req/s: the load point did not complete\n"
	if first.Outcome != Failed || first.ExitCode != 1 || !strings.HasPrefix(first.Message, heading+"contract down, constant 4 requests at 20 req/s: ") {
		t.Fatalf("first verdict: %+v", first)
	}
	for _, v := range got[1:] {
		if v.Outcome != Skipped || v.Message != "skipped because constant 4 requests at 20 req/s did not complete" || v.ExitCode != 0 {
			t.Errorf("later verdict: %+v", v)
		}
	}
	if got[2].At.LineNumber != 11 || got[3].At.LineNumber != 12 || got[0].At.LineNumber != 10 {
		t.Errorf("lines %d, %d, %d", got[0].At.LineNumber, got[2].At.LineNumber, got[3].At.LineNumber)
	}
}

func TestCheckSkipsEverySpecOfAnEngineThatCannotRunHere(t *testing.T) {
	c := parseCheckContract(t, "http://127.0.0.1:1")
	t.Setenv(containers.EnvRequireDocker, "")
	got := c.notStarted(unavailableError("docker is not available"))
	if len(got) != 4 {
		t.Fatalf("%+v", got)
	}
	for _, v := range got {
		if v.Outcome != Skipped || v.Message != "contract down: docker is not available" {
			t.Errorf("%+v", v)
		}
	}
	t.Setenv(containers.EnvRequireDocker, "1")
	got = c.notStarted(unavailableError("docker is not available"))
	if got[0].Outcome != Failed || got[0].ExitCode != 1 || got[0].Message != "contract down: docker is not available" || got[1].Outcome != Skipped {
		t.Errorf("with %s=1: %+v", containers.EnvRequireDocker, got)
	}
}

func TestCheckSkipsTheLaterLoadPointsAndTheCapacityOfASweepThatStopped(t *testing.T) {
	t.Setenv(EnvArtifacts, t.TempDir())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	_ = l.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(`{"id":"a","prompt":"hi","max_tokens":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := strings.Replace(strings.Replace(checkTestContract, "%s", url, 1), "  rate: 20\n", "  rates: [10, 20]\n", 1) + "  capacity: 10\n"
	c, err := Parse(filepath.Join(dir, "sweep.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	got := Check(context.Background(), c, io.Discard)
	// At 10 req/s: no lost requests, valid load, attainment, error rate;
	// at 20 req/s, above the capacity: no lost requests; then the capacity.
	if len(got) != 6 || got[0].Outcome != Failed || got[5].Name != "SLO capacity >= 10.000 req/s" {
		t.Fatalf("%+v", got)
	}
	for _, v := range got[1:] {
		if v.Outcome != Skipped || v.Message != "skipped because constant 4 requests at 10 req/s did not complete" {
			t.Errorf("%+v", v)
		}
	}
}
