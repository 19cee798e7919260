package suites

import (
	"context"
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench/telemetry"
)

// EnvDCGMURL names the environment variable that points the GPU telemetry
// of contracts at a DCGM exporter (e.g. http://127.0.0.1:9400/metrics)
// instead of NVML or nvidia-smi on this machine.
const EnvDCGMURL = "SERVEBENCH_DCGM_URL"

// gpuTelemetryOptions says where contracts read the GPUs; tests replace it.
var gpuTelemetryOptions = func() telemetry.Options {
	return telemetry.Options{Interval: telemetry.DefaultInterval, DCGMURL: os.Getenv(EnvDCGMURL)}
}

// declaresEnergy reports whether an energy objective is declared.
func (o Objectives) declaresEnergy() bool {
	return o.JoulesPerOutputToken != nil || o.JoulesPerQualifiedRequest != nil
}

// SamplesGPUs reports whether the contract's runs sample the GPUs (each
// report then carries GPUTelemetry): when its engine asks for GPUs or it
// declares an energy objective.
func (c *Contract) SamplesGPUs() bool {
	if (c.Engine != nil && c.Engine.GPUs != 0) || c.Objectives.declaresEnergy() {
		return true
	}
	for _, t := range c.Tiers {
		if t.Objectives.declaresEnergy() {
			return true
		}
	}
	return false
}

// gpuSampler opens the GPU telemetry of one load point; nil when the
// contract does not sample. Close it after the run.
func (c *Contract) gpuSampler(ctx context.Context) *telemetry.Sampler {
	if !c.SamplesGPUs() {
		return nil
	}
	return telemetry.Open(ctx, gpuTelemetryOptions())
}

// CheckProcessGPUs is the GPU check of an engine run as a local process,
// where Docker's NVIDIA runtime says nothing: when spec asks for GPUs and
// no telemetry source (NVML, nvidia-smi, or the DCGM exporter of
// SERVEBENCH_DCGM_URL) lists one, it returns ErrEngineUnavailable with the
// reason, so the contract's specs are skipped, or failed under
// SERVEBENCH_REQUIRE_GPU=1, as for a container. A process starter calls it
// before starting the engine.
func CheckProcessGPUs(ctx context.Context, spec EngineSpec) error {
	if spec.GPUs == 0 {
		return nil
	}
	if reason := telemetry.GPUSkipReason(ctx, gpuTelemetryOptions()); reason != "" {
		return fmt.Errorf("%w: %s", ErrEngineUnavailable, reason)
	}
	return nil
}
