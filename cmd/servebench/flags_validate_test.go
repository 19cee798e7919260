package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestNumericFlagsRefuseNaNAndOutOfRange(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	base := []string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--output", t.TempDir(), "--rate", "1"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--count", "1", "--require-attainment", "NaN"}, "--require-attainment: want a fraction in [0, 1], got NaN"},
		{[]string{"--count", "1", "--require-attainment", "1.5"}, "--require-attainment: want a fraction in [0, 1], got 1.5"},
		{[]string{"--count", "1", "--require-attainment", "-0.5"}, "--require-attainment: want a fraction in [0, 1], got -0.5"},
		{[]string{"--count", "1", "--rate", "NaN"}, "--rate: want a finite number in [0, ∞), got NaN"},
		{[]string{"--count", "1", "--rate", "-2"}, "--rate: want a finite number in [0, ∞), got -2"},
		{[]string{"--count", "1", "--rate", "+Inf"}, "--rate: want a finite number in [0, ∞), got +Inf"},
		{[]string{"--count", "1", "--burstiness", "0"}, "--burstiness: want a positive finite number, got 0"},
		{[]string{"--count", "1", "--time-scale", "NaN"}, "--time-scale: want a positive finite number, got NaN"},
		{[]string{"--count", "1", "--timeout", "-1s"}, "--timeout: must not be negative, got -1s"},
		{[]string{"--count", "1", "--idle-timeout", "-5ms"}, "--idle-timeout: must not be negative, got -5ms"},
		{[]string{"--count", "1", "--first-token-timeout", "-1ns"}, "--first-token-timeout: must not be negative"},
		{[]string{"--count", "1", "--ttft-slo", "-1ms"}, "--ttft-slo: must not be negative"},
		{[]string{"--count", "1", "--schedule-lag-tolerance", "-1ms"}, "--schedule-lag-tolerance: must not be negative"},
		{[]string{"--duration", "-1s"}, "--duration: must not be negative"},
		{[]string{"--count", "-3"}, "--count: must not be negative, got -3"},
		{[]string{"--count", "1", "--warmup", "-1"}, "--warmup: must not be negative"},
		{[]string{"--count", "1", "--max-concurrency", "-1"}, "--max-concurrency: must not be negative"},
		{[]string{"--count", "1", "--burst-size", "0"}, "--burst-size: want at least 1, got 0"},
		{[]string{"--count", "10", "--duration", "5s"}, "--count and --duration: give one, not both"},
	} {
		code, _, stderr := runCLI(append(append([]string{}, base...), tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// "Not set" stays expressible: the default -1 given explicitly.
	code, _, stderr := runCLI(append(base, "--count", "1", "--require-attainment", "-1", "--base-url", "ftp://x")...)
	if code != 1 || !strings.Contains(stderr, "want an http:// or https:// URL") {
		t.Errorf("--require-attainment -1 was refused: %q", stderr)
	}
}

func TestSweepAndDemoFlags(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	sweep := []string{"sweep", "--rates", "1,2", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl,
		"--duration", "1s", "--output", t.TempDir()}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(sweep, "--rate", "3"), "--rate is refused: a sweep takes its rates from --rates"},
		{append(sweep, "--min-attainment", "NaN"), "--min-attainment: want a fraction in [0, 1], got NaN"},
		{append(sweep, "--confidence", "1"), "--confidence: want a value in (0, 1), got 1"},
		{append(sweep, "--repeat", "0"), "--repeat: want at least 1, got 0"},
		{[]string{"sweep", "--rates", "1,+Inf"}, `"+Inf" is not a positive rate`},
		{append(sweep[:0:0], append(sweep, "--rates", "auto", "--auto-start", "NaN")...), "--auto-start: want a positive finite number, got NaN"},
		{append(sweep[:0:0], append(sweep, "--rates", "auto", "--auto-factor", "1")...), "--auto-factor: want a finite number above 1, got 1"},
		{append(sweep[:0:0], append(sweep, "--rates", "auto", "--auto-max", "0.5")...), "--auto-max: want a finite number in [1, ∞), got 0.5"},
		{append(sweep[:0:0], append(sweep, "--rates", "auto", "--resolution", "-1")...), "--resolution: want a finite number in [0, ∞), got -1"},
		{[]string{"demo", "--attainment", "2"}, "--attainment: want a fraction in [0, 1], got 2"},
		{[]string{"demo", "--duration", "0s"}, "--duration: want a positive duration, got 0s"},
		{[]string{"demo", "--time-scale", "NaN"}, "--time-scale: want a positive finite number, got NaN"},
		{[]string{"demo", "--tpot-slo", "-1ms"}, "--tpot-slo: must not be negative"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestCommandsRefusePositionalArguments(t *testing.T) {
	for _, args := range [][]string{{"run", "--output", t.TempDir()}, {"sweep", "--rates", "1"}, {"demo"}, {"version"}} {
		cmd := args[0]
		code, _, stderr := runCLI(append(args, "extra.jsonl")...)
		if code != 1 || !strings.Contains(stderr, `unexpected argument "extra.jsonl" (this command takes only flags)`) {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

func TestHelpExitsZeroForEveryCommand(t *testing.T) {
	if len(commands) < 5 {
		t.Fatalf("only %d commands registered", len(commands))
	}
	for name := range commands {
		for _, flag := range []string{"-h", "--help"} {
			code, _, stderr := runCLI(name, flag)
			if code != 0 || !strings.Contains(stderr, "servebench "+name) {
				t.Errorf("%s %s: exit %d, stderr %q", name, flag, code, stderr)
			}
		}
	}
	if code, _, _ := runCLI("help"); code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, args := range [][]string{{"k8s", "job", "-h"}, {"k8s", "merge-job", "-h"}, {"workload", "import", "-h"},
		{"workload", "generate", "-h"}, {"workload", "generate", "fixed", "-h"}, {"workload", "import", "sharegpt", "f.json", "-h"}} {
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	code, stdout, stderr := runCLI("version")
	// Under go test the main module has no version: "devel", and the Go
	// version the test binary was built with.
	if code != 0 || stderr != "" || !regexp.MustCompile(`^servebench (devel|v\S+)( commit [0-9a-f]{1,12}(\+dirty)?)? go\S+\n$`).MatchString(stdout) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
