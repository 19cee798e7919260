//go:build linux && (amd64 || arm64) && (cgo || nvml)

package telemetry

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestNVMLAbsentSaysTheLibraryIsNotFound(t *testing.T) {
	n, err := OpenNVML("")
	if err == nil {
		n.Close()
		t.Skip("libnvidia-ml.so.1 is present here; TestNVMLReadsEveryGPU covers this machine")
	}
	if !strings.HasPrefix(err.Error(), "nvml: libnvidia-ml.so.1 not found (") {
		t.Fatalf("err %q, want it to start with %q", err, "nvml: libnvidia-ml.so.1 not found (")
	}
}

func TestNVMLRefusesALibraryThatIsNotNVML(t *testing.T) {
	_, err := OpenNVML("libc.so.6")
	if err == nil || err.Error() != "nvml: libc.so.6 is not NVML: it has no nvmlInit_v2" {
		t.Fatalf("err %v", err)
	}
}

// TestNVMLReadsEveryGPU runs where the driver's NVML is present (a GPU
// host); elsewhere it skips, unless SERVEBENCH_REQUIRE_GPU=1 asks for a
// failure.
func TestNVMLReadsEveryGPU(t *testing.T) {
	n, err := OpenNVML("")
	if err != nil {
		if os.Getenv(EnvRequireGPU) == "1" {
			t.Fatalf("%s=1 but %v", EnvRequireGPU, err)
		}
		t.Skipf("no NVML here: %v", err)
	}
	defer n.Close()
	s := NewSampler(n, 100*time.Millisecond, 0)
	stop := s.StartGPUSampling(context.Background())
	time.Sleep(time.Second)
	tel := stop()
	if tel.Source != "nvml" || len(tel.GPUs) != n.GPUs() || len(tel.Errors) != 0 {
		t.Fatalf("source %q, %d GPUs of %d, errors %q", tel.Source, len(tel.GPUs), n.GPUs(), tel.Errors)
	}
	for _, g := range tel.GPUs {
		if g.Samples < 2 || g.PowerW.Mean == nil || *g.PowerW.Mean <= 0 || g.EnergyJ == nil || *g.EnergyJ <= 0 {
			t.Fatalf("GPU %d: %d samples, power %v, energy %v", g.Index, g.Samples, g.PowerW.Mean, g.EnergyJ)
		}
		t.Logf("GPU %d %s: %d samples, mean power %.1f W, energy %.2f J (%s) over %.0f ms, SM clock max %v MHz",
			g.Index, g.Name, g.Samples, *g.PowerW.Mean, *g.EnergyJ, g.EnergyMethod, g.SpanMS[1]-g.SpanMS[0], *g.SMClockMHz.Max)
	}
}
