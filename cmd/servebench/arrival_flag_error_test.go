package main

import (
	"errors"
	"testing"

	"github.com/servebench/servebench/servebench/schedule"
)

// A rate the arrival process cannot take is reported under the flag that
// set it, before any request: run, ab (each side) and k8s job say --rate,
// whether it was given as 0 or not given at all.
func TestArrivalErrorsNameTheFlag(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	common := []string{"--model", "m", "--workload", wl, "--count", "2"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--base-url", "http://127.0.0.1:1", "--output", t.TempDir(), "--rate", "0"},
			"servebench run: --rate: poisson rate must be a positive finite number of requests per second, got 0\n"},
		{[]string{"run", "--base-url", "http://127.0.0.1:1", "--output", t.TempDir(), "--arrival", "constant"},
			"servebench run: --rate: constant rate must be a positive finite number of requests per second, got 0\n"},
		{[]string{"ab", "--baseline-url", "http://127.0.0.1:1", "--candidate-url", "http://127.0.0.1:2", "--output", t.TempDir(), "--rate", "0"},
			"servebench ab: baseline: --rate: poisson rate must be a positive finite number of requests per second, got 0\n"},
		{[]string{"k8s", "job", "--base-url", "http://127.0.0.1:1", "--output", "/results", "--shards", "2", "--image", "i", "--volume-claim", "v", "--arrival", "gamma"},
			"servebench k8s job: --rate: gamma rate must be a positive finite number of requests per second, got 0\n"},
	} {
		code, _, stderr := runCLI(append(tc.args, common...)...)
		if code != 1 || stderr != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// Each field the spec check names maps to its flag; other errors pass
// through unchanged.
func TestArrivalFlagError(t *testing.T) {
	for _, tc := range []struct {
		spec schedule.ArrivalSpec
		want string
	}{
		{schedule.ArrivalSpec{Process: schedule.ProcessPoisson}, "--rate: poisson rate must be a positive finite number of requests per second, got 0"},
		{schedule.ArrivalSpec{Process: schedule.ProcessGamma, RateRPS: 1}, "--burstiness: gamma burstiness must be a positive finite shape k, got 0"},
		{schedule.ArrivalSpec{Process: schedule.ProcessBurst, RateRPS: 1}, "--burst-size: burst size must be at least 1, got 0"},
	} {
		if got := arrivalFlagError(tc.spec.Check()).Error(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.spec.Process, got, tc.want)
		}
	}
	other := errors.New("arrival: replay needs the run's workload first")
	if got := arrivalFlagError(other); got != other {
		t.Errorf("passed through as %v", got)
	}
}
