package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// run writes the request entries to requests.jsonl, not to the report, and
// score --run --requests streams them the same way. The --bounded-memory
// flag, which said so, is gone.
func TestRunCommandBoundedMemory(t *testing.T) {
	url := startSim(t, nil)
	if code, _, stderr := runCLI("run", "--bounded-memory"); code == 0 || !strings.Contains(stderr, "bounded-memory") {
		t.Errorf("--bounded-memory: exit %d, stderr:\n%s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "8",
		"--schedule-lag-tolerance", "2s", "--output", out, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Offered != 8 || rep.Requests != nil {
		t.Fatalf("report: %v, offered %d, %d request entries", err, rep.Offered, len(rep.Requests))
	}
	countLines := func(p string) int {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		n := 0
		for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		}
		return n
	}
	if n := countLines(filepath.Join(out, record.RequestsFile)); n != 8 {
		t.Fatalf("requests.jsonl has %d lines, want 8", n)
	}
	again := filepath.Join(t.TempDir(), "again.jsonl")
	code, stdout, stderr = runCLI("score", "--format", "json", "--run", out, "--requests", again)
	var re report.Report
	if code != 0 || json.Unmarshal([]byte(stdout), &re) != nil || re.Qualified != rep.Qualified || re.Requests != nil {
		t.Fatalf("score --run --requests: exit %d, stderr:\n%s", code, stderr)
	}
	if n := countLines(again); n != 8 {
		t.Fatalf("score wrote %d request lines, want 8", n)
	}
}
