package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/sweepreport"
)

// A 20/20 run on a window shorter than the requests take is inconclusive,
// not failed: the sweep exits 4, and text and JSON both name the rate.
func TestSweepInconclusiveRateExitsFourAndSaysWhy(t *testing.T) {
	url := startSim(t, nil)
	// 200 forced tokens take at least 200 engine steps (0.8 ms each at
	// time scale 0.1), so every request lasts well over the 40 ms first
	// half of a 8-request window at 100 req/s.
	w := writeWorkload(t, `{"prompt":"long answer","max_tokens":200,"ignore_eos":true}`+"\n")
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", w, "--arrival", "constant", "--rates", "100", "--count", "8", "--schedule-lag-tolerance", "5s",
		"--output", out, "--format", "json", "--no-progress")
	if code != 4 {
		t.Fatalf("exit %d, want 4; stderr:\n%s", code, stderr)
	}
	var res sweepreport.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not sweep.json: %v\n%s", err, stdout)
	}
	if len(res.Rates) != 1 || res.Rates[0].Verdict != "inconclusive" || res.Rates[0].Qualified != 8 || res.KneeRPS != nil ||
		len(res.InconclusiveRPS) != 1 || res.InconclusiveRPS[0] != 100 || res.Rates[0].DecidingWindowMS == nil {
		t.Fatalf("sweep.json %+v", res)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "100 rps is inconclusive: a criterion could not be judged; an arrival window of at least") {
		t.Fatalf("notes %q", res.Notes)
	}
	onDisk, err := sweepreport.Load(out)
	if err != nil || len(onDisk.Rates) != 1 {
		t.Fatalf("sweep.json on disk: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, sweepreport.HTMLFile)); err != nil {
		t.Fatal(err)
	}
	// The text form says the same.
	code, stdout, _ = runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", w, "--arrival", "constant", "--rates", "100", "--count", "8", "--schedule-lag-tolerance", "5s",
		"--output", filepath.Join(t.TempDir(), "again"), "--no-progress")
	if code != 4 || !strings.Contains(stdout, "INCONCLUSIVE") || !strings.Contains(stdout, "100 rps is inconclusive") {
		t.Fatalf("exit %d, text:\n%s", code, stdout)
	}
}

// A passing sweep exits 0 and feeds the pareto command.
func TestSweepThenParetoJSON(t *testing.T) {
	// Steps of 8 ms of wall time: the four tokens of a request arrive
	// apart, so every run has a median TPOT above zero even on a loaded
	// machine, where a faster engine's tokens can land in one read.
	url := startSim(t, func(c *simengine.Config) { c.TimeScale = 1 })
	w := writeWorkload(t, twoRows)
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, d := range dirs {
		code, _, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
			"--workload", w, "--arrival", "constant", "--rates", "10,20", "--count", "10", "--schedule-lag-tolerance", "5s",
			"--output", d, "--no-progress")
		if code != 0 {
			t.Fatalf("sweep exit %d:\n%s", code, stderr)
		}
	}
	code, stdout, stderr := runCLI("pareto", "--format", "json", "--labels", "small,large", dirs[0], dirs[1])
	if code != 0 {
		t.Fatalf("pareto exit %d:\n%s", code, stderr)
	}
	var p sweepreport.Pareto
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(p.Points) != 4 || len(p.Front) == 0 || p.Points[0].Config != "small" || p.Points[2].Config != "large" {
		t.Fatalf("pareto %+v", p)
	}
	if code, _, stderr := runCLI("pareto", "--labels", "one", dirs[0], dirs[1]); code != 1 || !strings.Contains(stderr, "--labels names 1 configurations for 2") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// --rates auto climbs the geometric series to --auto-max and keeps every
// run: from 20 by ×2 to 40, both passing, nothing left to bisect.
func TestSweepAutoKeepsEveryRun(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "auto")
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rates", "auto", "--auto-start", "20", "--auto-max", "40",
		"--resolution", "5", "--count", "10", "--schedule-lag-tolerance", "5s", "--output", out, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	var res sweepreport.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Auto == nil || len(res.Auto.Coarse) != 2 || res.Auto.Coarse[0] != 20 || res.Auto.Coarse[1] != 40 || len(res.Auto.Bisected) != 0 ||
		len(res.Rates) != 2 || res.Rates[1].RunDir != "rate-40" || *res.KneeRPS != 40 {
		t.Fatalf("auto %+v, rates %+v", res.Auto, res.Rates)
	}
	if code, _, stderr := runCLI("sweep", "--base-url", url, "--model", "m", "--workload", writeWorkload(t, twoRows), "--rates", "auto",
		"--auto-max", "0.5", "--count", "2", "--output", filepath.Join(t.TempDir(), "x")); code != 1 || !strings.Contains(stderr, "--auto-max: want a finite number in [1, ∞), got 0.5") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// sweep --batch-sizes runs one point per batch size at one rate, and
// sweep.json names each point's batch size.
func TestSweepBatchSizes(t *testing.T) {
	url := startSim(t, nil)
	w := writeWorkload(t, `{"input":["a","b","c","d"]}`+"\n"+`{"input":"e"}`+"\n")
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "embeddings",
		"--workload", w, "--arrival", "constant", "--rates", "20", "--batch-sizes", "1,4", "--count", "3",
		"--schedule-lag-tolerance", "5s", "--output", out, "--format", "json", "--no-progress")
	var res sweepreport.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("exit %d, stdout is not sweep.json: %v\n%s\n%s", code, err, stdout, stderr)
	}
	if len(res.Rates) != 2 || res.Rates[0].BatchSize != 1 || res.Rates[1].BatchSize != 4 || res.Rates[0].Offered != 3 {
		t.Fatalf("exit %d, sweep.json rates %+v", code, res.Rates)
	}
	for _, size := range []string{"batch-1", "batch-4"} {
		if _, err := os.Stat(filepath.Join(out, size, "report.json")); err != nil {
			t.Error(err)
		}
	}
	code, _, stderr = runCLI("sweep", "--base-url", url, "--model", "m", "--endpoint", "embeddings", "--workload", w,
		"--rates", "5,10", "--batch-sizes", "1,4", "--count", "3", "--output", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "give one rate in --rates") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
