package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/telemetry"
)

// telemetryFlags holds the GPU telemetry flags of run and sweep.
type telemetryFlags struct {
	interval time.Duration
	dcgmURL  string
}

func (f *telemetryFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&f.interval, "gpu-sample-interval", telemetry.DefaultInterval,
		"sample the GPUs this often over the measurement, through NVML, else nvidia-smi (0: no GPU telemetry)")
	fs.StringVar(&f.dcgmURL, "dcgm-url", "", "read GPU telemetry from this DCGM exporter instead (e.g. http://127.0.0.1:9400/metrics)")
}

// sampler opens the GPU telemetry source; nil when telemetry is off. A
// missing source is not an error: the report then says
// "unavailable: <reason>", and stderr says so once when the flags asked for
// telemetry (a DCGM URL or a sampling interval of their own); by default a
// host without GPUs runs quietly.
func (f *telemetryFlags) sampler(stderr io.Writer) (*telemetry.Sampler, error) {
	switch {
	case f.interval < 0:
		return nil, fmt.Errorf("--gpu-sample-interval: want a duration of at least 0, got %s", f.interval)
	case f.interval == 0 && f.dcgmURL != "":
		return nil, fmt.Errorf("--dcgm-url needs a --gpu-sample-interval above 0")
	case f.interval == 0:
		return nil, nil
	case f.interval < time.Millisecond:
		return nil, fmt.Errorf("--gpu-sample-interval: want at least 1ms, got %s", f.interval)
	}
	s := telemetry.Open(context.Background(), telemetry.Options{Interval: f.interval, DCGMURL: f.dcgmURL})
	if err := s.Err(); err != nil && (f.dcgmURL != "" || f.interval != telemetry.DefaultInterval) {
		fmt.Fprintf(stderr, "GPU telemetry unavailable: %v\n", err)
	}
	return s, nil
}

// printSweepEnergy writes, when any tested rate was sampled, each rate's
// energy per output token and per qualified request.
func printSweepEnergy(w io.Writer, s *capacity.Sweep) {
	sampled := false
	for _, p := range s.Points {
		sampled = sampled || p.Report.GPUTelemetry.Available()
	}
	if !sampled {
		return
	}
	fmt.Fprintln(w, "\nGPU energy per rate:")
	for _, p := range s.Points {
		g := p.Report.GPUTelemetry
		if !g.Available() || g.EnergyJ == nil {
			fmt.Fprintf(w, "  %g req/s: energy unknown (%s)\n", p.OfferedRPS, g.UnavailableReason())
			continue
		}
		fmt.Fprintf(w, "  %g req/s: %s J/output token, %s J/qualified request (%.1f J, %s, %d GPU)\n", p.OfferedRPS,
			fmtEnergy(g.JoulesPerOutputToken), fmtEnergy(g.JoulesPerQualifiedRequest), *g.EnergyJ, g.EnergyMethod, len(g.GPUs))
	}
}

// fmtEnergy prints joules with four significant digits; n/a when undefined.
func fmtEnergy(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*v, 'g', 4, 64)
}
