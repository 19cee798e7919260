package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/record"
)

// Three identical rounds against one simulated engine: noise.json holds
// every default statistic's three round values, the noise of attainment
// is at least the binomial standard deviation of a round of 6 requests at
// its mean (p̃ = (6·mean + ½)/7), e2e_p50's upper bound is its noise (on
// the log scale) times √(2/χ²₂(0.05)), χ²₂(0.05) = −2 ln 0.95 = 0.102587,
// and stdout gives the --tolerance line
// and the YAML block with the smallest tolerances.
func TestNoiseMeasuresIdenticalRounds(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	out := filepath.Join(t.TempDir(), "noise")
	code, stdout, stderr := runCLI("noise", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", writeWorkload(t, eightTokenRows), "--rate", "20", "--count", "6", "--rounds", "3",
		"--schedule-lag-tolerance", "2s", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, compare.NoiseFile))
	if err != nil {
		t.Fatal(err)
	}
	var nf compare.NoiseFloor
	if err := json.Unmarshal(b, &nf); err != nil {
		t.Fatal(err)
	}
	if nf.Schema != compare.NoiseSchema || nf.Rounds != 3 || nf.RequestsPerRound != 6 || nf.MaxRounds != 20 || nf.Deciding != 4 {
		t.Errorf("noise.json header %+v", nf)
	}
	att, ok := nf.Lookup("attainment")
	if !ok || len(att.Values) != 3 {
		t.Fatalf("attainment: %+v", att)
	}
	p := ((att.Values[0]+att.Values[1]+att.Values[2])/3*6 + 0.5) / 7
	if floor := math.Sqrt(p * (1 - p) / 6); att.Noise < floor-1e-12 {
		t.Errorf("attainment noise %v below the binomial %v", att.Noise, floor)
	}
	if e2e, _ := nf.Lookup("e2e_p50"); math.Abs(e2e.NoiseUpper-math.Expm1(math.Log1p(e2e.Noise)*math.Sqrt(2/0.10258658877510106))) > 1e-9 {
		t.Errorf("e2e_p50 upper bound %v, noise %v", e2e.NoiseUpper, e2e.Noise)
	}
	for _, s := range nf.Statistics {
		if s.MinTolerance < s.Noise-1e-12 || s.NoiseUpper < s.Noise-1e-12 {
			t.Errorf("%s: smallest tolerance %v or upper bound %v below the noise %v, which the gate would refuse", s.Name, s.MinTolerance, s.NoiseUpper, s.Noise)
		}
		if !strings.Contains(stdout, "--tolerance "+s.Name+"=") || !strings.Contains(stdout, "\n    "+s.Name+": ") {
			t.Errorf("stdout lacks %s's --tolerance or YAML line:\n%s", s.Name, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "round-3", record.ReportFile)); err != nil {
		t.Errorf("round 3 not kept: %v", err)
	}
}

// An engine that fails its preflight stops noise before any load, and a
// single round cannot measure noise.
func TestNoiseRefusesBeforeLoad(t *testing.T) {
	out := filepath.Join(t.TempDir(), "noise")
	code, _, stderr := runCLI("noise", "--base-url", "http://127.0.0.1:1", "--model", "m", "--endpoint", "completions",
		"--workload", writeWorkload(t, eightTokenRows), "--rate", "20", "--count", "6", "--rounds", "3", "--output", out)
	if code != 1 {
		t.Errorf("unreachable engine: exit %d, want 1\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "round-1")); !os.IsNotExist(err) {
		t.Errorf("a round ran after a failed preflight (stat: %v)", err)
	}
	code, _, stderr = runCLI("noise", "--base-url", "http://127.0.0.1:1", "--model", "m", "--count", "6", "--rounds", "1",
		"--workload", writeWorkload(t, eightTokenRows), "--output", filepath.Join(t.TempDir(), "n"))
	if code != 1 || !strings.Contains(stderr, "--rounds: want at least 2") {
		t.Errorf("--rounds 1: exit %d\n%s", code, stderr)
	}
}
