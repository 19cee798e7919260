package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/report"
)

// GPUSampler samples the GPUs over a run's measurement: Run calls
// StartGPUSampling right before the first request of the window is sent
// and the returned stop right after the last one ends. Package
// servebench/telemetry implements it with NVML, nvidia-smi or a DCGM
// exporter. A sampler never fails a run: when it has no source, stop
// returns a GPUTelemetry whose Status says "unavailable: <reason>".
type GPUSampler interface {
	StartGPUSampling(ctx context.Context) (stop func() *report.GPUTelemetry)
}
