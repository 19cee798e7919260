package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFillFromClocks computes a phase's figures from four requests' clocks
// (ms): errors (51−1)−49 = 1, (63−12)−48 = 3, (70.5−20.5)−45 = 5; lags 1,
// 2, 0.5; the fourth was never sent.
func TestFillFromClocks(t *testing.T) {
	server := map[string]float64{"a": 49, "b": 48, "c": 45}
	reqs := []requestTiming{
		{id: "a", scheduled: 0, sent: 1, first: 51, hasSent: true, hasFirst: true, succeeded: true},
		{id: "b", scheduled: 10, sent: 12, first: 63, hasSent: true, hasFirst: true, succeeded: true},
		{id: "c", scheduled: 20, sent: 20.5, first: 70.5, hasSent: true, hasFirst: true, succeeded: true},
	}
	var r phaseResult
	r.fill(reqs, server)
	// p50: rank ⌈0.5·3⌉ = 2; p99: rank ⌈0.99·3⌉ = 3.
	if r.TTFTErrorP50MS != 3 || r.TTFTErrorP99MS != 5 || r.LagP50MS != 1 || r.LagP99MS != 2 || r.LagMaxMS != 2 {
		t.Errorf("got %+v", r)
	}
	if !r.Valid || r.Scheduled != 3 || r.Succeeded != 3 || r.Joined != 3 {
		t.Errorf("valid %t, %d/%d/%d; want valid, 3/3/3", r.Valid, r.Scheduled, r.Succeeded, r.Joined)
	}
	var unsent phaseResult
	unsent.fill(append(reqs, requestTiming{id: "d", scheduled: 30}), server)
	if unsent.Valid || unsent.Scheduled != 4 || unsent.Succeeded != 3 {
		t.Errorf("with an unsent request: valid %t, scheduled %d, succeeded %d", unsent.Valid, unsent.Scheduled, unsent.Succeeded)
	}
	var late phaseResult
	late.fill([]requestTiming{{id: "a", scheduled: 0, sent: 20.5, first: 70, hasSent: true, hasFirst: true, succeeded: true}}, server)
	if late.Valid || late.TTFTErrorP50MS != 0.5 {
		t.Errorf("a request 20.5 ms late: valid %t, error %g; want invalid, (70−20.5)−49 = 0.5", late.Valid, late.TTFTErrorP50MS)
	}
	if !math.IsNaN(nearestRank(nil, 50)) {
		t.Error("the percentile of nothing is a number")
	}
}

// TestPairReportJudgesTheMedians summarizes two phases per client and
// judges servebench against the lean client's medians.
func TestPairReportJudgesTheMedians(t *testing.T) {
	phases := []phaseResult{
		{Client: "lean", Scheduled: 10, Succeeded: 10, Joined: 10, TTFTErrorP50MS: 1, TTFTErrorP99MS: 10, LagP99MS: 1, CPUPerRequestMS: 1, PeakRSSMB: 90, Valid: true},
		{Client: "servebench", Scheduled: 10, Succeeded: 10, Joined: 10, TTFTErrorP50MS: 2.5, TTFTErrorP99MS: 25, LagP99MS: 4, CPUPerRequestMS: 1.2, PeakRSSMB: 100, Valid: true},
		{Client: "servebench", Scheduled: 10, Succeeded: 10, Joined: 10, TTFTErrorP50MS: 3.5, TTFTErrorP99MS: 19, LagP99MS: 7, CPUPerRequestMS: 1.0, PeakRSSMB: 120, Valid: true},
		{Client: "lean", Scheduled: 10, Succeeded: 10, Joined: 10, TTFTErrorP50MS: 3, TTFTErrorP99MS: 20, LagP99MS: 2, CPUPerRequestMS: 1, PeakRSSMB: 100, Valid: true},
	}
	r := newPairReport(phases, false, nil)
	// lean medians: p50 (1+3)/2 = 2, p99 15, RSS 95, CPU 1; servebench:
	// p50 3, p99 22, lag 5.5, CPU 1.1, RSS 110.
	want := map[string][3]float64{ // value, limit, pass (1) or not (0)
		"TTFT error p50":   {3, 3, 1},
		"TTFT error p99":   {22, 20, 0},
		"schedule lag p99": {5.5, 5, 0},
		"peak RSS":         {110, 115, 1},
		"CPU per request":  {1.1, 1.1, 1},
	}
	for _, c := range r.checks {
		w, ok := want[c.name]
		if !ok {
			t.Errorf("unexpected check %q", c.name)
			continue
		}
		if math.Abs(c.value-w[0]) > 1e-9 || math.Abs(c.limit-w[1]) > 1e-9 || c.pass() != (w[2] == 1) {
			t.Errorf("%s: value %g limit %g pass %t; want %g, %g, %t", c.name, c.value, c.limit, c.pass(), w[0], w[1], w[2] == 1)
		}
		if c.applies != (c.name != "CPU per request") {
			t.Errorf("%s: applies %t without the CPU target", c.name, c.applies)
		}
	}
	if r.ok() {
		t.Error("a report with two missed targets is ok")
	}
	var out bytes.Buffer
	r.write(&out)
	for _, s := range []string{"TTFT error p99         22.000 ms  (target <= 20.000) MISSED", "CPU per request", "(no target for this load)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the report lacks %q:\n%s", s, out.String())
		}
	}
	failed := append([]phaseResult(nil), phases...)
	failed[0].Succeeded = 9
	if r := newPairReport(failed, false, nil); len(r.failures) != 1 || r.ok() {
		t.Errorf("a failed request: failures %v, ok %t", r.failures, r.ok())
	}
}

// TestPairRunsEveryClientAlternately runs the paired mode end to end on
// loopback, with this test binary re-executed as the server and the
// in-process clients, and a servebench CLI binary built from this module
// as the third client: two rounds of 1 s at 20 req/s, constant arrivals,
// 3-token streams, with profiles and execution traces. The phases
// alternate (lean, servebench, built, then built, servebench, lean); each
// sends its 20 requests and joins every success to the server's own
// first-token time by X-Request-Id.
func TestPairRunsEveryClientAlternately(t *testing.T) {
	if testing.Short() {
		t.Skip("builds servebench, starts processes and runs six 1 s phases")
	}
	bin := buildServebench(t)
	profiles := t.TempDir()
	c, err := parsePair([]string{"-preset", "100", "-arrival", "constant", "-rate", "20", "-duration", "1s",
		"-tokens", "3", "-first-token-delay", "10ms", "-token-gap", "5ms", "-rounds", "2",
		"-also-servebench", bin, "-also-label", "built", "-profile", profiles, "-trace"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.littleL(); math.Abs(got-20*(0.010+3*0.005)) > 1e-9 {
		t.Errorf("Little's law L = %g, want 20 × 25 ms = 0.5", got)
	}
	var out bytes.Buffer
	r, err := runPair(c, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	order := []string{"lean", "servebench", "built", "built", "servebench", "lean"}
	if len(r.phases) != len(order) {
		t.Fatalf("%d phases, want 6", len(r.phases))
	}
	for i, p := range r.phases {
		if p.Client != order[i] || p.Scheduled != 20 || p.Succeeded != 20 || p.Joined != 20 {
			t.Errorf("phase %d: %s, %d scheduled, %d succeeded, %d joined; want %s, 20 each", i+1, p.Client,
				p.Scheduled, p.Succeeded, p.Joined, order[i])
		}
		if p.PeakRSSMB <= 0 || p.CPUPerRequestMS <= 0 || p.PeakInFlight < 1 {
			t.Errorf("phase %d: peak RSS %g MB, CPU %g ms per request, %d in flight", i+1, p.PeakRSSMB, p.CPUPerRequestMS, p.PeakInFlight)
		}
		if p.Client == "built" && (p.CPUWithScoringPerRequestMS < p.CPUPerRequestMS || p.PeakRSSSendingMB <= 0 ||
			p.PeakRSSSendingMB > p.PeakRSSMB) {
			t.Errorf("phase %d: CPU %g ms per request sending, %g with scoring; peak RSS %g MB sending, %g in all", i+1,
				p.CPUPerRequestMS, p.CPUWithScoringPerRequestMS, p.PeakRSSSendingMB, p.PeakRSSMB)
		}
		trace := filepath.Join(profiles, fmt.Sprintf("phase%d-%s-trace.out", i+1, p.Client))
		if _, err := os.Stat(trace); (err == nil) != (p.Client != "built") {
			t.Errorf("phase %d (%s): trace file: %v", i+1, p.Client, err)
		}
	}
	if r.lean.phases != 2 || r.sb.phases != 2 || len(r.others) != 1 || r.others[0].phases != 2 {
		t.Errorf("phases per client: lean %d, servebench %d, others %+v", r.lean.phases, r.sb.phases, r.others)
	}
	for _, s := range []string{"Little's law", "pinning: ", "also: built = " + bin, "TTFT error p99 vs built"} {
		if !strings.Contains(out.String()+reportText(r), s) {
			t.Errorf("the output lacks %q:\n%s", s, out.String())
		}
	}
}

// reportText is the report as pair prints it.
func reportText(r *pairReport) string {
	var b bytes.Buffer
	r.write(&b)
	return b.String()
}

// buildServebench builds this module's servebench CLI into a temporary
// directory.
func buildServebench(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "servebench")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/servebench/servebench/cmd/servebench")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestParsePairRefusesBadFlags names the flag.
func TestParsePairRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-preset", "999"}, {"-arrival", "gamma"}, {"-rate", "-1"}, {"-rounds", "0"},
		{"-duration", "11m"}} {
		_, err := parsePair(args)
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: error %v, want one naming %s", args, err, args[0])
		}
	}
	c, err := parsePair([]string{"-preset", "4000", "-duration", "3s"})
	if err != nil || c.rate != 500 || c.gap != 200*time.Millisecond || c.duration != 3*time.Second || c.cpuTarget {
		t.Errorf("preset 4000 with -duration 3s: %+v, %v", c, err)
	}
}
