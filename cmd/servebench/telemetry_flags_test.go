package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// dcgmServer serves one GPU in DCGM exporter format, its energy counter
// rising by 1,000 mJ per scrape and its temperature field holding the
// scrape's number, so a test can tell which scrapes became readings (a
// scrape cut short when sampling stops is served but never read).
func dcgmServer(t *testing.T) string {
	t.Helper()
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		k := scrapes.Add(1)
		fmt.Fprintf(w, "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-x\",modelName=\"NVIDIA H200\"} 300\n"+
			"# TYPE DCGM_FI_DEV_GPU_TEMP gauge\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-x\",modelName=\"NVIDIA H200\"} %d\n"+
			"# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\nDCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-x\",modelName=\"NVIDIA H200\"} %d\n", k, 5_000_000+1000*k)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/metrics"
}

func TestRunSamplesADCGMExporterAndReportsJoulesPerToken(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "40", "--count", "8", "--schedule-lag-tolerance", "2s", "--output", out,
		"--format", "json", "--no-progress", "--gpu-sample-interval", "10ms", "--dcgm-url", dcgmServer(t))
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	g := rep.GPUTelemetry
	if g == nil || g.Status != "sampled" || g.Source != "dcgm" || g.SampleIntervalMS != 10 || len(g.GPUs) != 1 {
		t.Fatalf("telemetry %+v", g)
	}
	// The counter rose 1 J per scrape: (last scrape read − first scrape
	// read) J over the window, spread over 8 qualified requests and their
	// 8 × 4 output tokens.
	tl := g.GPUs[0].Timeline
	want := *tl[len(tl)-1].TemperatureC - *tl[0].TemperatureC
	if g.EnergyMethod != "counter" || *g.EnergyJ != want || *g.JoulesPerQualifiedRequest != want/8 || *g.JoulesPerOutputToken != want/32 {
		t.Fatalf("energy %v (%s), J/request %v, J/token %v; want %g J", *g.EnergyJ, g.EnergyMethod,
			*g.JoulesPerQualifiedRequest, *g.JoulesPerOutputToken, want)
	}
}

func TestRunWithoutATelemetrySourceStillSucceeds(t *testing.T) {
	url := startSim(t, nil)
	dead := httptest.NewServer(http.NotFoundHandler())
	defer dead.Close()
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "40", "--count", "4", "--schedule-lag-tolerance", "2s", "--output", t.TempDir(),
		"--format", "json", "--no-progress", "--dcgm-url", dead.URL)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	want := "unavailable: dcgm: GET " + dead.URL + ": HTTP 404"
	if rep.GPUTelemetry == nil || rep.GPUTelemetry.Status != want || rep.GPUTelemetry.EnergyJ != nil {
		t.Fatalf("telemetry %+v, want status %q", rep.GPUTelemetry, want)
	}
	if !strings.Contains(stderr, "GPU telemetry unavailable: dcgm: GET") {
		t.Fatalf("stderr does not say telemetry is unavailable:\n%s", stderr)
	}
	// --gpu-sample-interval 0 turns telemetry off: no section at all.
	code, stdout, stderr = runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "40", "--count", "2", "--schedule-lag-tolerance", "2s", "--output", t.TempDir(),
		"--format", "json", "--no-progress", "--gpu-sample-interval", "0")
	if code != 0 || strings.Contains(stdout, "gpu_telemetry") {
		t.Fatalf("exit %d, telemetry present with interval 0; stderr:\n%s", code, stderr)
	}
}

func TestBadGPUSampleIntervalIsAUsageError(t *testing.T) {
	for _, tc := range []struct{ args []string }{
		{[]string{"--gpu-sample-interval", "-1s"}},
		{[]string{"--gpu-sample-interval", "0", "--dcgm-url", "http://127.0.0.1:1/metrics"}},
	} {
		args := append([]string{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", writeWorkload(t, twoRows),
			"--count", "1", "--output", t.TempDir()}, tc.args...)
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, "--gpu-sample-interval") && !strings.Contains(stderr, "--dcgm-url") {
			t.Fatalf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}

func TestSweepPrintsEnergyPerRate(t *testing.T) {
	url := startSim(t, nil)
	code, stdout, stderr := runCLI("sweep", "--rates", "20,40", "--base-url", url, "--model", "simengine-tiny",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--count", "4", "--schedule-lag-tolerance", "2s",
		"--output", t.TempDir(), "--no-progress", "--no-backlog-growth=false", "--gpu-sample-interval", "10ms", "--dcgm-url", dcgmServer(t),
		"--report", "full")
	if code != 0 && code != 4 { // the energy lines do not depend on the verdicts
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	_, energyLines, ok := strings.Cut(stdout, "\nGPU energy per rate:\n")
	if !ok {
		t.Fatalf("no energy section:\n%s", stdout)
	}
	// Each rate: 4 qualified requests of 4 tokens; the counter rose 1 J per
	// scrape, so J/token = J/request / 4.
	for _, rate := range []string{"20", "40"} {
		i := strings.Index(energyLines, "  "+rate+" req/s: ")
		if i < 0 {
			t.Fatalf("no energy line for %s req/s:\n%s", rate, stdout)
		}
		var perToken, perRequest, energy float64
		var gpus int
		line := energyLines[i : i+strings.Index(energyLines[i:], "\n")]
		if _, err := fmt.Sscanf(strings.TrimSpace(line), rate+" req/s: %g J/output token, %g J/qualified request (%g J, counter, %d GPU)",
			&perToken, &perRequest, &energy, &gpus); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		// Printed with four significant digits.
		near := func(got, want float64) bool { return math.Abs(got-want) <= 5e-4*want }
		if !near(perRequest, energy/4) || !near(perToken, energy/16) || gpus != 1 {
			t.Fatalf("line %q: want energy/4 per request and energy/16 per token", line)
		}
	}
}
