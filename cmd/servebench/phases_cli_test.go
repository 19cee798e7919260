package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// TestRunWithPhasesReportsEachPhase: constant arrivals at 20/s for 400 ms
// (0, 50, …, 350: 8), 60/s for 200 ms (400 + 16.7k ms: 12) and 20/s for
// 400 ms (600, …, 950: 8), one schedule of 28 requests whose report
// judges each phase; fewer than 100 requests follow the burst, so no
// recovery window is tested.
func TestRunWithPhasesReportsEachPhase(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", f.url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--phases", "steady:400ms@20,burst:200ms@60,recovery:400ms@20",
		"--schedule-lag-tolerance", "2s", "--no-progress", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	r, err := report.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 28 || len(r.Phases) != 3 {
		t.Fatalf("offered %d, phases %+v", r.Offered, r.Phases)
	}
	for i, want := range []struct {
		name       string
		start, end float64
		offered    int
	}{{"steady", 0, 400, 8}, {"burst", 400, 600, 12}, {"recovery", 600, 1000, 8}} {
		p := r.Phases[i]
		if p.Name != want.name || p.StartMS != want.start || p.EndMS != want.end || p.Offered != want.offered {
			t.Errorf("phase %d = %+v, want %+v", i, p, want)
		}
		if p.Verdict != report.PhasePass || p.Completed != p.Offered || p.TTFTP99MS == nil {
			t.Errorf("phase %s: verdict %s (%s), %d of %d completed, p99 TTFT %v", p.Name, p.Verdict, p.Reason, p.Completed, p.Offered, p.TTFTP99MS)
		}
	}
	rec := r.Recovery
	if rec == nil || rec.BurstEndMS != 600 || rec.Windows != 0 || rec.Recovered || r.RecoveryMS != nil ||
		rec.Bound != "1.1 × steady p99" || rec.BoundMS == nil || *rec.BoundMS != 1.1**r.Phases[0].TTFTP99MS ||
		!strings.HasPrefix(rec.Reason, "no window of 100 requests after the burst") || !strings.HasSuffix(rec.Reason, "(0 windows of 8 requests after it)") {
		t.Errorf("recovery %+v, recovery_ms %v", rec, r.RecoveryMS)
	}
}

// TestPhasesFlagRefusesBadPlans: exit 1 naming the flag before any load.
func TestPhasesFlagRefusesBadPlans(t *testing.T) {
	f := startFront(t, false, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--phases", "steady:1s@10,burst:@40"}, `--phases: phase 2 ("burst:@40"): no duration`},
		{[]string{"--phases", "steady:1s@0"}, `--phases: phase 1 ("steady:1s@0"): rate 0: a phase needs a positive finite rate`},
		{[]string{"--phases", "steady:1s@10", "--rate", "5"}, `--phases and --rate: each phase gives its duration and rate`},
		{[]string{"--phases", "steady:1s@10", "--duration", "5s"}, `--phases and --duration`},
		{[]string{"--phases", "steady:1s@10", "--arrival", "replay"}, `--phases: --arrival replay has no rate to vary`},
	} {
		args := append([]string{"run", "--base-url", f.url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
			"--no-progress", "--output", filepath.Join(t.TempDir(), "run")}, tc.args...)
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if n := f.generate.Load() + f.models.Load(); n != 0 {
		t.Errorf("%d requests reached the engine; want none", n)
	}
}
