package telemetry

import (
	"context"
	"fmt"
)

// EnvRequireGPU names the environment variable that turns a missing GPU
// into a failure instead of a skip; the same variable as
// containers.EnvRequireGPU.
const EnvRequireGPU = "SERVEBENCH_REQUIRE_GPU"

// Detection is what a telemetry source sees of this machine's GPUs.
type Detection struct {
	// Source is the source that answered: "dcgm", "nvml" or "nvidia-smi".
	Source string
	// GPUs counts the GPUs it lists.
	GPUs int
}

// DetectGPUs finds this machine's GPUs through the telemetry sources, in
// Open's order (the DCGM exporter when opts.DCGMURL is set, else NVML,
// else nvidia-smi). It is how a GPU is detected for an engine run as a
// local process, where Docker's NVIDIA runtime says nothing. The error
// says why each source failed.
func DetectGPUs(ctx context.Context, opts Options) (Detection, error) {
	s := Open(ctx, opts)
	defer s.Close()
	if s.Source() == nil {
		return Detection{}, s.Err()
	}
	d := Detection{Source: s.Source().Name()}
	if c, ok := s.Source().(interface{ GPUs() int }); ok {
		d.GPUs = c.GPUs()
	}
	return d, nil
}

// GPUSkipReason returns why a spec that runs an engine as a local process
// on GPUs cannot run here, or "" when a telemetry source lists at least
// one GPU. Pair it with SERVEBENCH_REQUIRE_GPU=1 as containers.SkipIfNoGPU
// does for containers.
func GPUSkipReason(ctx context.Context, opts Options) string {
	d, err := DetectGPUs(ctx, opts)
	if err != nil {
		return fmt.Sprintf("GPU process spec needs a GPU that NVML, nvidia-smi or a DCGM exporter can see: %v (set %s=1 to fail instead of skipping)", err, EnvRequireGPU)
	}
	if d.GPUs == 0 {
		return fmt.Sprintf("GPU process spec needs a GPU: %s lists none (set %s=1 to fail instead of skipping)", d.Source, EnvRequireGPU)
	}
	return ""
}
