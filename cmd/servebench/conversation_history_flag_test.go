package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestUnknownHistoryIsRefusedBeforeAnyLoad: run, sweep and ab refuse a
// --history that is neither engine nor workload, naming the flag, before
// anything is sent or written.
func TestUnknownHistoryIsRefusedBeforeAnyLoad(t *testing.T) {
	const want = `--history: want engine or workload, got "answers"`
	for _, cmd := range [][]string{
		{"run", "--count", "2", "--rate", "1"},
		{"sweep", "--count", "2", "--rates", "1,2"},
		{"ab", "--count", "2", "--rate", "1", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		// Nothing listens on the URL: a refusal must come before any send.
		args := cmd
		if cmd[0] != "ab" {
			args = append(args, "--base-url", "http://127.0.0.1:1")
		}
		args = append(args, "--model", "m", "--workload", writeWorkload(t, twoRows),
			"--output", out, "--no-progress", "--history", "answers")
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 1 and %q", cmd[0], code, stderr, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: the output directory was made (%v)", cmd[0], err)
		}
	}
}

// TestCompareRefusesSidesWithDifferentHistory: a candidate run with engine
// history against a baseline with workload history is refused with exit 1
// naming the history field; a report written before the field existed
// reads as workload history, so it matches a workload baseline.
func TestCompareRefusesSidesWithDifferentHistory(t *testing.T) {
	dir := t.TempDir()
	a := 0.9
	run := func(name string, h schedule.TurnHistory) string {
		p := filepath.Join(dir, name)
		writeRun(t, p, report.Report{
			Schema: report.ReportSchema, Offered: 10, ProtocolSuccesses: 10, Qualified: 9, Attainment: &a, Valid: true,
			Inputs:    report.Inputs{WorkloadSHA256: "w1"},
			Generator: &report.GeneratorReport{Mode: schedule.ModeOpen, History: h},
		})
		return p
	}
	base, engine, old := run("base", schedule.TurnHistoryWorkload), run("engine", schedule.TurnHistoryEngine), run("old", "")
	code, _, stderr := runCLI("compare", "--tolerance", "attainment=5%", base, engine)
	if want := "candidate round 1: history engine differs from the first baseline run's workload"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("different history: exit %d, want 1 and %q\n%s", code, want, stderr)
	}
	code, _, stderr = runCLI("compare", "--tolerance", "attainment=5%", base, old)
	if code == 1 {
		t.Errorf("a report without the field against a workload baseline: exit 1\n%s", stderr)
	}
}

// TestRunCommandRecordsTheHistoryMode: --history reaches the run: with
// workload history the report says so, and the default says engine.
func TestRunCommandRecordsTheHistoryMode(t *testing.T) {
	url := startSim(t, nil)
	rows := writeWorkload(t, `{"id":"c-1","conversation":"c","turn":1,"messages":[{"role":"user","content":"hello"}],"max_tokens":4}
{"id":"c-2","conversation":"c","turn":2,"messages":[{"role":"user","content":"hello"},{"role":"assistant","content":"hi"},{"role":"user","content":"more"}],"max_tokens":4}
`)
	for _, tc := range []struct {
		args []string
		want schedule.TurnHistory
	}{{nil, schedule.TurnHistoryEngine}, {[]string{"--history", "workload"}, schedule.TurnHistoryWorkload}} {
		out := filepath.Join(t.TempDir(), "run")
		code, stdout, stderr := runCLI(append([]string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
			"--workload", rows, "--arrival", "constant", "--rate", "20", "--count", "2",
			"--schedule-lag-tolerance", "2s", "--output", out, "--format", "json", "--no-progress"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr:\n%s", tc.args, code, stderr)
		}
		var rep report.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Generator == nil || rep.Generator.History != tc.want {
			t.Fatalf("%v: generator %+v, want history %s", tc.args, rep.Generator, tc.want)
		}
	}
}
