package telemetry_test

import (
	"context"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/telemetry"
)

func ExampleRecorder() {
	// Three readings of one GPU from a source without an energy counter
	// (nvidia-smi): 100, 200 and 300 W at 0, 0.5 and 1.5 s. The energy is
	// integrated with the trapezoid rule: 150 W × 0.5 s + 250 W × 1 s.
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	rec := telemetry.NewRecorder(start, 0)
	for _, r := range []struct {
		ms    int
		watts float64
	}{{0, 100}, {500, 200}, {1500, 300}} {
		at := start.Add(time.Duration(r.ms) * time.Millisecond)
		w := r.watts
		rec.Add(telemetry.Reading{At: at, GPU: 0, PowerW: &w}, at)
	}
	t := rec.Summary("nvidia-smi", time.Second)
	g := t.GPUs[0]
	fmt.Printf("%g J (%s), mean %g W, max %g W\n", *t.EnergyJ, t.EnergyMethod, *g.PowerW.Mean, *g.PowerW.Max)
	// Output: 325 J (integrated_power), mean 200 W, max 300 W
}

func ExampleOpen() {
	// Where no GPU can be read, sampling still works and says why.
	s := telemetry.Open(context.Background(), telemetry.Options{NVMLLibrary: "/nonexistent/libnvidia-ml.so.1", NvidiaSMI: "/nonexistent/nvidia-smi"})
	defer s.Close()
	stop := s.StartGPUSampling(context.Background())
	fmt.Println(stop().Available())
	// Output: false
}
