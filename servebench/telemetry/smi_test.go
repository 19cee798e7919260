package telemetry

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSMI is an nvidia-smi stand-in: it lists two GPUs for the probe, and
// in loop mode checks that it was asked exactly SMIQueryFields every 50
// ms, then prints four rounds (one line per GPU, timestamps 500 ms apart
// on its own clock, 50 ms apart in real time), touches the file named by
// $FAKE_SMI_DONE, and waits for an interrupt, upon which it prints a fifth
// round and exits.
const fakeSMI = `#!/bin/sh
if [ "$1" = "--query-gpu=index" ]; then
	printf '0\n1\n'
	exit 0
fi
if [ "$1" != "--query-gpu=timestamp,index,uuid,name,utilization.gpu,memory.used,power.draw,clocks.sm,temperature.gpu" ] ||
	[ "$2" != "--format=csv,noheader,nounits" ] || [ "$3" != "-lms" ] || [ "$4" != "50" ]; then
	echo "fake nvidia-smi: unexpected arguments: $*" >&2
	exit 3
fi
i=0
for ts in "00.000" "00.500" "01.000" "01.500"; do
	i=$((i + 1))
	printf '2026/11/30 12:00:%s, 0, GPU-aaaa, NVIDIA H200, %d0, 2048, %d00.00, 1980, 4%d\n' "$ts" "$i" "$i" "$i"
	printf '2026/11/30 12:00:%s, 1, GPU-bbbb, NVIDIA H200, 0, [N/A], 50.00, 345, 30\n' "$ts"
	sleep 0.05
done
# Interrupted, it writes one more round on its way out, as a program
# that buffers its output would, and exits.
trap 'kill $pid; printf "2026/11/30 12:00:02.000, 0, GPU-aaaa, NVIDIA H200, 50, 2048, 500.00, 1980, 45\n2026/11/30 12:00:02.000, 1, GPU-bbbb, NVIDIA H200, 0, [N/A], 50.00, 345, 30\n"; exit 0' INT
sleep 60 >/dev/null &
pid=$!
: > "$FAKE_SMI_DONE"
wait $pid
`

// withFakeSMI puts the fake nvidia-smi alone on PATH and returns the file
// it touches when it has printed everything.
func withFakeSMI(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "nvidia-smi"), []byte(fakeSMI), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin")
	done := filepath.Join(dir, "done")
	t.Setenv("FAKE_SMI_DONE", done)
	return done
}

func TestNvidiaSMIIsSampledAndItsPowerIntegrated(t *testing.T) {
	done := withFakeSMI(t)
	ctx := context.Background()
	// No NVML at this path, so Open falls back to nvidia-smi.
	s := Open(ctx, Options{Interval: 50 * time.Millisecond, NVMLLibrary: filepath.Join(t.TempDir(), "libnvidia-ml.so.1")})
	defer s.Close()
	if s.Source() == nil || s.Source().Name() != "nvidia-smi" {
		t.Fatalf("source %v, err %v; want nvidia-smi", s.Source(), s.Err())
	}
	stop := s.StartGPUSampling(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(done); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	tel := stop()
	if tel.Status != "sampled" || tel.Source != "nvidia-smi" || len(tel.Errors) != 0 {
		t.Fatalf("status %q, source %q, errors %q", tel.Status, tel.Source, tel.Errors)
	}
	if len(tel.GPUs) != 2 || tel.GPUs[0].Samples != 5 || tel.GPUs[1].Samples != 5 {
		t.Fatalf("GPUs %+v, want two with 5 readings each (the last written after the interrupt)", tel.GPUs)
	}
	g0, g1 := tel.GPUs[0], tel.GPUs[1]
	// GPU 0: 100, 200, 300, 400, 500 W, 0.5 s apart on nvidia-smi's clock:
	// (150 + 250 + 350 + 450) W × 0.5 s = 600 J. GPU 1: 50 W × 2 s = 100 J.
	eq(t, "GPU 0 energy", g0.EnergyJ, 600)
	eq(t, "GPU 1 energy", g1.EnergyJ, 100)
	eq(t, "total", tel.EnergyJ, 700)
	if tel.EnergyMethod != "integrated_power" {
		t.Fatalf("method %q: nvidia-smi has no energy counter", tel.EnergyMethod)
	}
	// Utilisation 10, 20, 30, 40, 50 %; temperature 41, 42, 43, 44, 45 °C.
	eq(t, "GPU 0 util mean", g0.UtilizationPercent.Mean, 30)
	eq(t, "GPU 0 util max", g0.UtilizationPercent.Max, 50)
	eq(t, "GPU 0 temperature max", g0.TemperatureC.Max, 45)
	eq(t, "GPU 0 memory", g0.MemoryUsedMiB.Mean, 2048)
	if g1.MemoryUsedMiB.Mean != nil {
		t.Fatalf("GPU 1 memory %v: [N/A] must stay nil", *g1.MemoryUsedMiB.Mean)
	}
	if g0.SpanMS[1]-g0.SpanMS[0] != 2000 {
		t.Fatalf("span %v, want 2000 ms on nvidia-smi's clock", g0.SpanMS)
	}
	if g0.Name != "NVIDIA H200" || g0.UUID != "GPU-aaaa" {
		t.Fatalf("identity %q %q", g0.Name, g0.UUID)
	}
}

func TestNoSourceIsReportedUnavailableWithEveryReason(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	lib := filepath.Join(t.TempDir(), "libnvidia-ml.so.1")
	s := Open(context.Background(), Options{NVMLLibrary: lib})
	tel := s.StartGPUSampling(context.Background())()
	if !strings.HasPrefix(tel.Status, "unavailable: nvml: ") ||
		!strings.HasSuffix(tel.Status, "; nvidia-smi: nvidia-smi not found on PATH") {
		t.Fatalf("status %q", tel.Status)
	}
	if tel.EnergyJ != nil || len(tel.GPUs) != 0 || tel.SampleIntervalMS != 1000 {
		t.Fatalf("unavailable telemetry carries figures: %+v", tel)
	}
	if _, err := DetectGPUs(context.Background(), Options{NVMLLibrary: lib}); err == nil {
		t.Fatal("DetectGPUs found a GPU with no source")
	}
	if r := GPUSkipReason(context.Background(), Options{NVMLLibrary: lib}); !strings.Contains(r, "SERVEBENCH_REQUIRE_GPU=1") {
		t.Fatalf("skip reason %q does not say how to fail instead", r)
	}
}

func TestDetectGPUsCountsWhatNvidiaSMIlists(t *testing.T) {
	withFakeSMI(t)
	d, err := DetectGPUs(context.Background(), Options{NVMLLibrary: filepath.Join(t.TempDir(), "none.so")})
	if err != nil || d.Source != "nvidia-smi" || d.GPUs != 2 {
		t.Fatalf("detection %+v, err %v; want 2 GPUs through nvidia-smi", d, err)
	}
	if r := GPUSkipReason(context.Background(), Options{NVMLLibrary: filepath.Join(t.TempDir(), "none.so")}); r != "" {
		t.Fatalf("skip reason %q with two GPUs", r)
	}
}

func TestParseSMIRecordRejectsABadNumberByField(t *testing.T) {
	rec := []string{"2026/11/30 12:00:00.000", "0", "GPU-a", "H200", "50", "1024", "lots", "1980", "40"}
	_, err := parseSMIRecord(rec, t0)
	if err == nil || err.Error() != `power.draw: "lots" is not a number` {
		t.Fatalf("err %v", err)
	}
}
