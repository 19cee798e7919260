package main

import (
	"strings"
	"testing"
)

func TestScoreCommandRejectsRulesBelowTheRecordsResolution(t *testing.T) {
	// 100 ns and 400 ns round to 0 µs: the report would state a cadence of
	// 0 ms (and divide by it) or a TTFT bound of 0 ms (which means none).
	// Both are usage errors: exit 1, nothing on stdout.
	for _, flags := range [][]string{
		{"--fluidity-first-token", "300ms", "--fluidity-cadence", "100ns"},
		{"--ttft-slo", "400ns"},
	} {
		code, out, errOut := scoreCLI(append([]string{scoreCLITrace, scoreCLIEvents}, flags...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, "1 µs resolution") {
			t.Fatalf("%v: exit %d, stdout %d bytes, stderr %q; want exit 1 saying why", flags, code, len(out), errOut)
		}
	}
}

func TestScoreCommandHugeTimeIsMalformedInput(t *testing.T) {
	// r06's terminal at 1.7e308 ms is finite but past 2^53 µs; its E2E in
	// the report would be +Inf. The error names the file, line 6 and the
	// field, instead of failing to encode the report.
	events := scoreCLIEdited(t, func(s string) string {
		return strings.Replace(s, `"terminal_ms": 2500`, `"terminal_ms": 1.7e308`, 1)
	})
	code, out, errOut := scoreCLI(scoreCLITrace, events)
	if code != 1 || out != "" || !strings.Contains(errOut, events+`:6:`) || !strings.Contains(errOut, `field "terminal_ms"`) {
		t.Fatalf("exit %d, stdout %d bytes, stderr %q", code, len(out), errOut)
	}
}
