package telemetry

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// dcgmExporter is a loopback server that answers like dcgm-exporter: two
// GPUs, GPU 0's series repeated for a second MIG instance (with other
// values that must be ignored), and a total-energy counter that rises by
// 500 mJ on GPU 0 and 250 mJ on GPU 1 at every scrape. GPU 1's memory
// field holds the scrape's number, so the test can tell which scrapes
// became readings: one cut short when sampling stops is served, never read.
type dcgmExporter struct {
	mu      sync.Mutex
	scrapes int
}

func (e *dcgmExporter) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	e.scrapes++
	k := e.scrapes
	e.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	gpu0 := `gpu="0",UUID="GPU-aaaa",device="nvidia0",modelName="NVIDIA H200",Hostname="node-a"`
	mig := `gpu="0",UUID="GPU-aaaa",device="nvidia0",modelName="NVIDIA H200",GPU_I_PROFILE="1g.18gb",GPU_I_ID="7",Hostname="node-a"`
	gpu1 := `gpu="1",UUID="GPU-bbbb",device="nvidia1",modelName="NVIDIA H200",Hostname="node-a"`
	var b strings.Builder
	series := func(name, typ string, v0, v1 float64) {
		fmt.Fprintf(&b, "# HELP %s help\n# TYPE %s %s\n", name, name, typ)
		fmt.Fprintf(&b, "%s{%s} %g\n%s{%s} %g\n%s{%s} %g\n", name, gpu0, v0, name, mig, v0+1000, name, gpu1, v1)
	}
	series(DCGMSMClock, "gauge", 1980, 345)
	series(DCGMGPUTemp, "gauge", 45, 30)
	series(DCGMPowerUsage, "gauge", 250.5, 75)
	series(DCGMTotalEnergy, "counter", 1e9+500*float64(k), 2e9+250*float64(k))
	series(DCGMGPUUtil, "gauge", 40, 0)
	series(DCGMFBUsed, "gauge", 1024, float64(k))
	b.WriteString("# HELP DCGM_FI_DEV_MEM_CLOCK help\n# TYPE DCGM_FI_DEV_MEM_CLOCK gauge\nDCGM_FI_DEV_MEM_CLOCK{gpu=\"0\"} 2619\n")
	_, _ = w.Write([]byte(b.String()))
}

func (e *dcgmExporter) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.scrapes
}

func TestDCGMExporterIsSampledWithItsEnergyCounter(t *testing.T) {
	exp := &dcgmExporter{}
	srv := httptest.NewServer(exp)
	defer srv.Close()
	ctx := context.Background()
	s := Open(ctx, Options{DCGMURL: srv.URL + "/metrics", Interval: 20 * time.Millisecond})
	defer s.Close()
	if s.Source() == nil || s.Source().Name() != "dcgm" {
		t.Fatalf("source: %v (err %v), want dcgm", s.Source(), s.Err())
	}
	stop := s.StartGPUSampling(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for exp.count() < 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	tel := stop()
	if tel.Status != "sampled" || tel.Source != "dcgm" || len(tel.Errors) != 0 {
		t.Fatalf("status %q, source %q, errors %q", tel.Status, tel.Source, tel.Errors)
	}
	if len(tel.GPUs) != 2 {
		t.Fatalf("%d GPUs, want 2", len(tel.GPUs))
	}
	g0, g1 := tel.GPUs[0], tel.GPUs[1]
	if g0.UUID != "GPU-aaaa" || g0.Name != "NVIDIA H200" || g1.UUID != "GPU-bbbb" {
		t.Fatalf("identities: %+v / %+v", g0, g1)
	}
	// Each scrape read is one reading per GPU; the counter rose by 500 mJ
	// (GPU 0) and 250 mJ (GPU 1) per scrape served between the first
	// scrape read and the last.
	n := g0.Samples
	if n < 4 || g1.Samples != n {
		t.Fatalf("samples %d and %d, want equal and at least 4", n, g1.Samples)
	}
	tl := g1.Timeline
	served := *tl[len(tl)-1].MemoryUsedMiB - *tl[0].MemoryUsedMiB
	eq(t, "GPU 0 energy", g0.EnergyJ, 0.5*served)
	eq(t, "GPU 1 energy", g1.EnergyJ, 0.25*served)
	eq(t, "total energy", tel.EnergyJ, 0.75*served)
	if tel.EnergyMethod != "counter" {
		t.Fatalf("method %q, want counter", tel.EnergyMethod)
	}
	// The MIG instance's repeated series (values + 1000) is ignored.
	eq(t, "GPU 0 power mean", g0.PowerW.Mean, 250.5)
	eq(t, "GPU 0 power max", g0.PowerW.Max, 250.5)
	eq(t, "GPU 0 util", g0.UtilizationPercent.Mean, 40)
	eq(t, "GPU 0 memory", g0.MemoryUsedMiB.Mean, 1024)
	eq(t, "GPU 0 clock", g0.SMClockMHz.Max, 1980)
	eq(t, "GPU 0 temperature", g0.TemperatureC.Mean, 45)
	eq(t, "GPU 1 clock", g1.SMClockMHz.Mean, 345)
	if len(g0.Timeline) != n {
		t.Fatalf("%d timeline points for %d readings", len(g0.Timeline), n)
	}
}

func TestDCGMThatDoesNotAnswerIsReportedUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	ctx := context.Background()
	s := Open(ctx, Options{DCGMURL: srv.URL + "/metrics"})
	tel := s.StartGPUSampling(ctx)()
	want := "unavailable: dcgm: GET " + srv.URL + "/metrics: HTTP 404"
	if tel.Status != want || tel.EnergyJ != nil || tel.Available() {
		t.Fatalf("status %q, want %q", tel.Status, want)
	}
}

func TestDCGMWithoutGPUSeriesIsReportedUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("# TYPE up gauge\nup 1\n"))
	}))
	defer srv.Close()
	_, err := OpenDCGM(context.Background(), srv.URL)
	if err == nil || !strings.Contains(err.Error(), "has no DCGM_FI_DEV_GPU_UTIL") {
		t.Fatalf("err %v, want it to name the missing series", err)
	}
}

// TestDCGMScrapeCutShortByStopIsNoError stops sampling while a scrape is
// in flight. Opening the source scrapes once; the exporter answers the
// first sampling scrape (2) and holds the next (3) until the client gives
// up. The cut-short scrape is no sampling error, and the closing scrape
// (4) that follows is the last reading.
func TestDCGMScrapeCutShortByStopIsNoError(t *testing.T) {
	exp := &dcgmExporter{}
	inFlight := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if exp.count() == 2 {
			exp.mu.Lock()
			exp.scrapes++
			exp.mu.Unlock()
			close(inFlight)
			<-r.Context().Done()
			return
		}
		exp.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx := context.Background()
	s := Open(ctx, Options{DCGMURL: srv.URL + "/metrics", Interval: 20 * time.Millisecond})
	defer s.Close()
	if s.Source() == nil {
		t.Fatalf("no source: %v", s.Err())
	}
	stop := s.StartGPUSampling(ctx)
	select {
	case <-inFlight:
	case <-time.After(10 * time.Second):
		t.Fatal("the held scrape never arrived")
	}
	tel := stop()
	if tel.Status != "sampled" || len(tel.Errors) != 0 {
		t.Fatalf("status %q, errors %q", tel.Status, tel.Errors)
	}
	if n := tel.GPUs[1].Samples; n != 2 {
		t.Fatalf("%d readings, want 2 (the first sampling scrape and the closing one)", n)
	}
	tl := tel.GPUs[1].Timeline
	if first, last := *tl[0].MemoryUsedMiB, *tl[1].MemoryUsedMiB; first != 2 || last != 4 {
		t.Fatalf("readings from scrapes %g and %g, want 2 and 4", first, last)
	}
}
